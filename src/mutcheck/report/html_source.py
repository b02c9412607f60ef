"""The HTML page's source view: each mutated file's numbered lines, every catalogued mutant marked on its span."""

from dataclasses import dataclass
from typing import Any


@dataclass
class Mark:
    anchor: str  # the mutant's details
    id: str
    family: str
    verdict: str
    met: bool
    first: bool  # the span's first line names the mutant; its other lines carry a bar


@dataclass
class Line:
    anchor: str
    number: int
    text: str
    marks: list[Mark]


@dataclass
class SourceFile:
    path: str
    lines: list[Line]


def line_anchor(file_number: int, line: int) -> str:
    return f"s-{file_number}-{line}"


def mutant_anchor(number: int) -> str:
    """The details of the catalogued mutant `number` (from 1, in the results' order)."""
    return f"m-{number}"


def source_files(results: dict[str, Any]) -> tuple[list[SourceFile], dict[str, str]]:
    """The files catalogued mutants change, in path order, and each mutant's first line (id → anchor)."""
    catalogued = [entry for entry in results["mutants"] if not entry["generic"]]
    paths = sorted({entry["file"] for entry in catalogued})
    files, first_lines = [], {}
    for file_number, path in enumerate(paths, 1):
        lines = [
            Line(line_anchor(file_number, number), number, text, [])
            # lines end at "\n" only, as spans count them (a form feed or U+2028 does not end one)
            for number, text in enumerate(results["sources"][path].removesuffix("\n").split("\n"), 1)
        ]
        for mutant_number, entry in enumerate(catalogued, 1):
            if entry["file"] != path:
                continue
            span = entry["span"]
            first_lines[entry["id"]] = line_anchor(file_number, span["start_line"])
            anchor = mutant_anchor(mutant_number)
            mark = (anchor, entry["id"], entry["family"], entry["verdict"], entry["expectation_met"])
            for line in lines[span["start_line"] - 1 : span["end_line"]]:
                line.marks.append(Mark(*mark, first=line.number == span["start_line"]))
        files.append(SourceFile(path, lines))
    return files, first_lines
