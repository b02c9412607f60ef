"""What a failed collection said, bounded: each erroring item's node id and the first lines of pytest's
message for it (the traceback's frames left out), and the last lines a pytest host wrote."""

import os
from dataclasses import dataclass

SHOWN_ERRORS = 5
SHOWN_LINES = 6  # of one error's message
LINE_LIMIT = 240
LOG_LINES = 5


def _without_copy(text: str, copy: str) -> str:
    """Paths into the scratch copy written relative to the project, as the user knows them."""
    for path in dict.fromkeys((copy, os.path.realpath(copy))):
        text = text.replace(path + os.sep, "").replace(path, ".")
    return text


def _capped(line: str) -> str:
    return line if len(line) <= LINE_LIMIT else line[: LINE_LIMIT - 1] + "…"


def pytest_message(text: str, copy: str) -> list[str]:
    """The lines of a failed collect report's text that say what went wrong: pytest's own headline
    (an import error's) and the exception's lines (those pytest marks `E`); of a native traceback, the
    lines after its last frame; of any other message, all of it. At most SHOWN_LINES, then `…`."""
    text = _without_copy(text, copy)
    headline, traceback, _ = text.partition("\nTraceback:\n")
    lines = text.split("\n")
    marked = [line[4:] if line.startswith("E   ") else line[1:].strip() for line in lines if line[:2] in ("E", "E ")]
    if marked:
        lines = (headline.split("\n") if traceback else []) + marked
    elif lines and lines[0].startswith("Traceback (most recent call last):"):
        frames = [number for number, line in enumerate(lines) if line.startswith(" ")]
        lines = lines[frames[-1] + 1 :] if frames else lines
    lines = [_capped(line.rstrip()) for line in lines if line.strip()]
    return lines[:SHOWN_LINES] + (["…"] if len(lines) > SHOWN_LINES else [])


@dataclass(frozen=True)
class CollectionError:
    node_id: str  # "" for the session
    message: list[str]  # `pytest_message`
    error: str  # the line naming the exception, where one does

    @property
    def where(self) -> str:
        return self.node_id or "collection"


def described(errors: list[CollectionError]) -> str:
    """`N errors`, then each of the first SHOWN_ERRORS: its node id and message's first line, its
    further lines indented below; `and N more` for the rest."""
    lines = [f"{len(errors)} error{'' if len(errors) == 1 else 's'}"]
    for error in errors[:SHOWN_ERRORS]:
        first, *further = error.message or ["failed"]
        lines.append(f"  {error.where}: {first}")
        lines += [f"    {line}" for line in further]
    if len(errors) > SHOWN_ERRORS:
        lines.append(f"  and {len(errors) - SHOWN_ERRORS} more")
    return "\n".join(lines)


def in_one_line(errors: list[CollectionError]) -> str:
    """Each error's node id and exception, on one line: why a mutant broke its tests' modules."""
    return "; ".join(f"{error.where}: {error.error}" for error in errors)


def log_lines(log: str, copy: str) -> list[str]:
    """The last lines a pytest host wrote (pytest's own, when it stops before collecting), paths into
    the scratch copy written relative to the project."""
    return [_capped(line) for line in _without_copy(log, copy).strip().split("\n")[-LOG_LINES:]]
