"""The terminal report: a per-family table, the unmet expectations with their diffs, the known
gaps, one verdict line; every label in one language of the run (the first unless asked)."""

from collections import Counter
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.syntax import Syntax
from rich.table import Table

from mutcheck.core.escape import visible
from mutcheck.core.texts import describe, say
from mutcheck.core.verdicts import VERDICTS
from mutcheck.report.view import as_change, build_view, change_guard_view, family_label
from mutcheck.results.model import Baseline, MutantEntry, Results, reused_from_store
from mutcheck.results.never_ran import never_ran_line

GENERIC_SURVIVORS_LISTED = 20


def _line(lang: str, key: str, **values: Any) -> str:
    return say(lang, "terminal", key, **values)


def _counts(verdicts: dict[str, int], lang: str) -> str:
    parts = [
        _line(lang, "count", count=count, verdict=say(lang, "verdict", v)) for v, count in verdicts.items() if count
    ]
    return _line(lang, "list_separator").join(parts)


def verdict_line(results: Results, lang: str) -> str:
    if not results.baseline.ok:
        return _line(lang, "baseline_failed")
    summary = results.summary
    counts, generic = _counts(summary.verdicts, lang), summary.generic
    if generic.mutants:
        informational = "" if results.run.strict_generic else _line(lang, "informational")
        catalogued = _line(lang, "catalog_mutants", count=summary.mutants)
        parts = [
            catalogued + (_line(lang, "colon") + counts if counts else ""),
            _line(lang, "generic_mutants", count=generic.mutants, counts=_counts(generic.verdicts, lang))
            + informational,
        ]
    else:
        parts = [_line(lang, "mutants", count=summary.mutants, counts=counts or _line(lang, "none_run"))]
    if summary.known_gaps:
        parts.append(_line(lang, "known_gaps", count=summary.known_gaps))
    if summary.unreviewed_gaps:
        parts.append(_line(lang, "unreviewed_gaps", count=summary.unreviewed_gaps))
    if summary.drifted:
        parts.append(_line(lang, "drifted", count=summary.drifted))
    if reused_from_store(results):
        parts.append(_line(lang, "reused", count=summary.reused_tests, total=summary.reuse_considered))
    unmet = summary.expectations_unmet
    if unmet:
        parts.append(_line(lang, "unmet", count=unmet))
    elif not summary.drifted:
        parts.append(_line(lang, "all_met"))
    seconds = _line(lang, "seconds", seconds=f"{results.run.seconds:.1f}")
    return _line(lang, "part_separator").join(parts) + seconds


def _family_table(results: Results, lang: str) -> Table:
    headers = [
        _line(lang, "family"),
        _line(lang, "count_header"),
        *(say(lang, "verdict_short", v) for v in VERDICTS),
        _line(lang, "unmet_header"),
    ]
    table = Table(*headers, title=_line(lang, "family_table"))
    families: dict[tuple[str | None, str], list[MutantEntry]] = {}
    for mutant in results.mutants:
        if not mutant.generic:
            families.setdefault((mutant.target, mutant.family), []).append(mutant)
    for (target, family), mutants in families.items():
        counts = [str(sum(m.verdict == verdict for m in mutants) or "") for verdict in VERDICTS]
        unmet = sum(not m.expectation_met for m in mutants)
        label = escape(family_label(target, family))
        table.add_row(label, str(len(mutants)), *counts, f"[red]{unmet}[/red]" if unmet else "")
    return table


def print_plain(console: Console, text: str, **options: Any) -> None:
    """Run text is untrusted and our sentences are not markup: printed as written, one line never
    wrapped (a test id stays whole to copy or grep); control characters spelled out, never sent."""
    console.print(visible(text, "\n\t"), markup=False, highlight=False, soft_wrap=True, **options)


def print_diff(console: Console, diff: str) -> None:
    """A mutant's diff: coloured on a terminal, as written in a log."""
    if console.is_terminal:
        shown = visible(diff, "\n\t")
        console.print(Syntax(shown, "diff", theme="ansi_dark", background_color="default", word_wrap=True))
    else:
        print_plain(console, diff, end="")


def baseline_failures(baseline: Baseline, lang: str, console: Console) -> None:
    """What stopped the baseline: a collection error, failing and flaky tests."""
    if baseline.collection_error:
        print_plain(console, _line(lang, "collection_failed", error=baseline.collection_error))
    for failure in baseline.failures:
        outcome = say(lang, "outcome", failure.outcome)
        print_plain(
            console,
            _line(lang, "baseline_failure", outcome=outcome, test=failure.test, witness=failure.witness or ""),
        )
    for test in baseline.flaky:
        print_plain(console, _line(lang, "flaky", test=test))


def _known_gaps(results: Results, lang: str, console: Console) -> None:
    for mutant in results.mutants:
        if mutant.generic or not mutant.known_gap:
            continue
        line = _line(
            lang,
            "known_gap",
            id=mutant.id,
            verdict=say(lang, "verdict", mutant.verdict),
            title=mutant.title[lang],
            reason=mutant.survives[lang],
        )
        print_plain(console, line + (_line(lang, "tracked", tracked=mutant.tracked) if mutant.tracked else ""))


def fallback_line(results: Results, lang: str) -> str | None:
    """How many of the mutants that ran took the fallback path, and why (None when none did)."""
    ran = [mutant for mutant in results.mutants if mutant.path != "none"]
    reasons = Counter(
        mutant.fallback.reason if mutant.fallback else "unrecorded" for mutant in ran if mutant.path == "fallback"
    )
    if not reasons:
        return None
    named = _line(lang, "list_separator").join(
        f"{say(lang, 'fallback', reason)} {count}" for reason, count in reasons.most_common()
    )
    return _line(lang, "fallback_line", count=sum(reasons.values()), total=len(ran), reasons=named)


def _unreviewed_gaps(results: Results, lang: str, console: Console) -> None:
    gaps = [mutant for mutant in results.mutants if mutant.unreviewed_gap]
    if gaps:
        print_plain(console, "\n" + _line(lang, "unreviewed_heading", ids=" ".join(m.id for m in gaps)))
    for mutant in gaps:
        location = f"{mutant.file}:{mutant.span.start_line}"
        print_plain(console, _line(lang, "unreviewed_gap", id=mutant.id, location=location, title=mutant.title[lang]))


def _drifts(results: Results, lang: str, console: Console) -> None:
    if not results.drift:
        return
    print_plain(console, "\n" + say(lang, "text", "drift_heading") + ": " + say(lang, "text", "drift_intro"))
    for drift in build_view(results, lang).drifts:
        print_plain(console, f"\n{drift.id} ({drift.source}) {drift.title}")
        print_plain(console, f"  - {drift.problem}")
        print_diff(console, drift.diff)
        if drift.proposal:
            print_plain(console, say(lang, "text", "drift_proposal") + ":")
            print_plain(console, drift.proposal)
        else:
            print_plain(console, say(lang, "text", "drift_no_proposal"))


def _findings(results: Results, lang: str, console: Console) -> None:
    for mutant in results.mutants:
        if mutant.expectation_met or mutant.generic:
            continue
        verdict = say(lang, "verdict", mutant.verdict)
        print_plain(console, f"\n{mutant.id} [{verdict}] {mutant.title[lang]}")
        for problem in mutant.problems:
            print_plain(console, f"  - {describe(problem, lang)}")
        if never_ran := never_ran_line(mutant, lang):
            print_plain(console, f"  - {never_ran}")
        print_diff(console, as_change(mutant.diff) if mutant.revert else mutant.diff)
        if mutant.hint:
            print_plain(console, _line(lang, "hint", hint=mutant.hint[lang]))


def _change_guard(results: Results, lang: str, console: Console) -> None:
    guard = change_guard_view(results, lang)
    if guard is None:
        return
    heading = say(lang, "revert", "terminal_heading", heading=say(lang, "revert", "heading"), intro=guard.intro)
    print_plain(console, "\n" + heading)
    for mutant in guard.reverted:
        words = guard.notes.get(mutant.id) or say(lang, "revert", "guarded", tests=", ".join(mutant.killers_listed))
        print_plain(console, f"  {mutant.id} [{mutant.verdict_text}] {words}")
    for hunk in guard.skipped:
        line = say(lang, "revert", "terminal_skipped", id=hunk.id, where=hunk.where, reason=hunk.reason)
        print_plain(console, line)
    if guard.ab or guard.ab_note:
        print_plain(console, guard.ab_heading)
    for row in guard.ab:
        values = {"label": row.label, "test": row.test, "about": row.about, "head": row.head}
        print_plain(console, say(lang, "revert", "terminal_ab", base=guard.base, base_outcome=row.base, **values))
    if guard.ab_note:
        print_plain(console, "  " + guard.ab_note)


def _generic(results: Results, lang: str, console: Console) -> None:
    generic = results.summary.generic
    if not generic.mutants:
        return
    heading = _line(lang, "generic_heading", count=generic.mutants, counts=_counts(generic.verdicts, lang))
    print_plain(console, heading)
    survivors = [m for m in results.mutants if m.generic and m.verdict == "survived"]
    for mutant in survivors[:GENERIC_SURVIVORS_LISTED]:
        location = f"{mutant.file}:{mutant.span.start_line}"
        print_plain(console, _line(lang, "generic_survivor", id=mutant.id, location=location, title=mutant.title[lang]))
    if len(survivors) > GENERIC_SURVIVORS_LISTED:
        print_plain(console, _line(lang, "more_survivors", count=len(survivors) - GENERIC_SURVIVORS_LISTED))


def render(results: Results, console: Console, lang: str | None = None) -> None:
    lang = lang or results.languages[0]
    if not results.baseline.ok:
        baseline_failures(results.baseline, lang, console)
    elif any(not mutant.generic for mutant in results.mutants):  # a generic-only run has no families
        console.print(_family_table(results, lang))
    if line := fallback_line(results, lang):
        print_plain(console, line)
    _findings(results, lang, console)
    _drifts(results, lang, console)
    _change_guard(results, lang, console)
    _known_gaps(results, lang, console)
    _unreviewed_gaps(results, lang, console)
    _generic(results, lang, console)
    for test in results.baseline.order_dependent:
        print_plain(console, _line(lang, "order_dependent", test=test))
    print_plain(console, verdict_line(results, lang))
