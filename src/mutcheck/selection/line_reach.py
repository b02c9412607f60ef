"""Which tests ran a mutant's own lines: the lines of its span that a function's code runs, and the
tests whose baseline run executed one of them (the host notes each test's lines, see `host.reach`).

Until a test first executes the mutated code, a run under the mutant goes exactly as the unmutated
one did; so when no test of the baseline executed the span's lines, none executes them under the
mutant either, and a mutant no test kills is `no-coverage`, not a survivor. Where that cannot be
seen, the mutant has no line reach and keeps its function reach: lines that also run outside any
test (module or class-body code, code run while pytest imported the project), a span with no code
of its own (`global`, a docstring), and tests that ran target code in a subprocess.
"""

import dis
import inspect
from collections.abc import Iterator
from types import CodeType

from mutcheck.core.line_reach import LineReach


class FileLines:
    """One file's lines, compiled once: for each line with code, the functions whose code runs it
    (by the qualified name of the `def` that holds it), and the lines that run outside any function."""

    def __init__(self, source: str, filename: str) -> None:
        self.in_functions: dict[int, set[str]] = {}  # line -> the defs whose code (or lambdas') runs it
        self.elsewhere: set[int] = set()  # lines that module, class-body or def-less code runs
        self._walk(compile(source, filename, "exec", dont_inherit=True), None)

    def _walk(self, code: CodeType, holder: str | None) -> None:
        function = bool(code.co_flags & inspect.CO_NEWLOCALS)
        if function and not code.co_name.startswith("<"):
            holder = code.co_qualname
        lines = _lines_run(code, function)
        if function and holder is not None:
            for line in lines:
                self.in_functions.setdefault(line, set()).add(holder)
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
    first_line: int,
    last_line: int,
    executed: list[set[int]],
    import_reached: set[str],
    in_subprocesses: set[int],
) -> LineReach | None:
    """The line reach of a span from `first_line` to `last_line` of a file, given the lines of that
    file each test ran (`executed`, in the tests' order); None where it cannot be seen (see above)."""
    if in_subprocesses:
        return None
    span = range(first_line, last_line + 1)
    if any(line in lines_of.elsewhere for line in span):
        return None
    lines = [line for line in span if line in lines_of.in_functions]
    holders = {holder for line in lines for holder in lines_of.in_functions[line]}
    if not lines or any(
        name == holder or name.startswith(holder + ".") for holder in holders for name in import_reached
    ):
        return None
    tests = [index for index, ran in enumerate(executed) if not ran.isdisjoint(lines)]
    ran = set().union(*(executed[index] for index in tests)) if tests else set()
    return LineReach(lines, [line for line in lines if line not in ran], tests)
