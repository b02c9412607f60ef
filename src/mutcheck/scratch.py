"""Scratch copies of the project, so that nothing a run does can touch the user's working tree."""

import shutil
import subprocess
from pathlib import Path

_SKIPPED_DIRECTORIES = {".git", ".venv", "venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache"}


def project_files(root: Path) -> list[Path]:
    """Files git tracks or would track (untracked, not ignored); without git, every file but caches."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0:
        return [Path(name) for name in listed.stdout.decode().split("\0") if name and (root / name).is_file()]
    return [
        path.relative_to(root)
        for path in root.rglob("*")
        if path.is_file() and not _SKIPPED_DIRECTORIES & set(path.relative_to(root).parts)
    ]


def copy_project(root: Path, destination: Path) -> Path:
    for relative in project_files(root):
        target = destination / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / relative, target)
    return destination
