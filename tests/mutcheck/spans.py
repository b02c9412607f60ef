"""A mutant's replacement put in place of its span or Stryker location, lines split at line feeds
as LibCST and Stryker's viewer count them, and a unified diff applied: the tests' own reading of
what a report says."""

import re
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


def patched(text: str, diff: str) -> str:
    """`text` with a unified diff of one file applied (what `patch` would make of it); each hunk's
    lines must be the text's own where it says they are."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    lines = lines if lines[-1] else lines[:-1]
    written, at = [], 0
    diff_lines = diff.split("\n")[2:]  # past the --- and +++ lines
    index = 0
    while index < len(diff_lines) and diff_lines[index]:
        header = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$", diff_lines[index])
        assert header, diff_lines[index]
        start = int(header[1]) - (1 if header[2] != "0" else 0)
        written += lines[at:start]
        at = start
        index += 1
        while index < len(diff_lines) and diff_lines[index][:1] in (" ", "-", "+", "\\"):
            sign, body = diff_lines[index][:1], diff_lines[index][1:] + "\n"
            if index + 1 < len(diff_lines) and diff_lines[index + 1].startswith("\\"):
                body = body[:-1]  # "\ No newline at end of file"
            if sign in " -":
                assert lines[at] == body, (at, lines[at], body)
                at += 1
            if sign in " +":
                written.append(body)
            index += 1
    return "".join(written + lines[at:])
