"""Scratch copies of the project, so that nothing a run does can touch the user's working tree."""

import functools
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from mutcheck.core import git

# Caches that tools make and fill as they run: every run starts them empty in its copy.
CACHE_FOLDERS = frozenset({"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", ".tox", ".nox"})
# Never part of what the tests import, whatever git says: a repository without a .gitignore lists
# its untracked virtual environment and caches as files to copy.
_SKIPPED_NAMES = {".git", ".hg", ".svn", "node_modules", *CACHE_FOLDERS}
# Every virtual environment has one at its top, whatever its name; a conda environment, the other.
ENVIRONMENT_MARKERS = ("pyvenv.cfg", "conda-meta")


FileStatus = tuple[int, int, int, int, int]  # device, inode, size, modification and status-change times (ns)


def file_status(path: str | Path) -> FileStatus | None:
    """What changes whenever a file's bytes do (a write changes the status-change time, which no one can set back)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)


@dataclass(frozen=True)
class ScratchCopy:
    files: int
    bytes: int
    seconds: float
    taken: dict[str, FileStatus | None] = field(default_factory=dict)  # each file copied, and its status then


def _skipping(root: Path) -> Callable[[PurePath], bool]:
    """A predicate on directories relative to `root`: inside a VCS folder, cache or virtual environment."""

    @functools.cache
    def skipped(directory: PurePath) -> bool:
        if directory == PurePath("."):
            return False
        return (
            directory.name in _SKIPPED_NAMES
            or any((root / directory / marker).exists() for marker in ENVIRONMENT_MARKERS)
            or skipped(directory.parent)
        )

    return skipped


def project_files(root: Path) -> list[Path]:
    """Files git tracks or would track (untracked, not ignored); without git, every file. Either way
    without VCS folders, caches and virtual environments."""
    skipped = _skipping(root)
    listed = git.output(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    if listed is not None:
        names = [Path(name) for name in os.fsdecode(listed).split("\0") if name]
        files = []
        for name in names:
            if skipped(name.parent):
                continue
            if _nested_repository(root / name):  # a submodule, or a repository inside this one: copied too
                files += [name / inner for inner in project_files(root / name)]
            elif _copied_kind(root, name, skipped):
                files.append(name)
        return files
    files = []
    for directory, subdirectories, names in os.walk(root):
        relative = Path(directory).relative_to(root)
        subdirectories[:] = [name for name in subdirectories if not skipped(relative / name)]
        files += [relative / name for name in names if (root / relative / name).is_file()]
        files += [relative / name for name in subdirectories if _copied_kind(root, relative / name, skipped)]
    return files


def _nested_repository(path: Path) -> bool:
    """A folder git lists as one entry that is a repository of its own (not a link to a folder)."""
    return path.is_dir() and not path.is_symlink() and (path / ".git").exists()


def _copied_kind(root: Path, relative: Path, skipped: Callable[[PurePath], bool]) -> bool:
    """A regular file, or a symlink to one or to a folder (git tracks a linked folder as one entry),
    unless the folder is one the copy leaves out (a link to the virtual environment)."""
    path = root / relative
    if not path.is_symlink() or not path.is_dir():
        return path.is_file()
    linked = path.resolve()
    return not (linked.is_relative_to(root.resolve()) and skipped(PurePath(linked.relative_to(root.resolve()))))


def _bytecode(root: Path, files: list[Path]) -> list[Path]:
    """The checkout's compiled files for the sources being copied: this interpreter's, validated
    against their source's time and size (which the copy keeps), so Python and pytest's
    assertion rewriter reuse them instead of compiling the project in every run. A pyc that
    is not checked against its source (hash-based) is never copied: a mutated file could load it."""
    tag = sys.implementation.cache_tag
    found = []
    for relative in files:
        if relative.suffix != ".py" or not (folder := root / relative.parent / "__pycache__").is_dir():
            continue
        for compiled in folder.glob(f"{relative.stem}.{tag}*.pyc"):
            with compiled.open("rb") as file:
                header = file.read(8)
            if len(header) == 8 and int.from_bytes(header[4:8], "little") == 0:  # flags 0: checked by time
                found.append(compiled.relative_to(root))
    return found


def remove_bytecode(source: Path) -> None:
    """Drop a source file's compiled files, once the file is rewritten (a mutant written in a copy)."""
    for compiled in (source.parent / "__pycache__").glob(f"{source.stem}.*.pyc"):
        compiled.unlink()


def _linked_project_file(path: Path, real_root: Path) -> Path | None:
    """The project file (relative to the root) that a symlink leads to, if it leads into the project."""
    if not path.is_symlink():
        return None
    linked = path.resolve()
    return linked.relative_to(real_root) if linked.is_relative_to(real_root) else None


def _under_link(destination: Path, relative: Path) -> bool:
    folder = destination
    for part in relative.parts[:-1]:
        folder = folder / part
        if folder.is_symlink():
            return True
    return False


def copy_project(root: Path, destination: Path) -> ScratchCopy:
    """Copy the project's files and their compiled files; a symlink to another of them (such as
    an editable install's link tree) or to one of its folders becomes a link to that file or
    folder in the copy, so the copy imports what the copy holds. A link to a folder outside the
    project leads where it led."""
    started = time.monotonic()
    size = 0
    files = project_files(root)
    files += _bytecode(root, files)
    copied = set(files)
    real_root = root.resolve()
    taken: dict[str, FileStatus | None] = {}
    for relative in files:
        source, target = root / relative, destination / relative
        taken[relative.as_posix()] = None
        if _under_link(destination, relative):  # reached through a folder link copied before: written there
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        linked = _linked_project_file(source, real_root)
        if linked is not None and (linked in copied or (root / linked).is_dir()):
            target.symlink_to(os.path.relpath(destination / linked, target.parent))
            continue
        if source.is_dir():  # a link to a folder outside the project
            target.symlink_to(source.resolve())
            continue
        status = file_status(source)
        shutil.copy2(source, target)
        # written while copied: what the copy holds is unknown, and matches no status
        taken[relative.as_posix()] = status if file_status(source) == status else (-1, -1, -1, -1, -1)
        size += target.stat().st_size
    return ScratchCopy(len(files), size, time.monotonic() - started, taken)
