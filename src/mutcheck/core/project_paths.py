"""Paths the user gives: relative to the project root, inside it once symlinks are resolved; the target's files."""

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


def target_files(root: Path, targets: tuple[str, ...]) -> list[str]:
    """The Python files under the configured target paths, relative to `root` (symlinks out of it left out)."""
    files = set()
    for target in targets:
        path = root / target
        candidates = [path] if path.is_file() else sorted(path.rglob("*.py"))
        files.update(str(candidate.relative_to(root)) for candidate in candidates if candidate.suffix == ".py")
    return sorted(file for file in files if outside_project(root, file) is None)
