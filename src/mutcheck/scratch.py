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
VENV_MARKER = "pyvenv.cfg"  # every virtual environment has one at its top, whatever its name


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
            directory.name in _SKIPPED_NAMES or (root / directory / VENV_MARKER).is_file() or skipped(directory.parent)
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


def copy_project(root: Path, destination: Path) -> ScratchCopy:
    started = time.monotonic()
    size = 0
    files = project_files(root)
    for relative in files:
        target = destination / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / relative, target)
        size += target.stat().st_size
    return ScratchCopy(len(files), size, time.monotonic() - started)
