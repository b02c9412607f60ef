"""Which tests ran a mutant's own lines: the lines of its span that a function's code runs, and the
tests whose baseline run executed one of them (the host notes each test's lines, see `host.reach`).

Until a test first executes the mutated code, a run under the mutant goes exactly as the unmutated
one did; so when no test of the baseline executed the span's lines, none executes them under the
mutant either, and a mutant no test kills is `no-coverage`, not a survivor. Where that cannot be
seen, the mutant has no line reach and keeps its function reach: lines that also run outside any
test (module or class-body code, code run while pytest imported the project), a span with no code
of its own (`global`, a docstring), tests that ran target code in a subprocess, and a function
that started in a test without any of its lines being seen.
"""

import dis
import inspect
from collections.abc import Iterator
from types import CodeType

from mutcheck.core.line_reach import LineReach
from mutcheck.core.module_scope import reach_name
from mutcheck.core.source_text import Span


class FileLines:
    """One file's lines, compiled once: for each line with code, the functions whose code runs it
    (by the reach name of the `def` that holds it, see `module_scope.reach_name`), and the lines that
    run outside any function."""

    def __init__(self, source: str, filename: str) -> None:
        self.in_functions: dict[int, set[str]] = {}  # line -> the defs whose code (or lambdas') runs it
        self.of_function: dict[str, set[int]] = {}  # a def -> the lines its code (or its lambdas') runs
        self.elsewhere: set[int] = set()  # lines that module, class-body or def-less code runs
        self._walk(compile(source, filename, "exec", dont_inherit=True), None)

    def _walk(self, code: CodeType, holder: str | None) -> None:
        function = bool(code.co_flags & inspect.CO_NEWLOCALS)
        if function and not code.co_name.startswith("<"):
            holder = reach_name(code.co_filename, code.co_qualname)
        lines = _lines_run(code, function)
        if function and holder is not None:
            for line in lines:
                self.in_functions.setdefault(line, set()).add(holder)
            self.of_function.setdefault(holder, set()).update(lines)
        else:
            self.elsewhere |= lines
        for constant in code.co_consts:
            if isinstance(constant, CodeType):
                self._walk(constant, holder if function else None)


def _lines_run(code: CodeType, function: bool) -> set[int]:
    """The lines whose code reports a line event when it runs: a function's prologue (up to its
    first `RESUME`, on the `def` line) reports none."""
    instructions: Iterator[dis.Instruction] = iter(dis.get_instructions(code))
    if function:
        for instruction in instructions:
            if instruction.opname == "RESUME":
                break
    return {line for instruction in instructions if (line := _line_of(instruction)) is not None}


def _line_of(instruction: dis.Instruction) -> int | None:
    positions = instruction.positions
    return positions.lineno if positions is not None else None


def line_reach(
    lines_of: FileLines,
    span: Span,
    executed: list[set[int]],
    import_reached: set[str],
    in_subprocesses: set[int],
    started: list[set[str]],
) -> LineReach | None:
    """The line reach of `span` in a file, given the lines of that file each test ran (`executed`,
    in the tests' order) and the functions that started in each (`started`). None where it cannot
    be seen (see above); where a test started a function that holds the lines without any of that
    function's lines being seen to run (another tracer took the place of ours on 3.11, a thread
    started before the test, a file whose loaded code is not its text); and for a span that only
    inserts (a revert of deleted lines has no line of its own)."""
    if in_subprocesses or (span.start_line, span.start_column) == (span.end_line, span.end_column):
        return None
    own = range(span.start_line, span.last_line + 1)
    if any(line in lines_of.elsewhere for line in own):
        return None
    lines = [line for line in own if line in lines_of.in_functions]
    holders = {holder for line in lines for holder in lines_of.in_functions[line]}
    if not lines or any(
        name == holder or name.startswith(holder + ".") for holder in holders for name in import_reached
    ):
        return None
    for holder in holders:
        its_lines = lines_of.of_function[holder]
        if any(holder in names and ran.isdisjoint(its_lines) for names, ran in zip(started, executed, strict=True)):
            return None
    tests = [index for index, ran in enumerate(executed) if not ran.isdisjoint(lines)]
    ran = set().union(*(executed[index] for index in tests)) if tests else set()
    return LineReach(lines, [line for line in lines if line not in ran], tests)
