"""The HTML page's source view: each mutated file's numbered lines, every catalogued mutant marked on its span."""

from dataclasses import dataclass

from mutcheck.results.model import Results

# More mutants than this starting on one line are marked by one count chip, which lists them.
CHIPS_PER_LINE = 3


@dataclass
class Mark:
    anchor: str  # the mutant's details
    id: str
    family: str
    verdict: str
    met: bool


@dataclass
class Line:
    anchor: str
    number: int
    text: str
    starts: list[Mark]  # the mutants whose span starts here: a chip each, or one count chip
    inside: list[Mark]  # the mutants whose span started on an earlier line: a bar

    @property
    def counted(self) -> bool:
        return len(self.starts) > CHIPS_PER_LINE


@dataclass
class SourceFile:
    anchor: str
    path: str
    whole: list[Mark]  # the mutants whose span is the whole file: marked in its header, not on every line
    lines: list[Line]


def file_anchor(file_number: int) -> str:
    return f"s-{file_number}"


def line_anchor(file_number: int, line: int) -> str:
    return f"s-{file_number}-{line}"


def mutant_anchor(number: int) -> str:
    """The details of the catalogued mutant `number` (from 1, in the results' order)."""
    return f"m-{number}"


def _last_line(span: dict[str, int]) -> int:
    """The span's last line; a span ending at the start of a line (a hunk's lines with their breaks) stops before it."""
    ends_at_a_line_start = span.end_column == 0 and span.end_line > span.start_line
    return span.end_line - 1 if ends_at_a_line_start else span.end_line


def _whole_file(span: dict[str, int], lines: list[Line]) -> bool:
    """The span holds all of the file's text, as a reverted, added or removed file and the whole change do."""
    file_end = (len(lines), len(lines[-1].text))
    return (span.start_line, span.start_column) == (1, 0) and (span.end_line, span.end_column) >= file_end


def source_files(results: Results) -> tuple[list[SourceFile], dict[str, str]]:
    """The files catalogued mutants change, in path order, and where each mutant is marked (id → anchor)."""
    catalogued = results.catalogued
    paths = sorted({entry.file for entry in catalogued})
    files, marked_at = [], {}
    for file_number, path in enumerate(paths, 1):
        lines = [
            Line(line_anchor(file_number, number), number, text, [], [])
            # lines end at "\n" only, as spans count them (a form feed or U+2028 does not end one)
            for number, text in enumerate(results.sources[path].removesuffix("\n").split("\n"), 1)
        ]
        source = SourceFile(file_anchor(file_number), path, [], lines)
        for mutant_number, entry in enumerate(catalogued, 1):
            if entry.file != path:
                continue
            span = entry.span
            mark = Mark(mutant_anchor(mutant_number), entry.id, entry.family, entry.verdict, entry.expectation_met)
            if _whole_file(span, lines):
                source.whole.append(mark)
                marked_at[entry.id] = source.anchor
                continue
            # Deleted last lines go back after the file's last line break: marked on the last line.
            start = min(span.start_line, len(lines))
            marked_at[entry.id] = line_anchor(file_number, start)
            lines[start - 1].starts.append(mark)
            for line in lines[start : _last_line(span)]:
                line.inside.append(mark)
        files.append(source)
    return files, marked_at
