"""A mutant's replacement put in place of its span or Stryker location, lines split at line feeds
as LibCST and Stryker's viewer count them: the tests' own reading of what a report says."""

from typing import Any


def _offset(text: str, line: int, column: int) -> int:
    """Where line `line` (from 1), column `column` (from 0) is in `text`."""
    return sum(len(previous) + 1 for previous in text.split("\n")[: line - 1]) + column


def at_span(text: str, span: dict[str, int], replacement: str) -> str:
    """`text` with a results span's text (columns from 0) replaced."""
    start = _offset(text, span["start_line"], span["start_column"])
    return text[:start] + replacement + text[_offset(text, span["end_line"], span["end_column"]) :]


def at_location(text: str, location: dict[str, Any], replacement: str) -> str:
    """`text` with a Stryker location's text (columns from 1, the end exclusive) replaced."""
    start = _offset(text, location["start"]["line"], location["start"]["column"] - 1)
    return text[:start] + replacement + text[_offset(text, location["end"]["line"], location["end"]["column"] - 1) :]
