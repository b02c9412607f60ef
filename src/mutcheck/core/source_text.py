"""A file's text as edits see it: spans of lines and columns, where its lines start, a span
replaced, unified diffs of the result, and source bytes decoded as Python decodes them."""

import difflib
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Span:
    """1-based, inclusive lines; columns as LibCST counts them (0-based)."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int

    @property
    def last_line(self) -> int:
        """The last line the span touches: a span of whole lines ends at the start of the next one."""
        return self.end_line - 1 if self.end_column == 0 and self.end_line > self.start_line else self.end_line


def line_offsets(text: str) -> tuple[int, ...]:
    """The character offset at which each line of `text` starts (plus one past the end).

    Lines end at "\n" only, as LibCST counts them in text read with universal newlines: a form
    feed or U+2028 inside a line does not end it (str.splitlines would say it does)."""
    offsets = [0, *(match.end() for match in re.finditer("\n", text))]
    if offsets[-1] != len(text):
        offsets.append(len(text))
    return tuple(offsets)


def replaced(text: str, offsets: tuple[int, ...], span: Span, replacement: str) -> str:
    """`text` (its `line_offsets`) with the text of `span` replaced by `replacement`."""
    start = offsets[span.start_line - 1] + span.start_column
    return text[:start] + replacement + text[offsets[span.end_line - 1] + span.end_column :]


def lines_of(text: str) -> list[str]:
    """Lines as git and the spans count them: ended by "\n" only, each keeping its end."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def file_diff(path: str, original: str, mutated: str) -> str:
    """A unified diff of one file, `a/` and `b/` prefixed as git writes it."""
    return "".join(
        difflib.unified_diff(lines_of(original), lines_of(mutated), fromfile=f"a/{path}", tofile=f"b/{path}")
    )


_CONTEXT = 3  # lines of context around a change, as git and difflib write them


def edit_diff(path: str, text: str, offsets: tuple[int, ...], span: Span, replacement: str) -> str:
    """The unified diff of `text` (its `line_offsets`) with `span` replaced: see `lines_diff`; only
    the lines around the edit are read."""
    count = len(offsets) - 1
    start = span.start_line - 1
    end = span.end_line - 1 if span.end_column == 0 else span.end_line  # a span may end where a line starts
    at = offsets[span.start_line - 1] + span.start_column
    to = offsets[span.end_line - 1] + span.end_column
    new = text[offsets[start] : at] + replacement + text[to : offsets[end]]
    if new and not new.endswith("\n") and end < count:  # the edit runs on into the line after it
        new += text[offsets[end] : offsets[end + 1]]
        end += 1
    old, new_lines = lines_of(text[offsets[start] : offsets[end]]), lines_of(new)
    # an edit that rewrites more than it changes (a statement widened to be unique) shows its change only
    same = 0
    while same < min(len(old), len(new_lines)) and old[same] == new_lines[same]:
        same += 1
    start, old, new_lines = start + same, old[same:], new_lines[same:]
    same = 0
    while same < min(len(old), len(new_lines)) and old[-1 - same] == new_lines[-1 - same]:
        same += 1
    end, new_lines = end - same, new_lines[: len(new_lines) - same]
    low, high = max(start - _CONTEXT, 0), min(end + _CONTEXT, count)
    window = lines_of(text[offsets[low] : offsets[high]])
    return lines_diff(path, window, [(start - low, end - low, new_lines)], first=low)


def lines_diff(path: str, lines: list[str], changes: list[tuple[int, int, list[str]]], first: int = 0) -> str:
    """The unified diff of `lines` (a file's, from its line index `first` on) with each change
    made: the lines from index `start` to before `end` become the change's lines (changes in
    order, none overlapping). Three lines of context, and hunks whose context would meet written
    as one, as git and difflib write them; made from the changes, so its work grows with them,
    not with the file."""
    groups: list[list[tuple[int, int, list[str]]]] = []
    for change in changes:
        if groups and change[0] - groups[-1][-1][1] <= 2 * _CONTEXT:
            groups[-1].append(change)
        else:
            groups.append([change])
    parts = [f"--- a/{path}\n+++ b/{path}\n"] if groups else []
    shift = 0  # how many lines the changes before a hunk added
    for group in groups:
        low, high = max(group[0][0] - _CONTEXT, 0), min(group[-1][1] + _CONTEXT, len(lines))
        body, at, added = [], low, 0
        for start, end, new in group:
            body += [_diff_line(" ", line) for line in lines[at:start]]
            body += [_diff_line("-", line) for line in lines[start:end]]
            body += [_diff_line("+", line) for line in new]
            added += len(new) - (end - start)
            at = end
        body += [_diff_line(" ", line) for line in lines[at:high]]
        header = f"@@ -{_range(first + low, high - low)} +{_range(first + low + shift, high - low + added)} @@\n"
        parts.append(header)
        parts += body
        shift += added
    return "".join(parts)


def _range(start: int, length: int) -> str:
    """A hunk header's range of lines from index `start`, as difflib writes it (an empty one
    names the line before it)."""
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def _diff_line(sign: str, line: str) -> str:
    return sign + line if line.endswith("\n") else f"{sign}{line}\n\\ No newline at end of file\n"


def read_source(path: Path) -> tuple[str, str]:
    """A Python file's text and encoding, read as Python reads it (a coding cookie or BOM decides).

    Raises SyntaxError for an unknown encoding and UnicodeDecodeError for bytes it cannot decode."""
    return decode_source(path.read_bytes())


def decode_source(data: bytes) -> tuple[str, str]:
    """Python source bytes (a file's, or git's copy of one) as text, and their encoding; see `read_source`."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return io.TextIOWrapper(io.BytesIO(data), encoding).read(), encoding  # line endings as open() reads them
