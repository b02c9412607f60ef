"""The lines of a mutant no test killed that no test ran, as the reports and `show` say them."""

from mutcheck.core.texts import say
from mutcheck.results.model import MutantEntry


def never_ran_line(entry: MutantEntry, lang: str) -> str | None:
    """A mutant no test killed: which of its lines no test ran, as a sentence; None when all ran or
    its lines were not seen (see `selection.line_reach`)."""
    reach = entry.line_reach
    if reach is None or not reach.never_ran or entry.killers:
        return None
    return say(lang, "text", "never_ran", file=entry.file, lines=line_ranges(reach.never_ran))


def line_ranges(lines: list[int]) -> str:
    """Sorted line numbers as runs: `3–5, 9`."""
    runs: list[list[int]] = []
    for line in lines:
        if runs and line == runs[-1][-1] + 1:
            runs[-1].append(line)
        else:
            runs.append([line])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)
