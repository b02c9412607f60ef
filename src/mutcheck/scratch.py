"""Scratch copies of the project, so that nothing a run does can touch the user's working tree."""

import functools
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath

# Never part of what the tests import, whatever git says: a repository without a .gitignore lists
# its untracked virtual environment and caches as files to copy.
_SKIPPED_NAMES = {
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    ".tox",
    ".nox",
    "node_modules",
}
# Every virtual environment has one at its top, whatever its name; a conda environment, the other.
ENVIRONMENT_MARKERS = ("pyvenv.cfg", "conda-meta")


@dataclass(frozen=True)
class ScratchCopy:
    files: int
    bytes: int
    seconds: float


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
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0:
        names = [Path(name) for name in listed.stdout.decode().split("\0") if name]
        return [name for name in names if not skipped(name.parent) and (root / name).is_file()]
    files = []
    for directory, subdirectories, names in os.walk(root):
        relative = Path(directory).relative_to(root)
        subdirectories[:] = [name for name in subdirectories if not skipped(relative / name)]
        files += [relative / name for name in names if (root / relative / name).is_file()]
    return files


def _linked_project_file(path: Path, real_root: Path) -> Path | None:
    """The project file (relative to the root) that a symlink leads to, if it leads into the project."""
    if not path.is_symlink():
        return None
    linked = path.resolve()
    return linked.relative_to(real_root) if linked.is_relative_to(real_root) else None


def copy_project(root: Path, destination: Path) -> ScratchCopy:
    """Copy the project's files; a symlink to another of them (such as an editable install's link
    tree) becomes a link to that file in the copy, so the copy imports what the copy holds."""
    started = time.monotonic()
    size = 0
    files = project_files(root)
    copied = set(files)
    real_root = root.resolve()
    for relative in files:
        source, target = root / relative, destination / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if (linked := _linked_project_file(source, real_root)) in copied:
            target.symlink_to(os.path.relpath(destination / linked, target.parent))
            continue
        shutil.copy2(source, target)
        size += target.stat().st_size
    return ScratchCopy(len(files), size, time.monotonic() - started)
