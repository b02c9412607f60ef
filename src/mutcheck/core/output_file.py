"""Files a command was asked to write (`--json`, `--markdown`, `-o`, ...): checked before any work
starts, written once it is done, and a failure one line naming the option and the path."""

import os
from pathlib import Path

from mutcheck.core.problems import InputError, Problem


def unwritable(option: str, path: Path) -> Problem | None:
    """Why `path` cannot be written, as one problem naming the option; None where it can be (as far
    as can be told without writing: a full disk still shows only when the file is written)."""
    if path.is_dir():
        return Problem(str(path), "", option, "is a folder, not a file")
    if path.exists():
        return None if os.access(path, os.W_OK) else Problem(str(path), "", option, "cannot be written (no permission)")
    folder = path.parent
    while not folder.exists() and not folder.is_symlink():
        folder = folder.parent
    if not folder.is_dir():
        return Problem(str(path), "", option, f"cannot be written: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        return Problem(str(path), "", option, f"cannot be written: no permission to write in {folder}")
    return None


def check_outputs(outputs: dict[str, Path | None]) -> None:
    """InputError listing every requested output (option -> path; None: not asked for) that cannot be written."""
    problems = [problem for option, path in outputs.items() if path and (problem := unwritable(option, path))]
    if problems:
        raise InputError(problems)


def write_output(option: str, path: Path, text: str) -> None:
    """`text` at `path` (its folders made where missing); InputError naming the option when it cannot be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InputError([Problem(str(path), "", option, f"cannot be written ({reason})")]) from error
