"""What a run says of the tests that ran a mutant's own lines (`selection.line_reach` finds them)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class LineReach:
    """Which tests ran a mutant's own lines in the unmutated run."""

    lines: list[int]  # the span's lines that a function's code runs
    never_ran: list[int]  # those no test ran
    tests: list[int]  # indices of the tests that ran one of them (into the run's tests)
