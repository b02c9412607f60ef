"""The terminal summary of `mutcheck suggest`: counts per operator, the survivors with their diffs,
the killed, what no test reaches, and what was written; in the first configured language."""

from rich.console import Console
from rich.table import Table

from mutcheck.core.texts import say
from mutcheck.core.verdicts import BROKEN, KILLED, NO_COVERAGE, SURVIVED, TIMEOUT
from mutcheck.report.terminal import baseline_failures, print_diff, print_plain
from mutcheck.suggest.operators import OPERATORS
from mutcheck.suggest.suggest import ARID, DUPLICATE, NOT_APPLICABLE, Suggestions

_RUN_COLUMNS = ("suggested", "killed", "survived", "unreached")
_SKIP_COLUMNS = (DUPLICATE, ARID, NOT_APPLICABLE)
_COLUMN_OF = {
    KILLED: "killed",
    TIMEOUT: "killed",
    SURVIVED: "survived",
    NO_COVERAGE: "unreached",
    BROKEN: NOT_APPLICABLE,
}


def _counts(suggestions: Suggestions) -> dict[str, dict[str, int]]:
    counts = {operator: dict.fromkeys(_RUN_COLUMNS + _SKIP_COLUMNS, 0) for operator in OPERATORS}
    for result in suggestions.results:
        row = counts[result.applied.mutant.family]
        row["suggested"] += 1
        row[_COLUMN_OF[result.verdict]] += 1
    for operator, skipped in suggestions.skipped.items():
        for reason, count in skipped.items():
            counts[operator][reason] += count
    return {operator: row for operator, row in counts.items() if any(row.values())}


def render_suggestions(suggestions: Suggestions, console: Console, several: bool = False) -> None:
    """One file's suggestions: the table per operator, the survivors' diffs, the killed and the
    unreached, what was written; headed by the file's name when `several` files were run."""
    lang = suggestions.lang
    if several:
        where = suggestions.file + (f"::{suggestions.scope}" if suggestions.scope else "")
        console.rule(where, align="left", style="bold")
    if suggestions.baseline is not None:
        baseline_failures(suggestions.baseline, lang, console)
        print_plain(console, say(lang, "terminal", "baseline_failed"))
        return
    columns = ("operator", *_RUN_COLUMNS, *_SKIP_COLUMNS)
    table = Table(*(say(lang, "suggest", column) for column in columns), box=None, pad_edge=False)
    counts = _counts(suggestions)
    for operator, row in counts.items():
        table.add_row(operator, *(str(row[column]) for column in columns[1:]))
    totals = [str(sum(row[column] for row in counts.values())) for column in columns[1:]]
    table.add_row(say(lang, "suggest", "total"), *totals)
    console.print(table)
    survivors = [result for result in suggestions.results if result.verdict == SURVIVED]
    if survivors:
        print_plain(console, "\n" + say(lang, "suggest", "survivors", count=len(survivors)))
    for result in survivors:
        mutant = result.applied.mutant
        print_plain(console, say(lang, "suggest", "survivor", id=mutant.id, title=mutant.title[lang]))
        print_diff(console, result.applied.diff)
    for result in suggestions.results:
        mutant = result.applied.mutant
        if result.verdict in (KILLED, TIMEOUT):
            line = say(lang, "suggest", "killed_line", id=mutant.id, count=len(result.killers), first=result.killers[0])
            print_plain(console, line)
        elif result.verdict == NO_COVERAGE:
            line = suggestions.proposals[mutant.id].line
            print_plain(
                console, say(lang, "suggest", "unreached_line", scope=mutant.scope, line=line, title=mutant.title[lang])
            )
    killed = sum(result.verdict in (KILLED, TIMEOUT) for result in suggestions.results)
    wrote = say(
        lang,
        "suggest",
        "wrote",
        count=suggestions.written,
        path=suggestions.out,
        killed=killed,
        survived=len(survivors),
    )
    print_plain(
        console, wrote if suggestions.out_written else say(lang, "suggest", "nothing_written", path=suggestions.out)
    )
    if suggestions.kept:
        print_plain(console, say(lang, "suggest", "kept", count=suggestions.kept, path=suggestions.out))
    for key, added in (
        ("families_added", suggestions.families_added),
        ("families_undeclared", suggestions.families_undeclared),
    ):
        if added:
            families = ", ".join(added)
            print_plain(console, say(lang, "suggest", key, families=families, path=suggestions.families_file))
