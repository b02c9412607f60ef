"""The terminal report: a per-family table, the unmet expectations with their diffs, the known
gaps, one verdict line. Our words are English; catalog texts are in the run's first language."""

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.syntax import Syntax
from rich.table import Table

from mutcheck.matrix import VERDICTS
from mutcheck.report.texts import describe, run_languages
from mutcheck.results import is_known_gap


def _counts(verdicts: dict[str, int]) -> str:
    return ", ".join(f"{count} {verdict}" for verdict, count in verdicts.items() if count)


def verdict_line(results: dict[str, Any]) -> str:
    if not results["baseline"]["ok"]:
        return "baseline failed: no mutant was run"
    summary = results["summary"]
    counts, generic = _counts(summary["verdicts"]), summary["generic"]
    if generic["mutants"]:
        informational = "" if results["run"]["strict_generic"] else " (informational)"
        parts = [
            f"{summary['mutants']} catalog mutants" + (f": {counts}" if counts else ""),
            f"{generic['mutants']} generic mutants: {_counts(generic['verdicts'])}{informational}",
        ]
    else:
        parts = [f"{summary['mutants']} mutants: {counts or 'none run'}"]
    if summary["known_gaps"]:
        parts.append(f"{summary['known_gaps']} known gap(s)")
    unmet = summary["expectations_unmet"]
    parts.append("every expectation met" if not unmet else f"{unmet} unmet expectation(s)")
    return "; ".join(parts) + f" ({results['run']['seconds']:.1f} s)"


# Short headers, so the table fits an 80-column terminal.
_HEADERS = {
    "killed": "kill",
    "survived": "surv",
    "timeout": "t/o",
    "no-coverage": "nocov",
    "broken": "brk",
    "equivalent": "eqv",
}


def _family_table(results: dict[str, Any]) -> Table:
    table = Table("family", "n", *(_HEADERS[verdict] for verdict in VERDICTS), "unmet", title="Guard mutants by family")
    families: dict[str, list[dict[str, Any]]] = {}
    for mutant in results["mutants"]:
        if mutant["generic"]:
            continue
        families.setdefault(mutant["family"], []).append(mutant)
    for family, mutants in families.items():
        counts = [str(sum(m["verdict"] == verdict for m in mutants) or "") for verdict in VERDICTS]
        unmet = sum(not m["expectation_met"] for m in mutants)
        table.add_row(escape(family), str(len(mutants)), *counts, f"[red]{unmet}[/red]" if unmet else "")
    return table


def _baseline_failures(results: dict[str, Any], console: Console) -> None:
    baseline = results["baseline"]
    if baseline["collection_error"]:
        console.print(f"collection failed: {baseline['collection_error']}", markup=False)
    for failure in baseline["failures"]:
        console.print(f"baseline {failure['outcome']}: {failure['test']}: {failure['witness'] or ''}", markup=False)
    for test in baseline["flaky"]:
        console.print(f"flaky (outcome differs between rounds): {test}", markup=False)


def _order_dependent(results: dict[str, Any], console: Console) -> None:
    for test in results["baseline"].get("order_dependent", ()):
        console.print(
            f"order-dependent (fails unmutated in a mutant's selection, so never counted as a killer): {test}",
            markup=False,
            highlight=False,
        )


def _known_gaps(results: dict[str, Any], lang: str, console: Console) -> None:
    for mutant in results["mutants"]:
        if not mutant["generic"] and is_known_gap(mutant):
            tracked = f" (tracked: {mutant['tracked']})" if mutant["tracked"] else ""
            line = f"known gap {mutant['id']} [{mutant['verdict']}] {mutant['title'][lang]}: {mutant['survives'][lang]}"
            console.print(line + tracked, markup=False, highlight=False)


def render(results: dict[str, Any], console: Console) -> None:
    lang = run_languages(results)[0]
    if not results["baseline"]["ok"]:
        _baseline_failures(results, console)
    elif any(not mutant["generic"] for mutant in results["mutants"]):  # a generic-only run has no families
        console.print(_family_table(results))
    for mutant in results["mutants"]:
        if mutant["expectation_met"] or mutant["generic"]:
            continue
        console.print(f"\n{mutant['id']} [{mutant['verdict']}] {mutant['title'][lang]}", markup=False, highlight=False)
        for problem in mutant["problems"]:
            console.print(f"  - {describe(problem, 'en')}", markup=False, highlight=False)
        if console.is_terminal:
            console.print(Syntax(mutant["diff"], "diff", theme="ansi_dark", background_color="default"))
        else:
            console.print(mutant["diff"], markup=False, highlight=False, end="")
        if mutant["hint"]:
            console.print(f"  hint: {mutant['hint'][lang]}", markup=False, highlight=False)
    _known_gaps(results, lang, console)
    generic = results["summary"]["generic"]
    if generic["mutants"]:
        counts = ", ".join(f"{count} {verdict}" for verdict, count in generic["verdicts"].items() if count)
        survivors = [m for m in results["mutants"] if m["generic"] and m["verdict"] == "survived"]
        console.print(f"generic operator mutants (mutmut): {generic['mutants']}: {counts}", markup=False)
        for mutant in survivors[:20]:
            console.print(
                f"  survived {mutant['id']} {mutant['file']}:{mutant['span']['start_line']} {mutant['title'][lang]}",
                markup=False,
                highlight=False,
            )
        if len(survivors) > 20:
            console.print(f"  … {len(survivors) - 20} more survivors (see the JSON or HTML report)", markup=False)
    _order_dependent(results, console)
    console.print(verdict_line(results), markup=False, highlight=False)
