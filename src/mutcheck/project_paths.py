"""Paths the user gives: relative to the project root, and inside it once symlinks are resolved."""

from pathlib import Path


def outside_project(root: Path, relative: str) -> str | None:
    """Why `relative` does not name a place inside `root`, or None when it does."""
    path = Path(relative)
    if path.is_absolute():
        return f"must be relative to the project root, not absolute: {relative!r}"
    try:
        resolved = (root / path).resolve()
    except (OSError, ValueError) as error:  # a loop of symlinks, a NUL byte
        return f"is not a usable path: {relative!r} ({error})"
    if not resolved.is_relative_to(root.resolve()):
        return f"leads outside the project (through '..' or a symlink): {relative!r}"
    return None
