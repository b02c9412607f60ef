"""What every renderer shows, computed once from a results document: plain data, one language."""

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from mutcheck.core.change_labels import WHOLE_CHANGE, lines_label, shown_base
from mutcheck.core.texts import describe, say
from mutcheck.core.verdicts import UNMET_KINDS, VERDICTS
from mutcheck.results.model import DriftEntry, Hardened, MutantEntry, Results, reused_from_store
from mutcheck.results.never_ran import never_ran_line

# Matrix symbols per outcome (the legend in strings.toml explains them).
SYMBOLS = {
    "failed": "●",
    "error": "●",
    "timeout": "⏱",
    "passed": "○",
    "skipped": "○",
    "not-run": "–",
    "order-dependent": "○",  # did not detect the mutant: it fails unmutated in that order too
}
GRID_MAX_TESTS = 12
KILLERS_LISTED = 4
ORDER_DEPENDENT_LISTED = 10
BASELINE_PROBLEMS_LISTED = 20
# Survivors first: they are the reviewer's most urgent finding.
AB_ROWS_LISTED = 20
WITNESS_LENGTH = 200
FINDING_ORDER = {"survived": 0, "killed": 1, "timeout": 2, "equivalent": 3, "no-coverage": 4, "broken": 5}


def family_label(target: str | None, title: str) -> str:
    """A family's row in the family tables: with several targets, the target's name leads it."""
    return f"{target} · {title}" if target else title


def short_test(test_id: str) -> str:
    """A test's name without its file, for compact tables (full ids are in the JSON and HTML)."""
    return test_id.rsplit("::", 1)[-1]


@dataclass
class MutantView:
    id: str
    family: str
    family_title: str
    verdict: str
    verdict_text: str
    title: str
    why: str
    hint: str | None
    proof: str | None
    survives: str | None  # a known gap's reason
    tracked: str | None  # the issue tracking a known gap: #N or a URL
    known_gap: bool
    unreviewed_gap: bool  # proposed by `suggest`, not accepted by a person yet
    origin: str
    file: str
    line: int
    diff: str
    killed_by: list[str]
    killers: list[str]
    killers_listed: list[str]  # the first few killers' short names
    killers_more: int
    problems: list[str]
    witnesses: list[tuple[str, str]]
    outcomes: dict[str, str]  # test id → outcome, selected tests only
    met: bool
    revert: bool = False  # a revert mutant of `--revert BASE`
    hardened: Hardened | None = None  # the test `mutcheck harden` proved for it
    broken: str | None = None  # why the mutated code stopped the tests from running, on one line
    target: str | None = None  # the target whose catalog holds it, when the run had several
    never_ran: str | None = None  # a survivor's lines that no test ran, as a sentence


@dataclass
class GenericView:
    """mutmut's generic operator mutants: counts, and the survivors worth a look."""

    total: int
    counts: list[tuple[str, int]]  # (verdict word, count)
    survivors: list[MutantView]
    strict: bool


@dataclass
class SkippedView:
    id: str
    where: str  # file and lines
    reason: str
    diff: str


@dataclass
class AbRow:
    """One cell of the A/B table: a test that fails on BASE's source and passes on the head."""

    label: str  # S1, S2, … as the verification tables number them
    test: str
    about: str
    base: str  # outcome and witness
    head: str


@dataclass
class ChangeGuardView:
    """`--revert BASE`: every revert mutant, the skipped hunks, and the A/B table of the whole change."""

    base: str  # as the texts name it
    intro: str  # what was compared, and the counts
    reverted: list[MutantView]
    notes: dict[str, str]  # for a revert no test failed under: why it is guarded or not
    skipped: list[SkippedView]
    ab_heading: str
    ab: list[AbRow]
    ab_note: str | None  # no test failed on BASE, or how many rows are left out


@dataclass
class DriftView:
    """A catalog entry the change moved away from: why it no longer applies, its scope's diff, and
    the fields that would make it apply again (as TOML lines), if they could be found."""

    id: str
    title: str
    source: str
    problem: str
    diff: str
    proposal: str | None


@dataclass
class ReportView:
    lang: str
    headline: str
    baseline_ok: bool
    baseline_problems: list[str]
    mutants: list[MutantView]
    findings: list[MutantView]
    equivalents: list[MutantView]
    known_gaps: list[MutantView]
    unreviewed_gaps: list[MutantView]
    families: list[dict[str, Any]]
    killing_tests: list[str]
    facts: list[str]
    generic: GenericView | None
    verdicts: list[tuple[str, str]] = field(default_factory=list)
    change_guard: ChangeGuardView | None = None
    drifts: list[DriftView] = field(default_factory=list)


def _headline(results: Results, lang: str) -> str:
    if not results.baseline.ok:
        return say(lang, "text", "baseline_failed")
    mutants = results.catalogued
    if not mutants:
        generic = _generic(results, lang)
        if not generic:
            return say(lang, "text", "no_mutants")
        # a generic-only run: its counts are the whole news
        counts = say(lang, "text", "generic_counts", total=generic.total, counts=_joined(generic.counts))
        return _sentences(lang, say(lang, "text", "no_mutants"), counts)
    unmet = [mutant for mutant in mutants if not mutant.expectation_met]
    if not unmet:
        headline = say(lang, "text", "all_met", total=len(mutants))
    else:
        kinds = Counter(problem.kind for mutant in unmet for problem in mutant.problems)
        parts = [say(lang, "count", kind, count=kinds[kind]) for kind in UNMET_KINDS if kinds[kind]]
        separator = "、" if lang == "zh" else ", "
        headline = say(lang, "text", "not_all_met", count=len(unmet), total=len(mutants), parts=separator.join(parts))
    gaps = sum(mutant.known_gap for mutant in mutants)
    if gaps:
        headline = _sentences(lang, headline, say(lang, "text", "known_gaps_line", count=gaps))
    if results.drift:
        headline = _sentences(lang, headline, say(lang, "text", "drift_line", count=len(results.drift)))
    return headline


def _sentences(lang: str, *sentences: str) -> str:
    return ("" if lang == "zh" else " ").join(sentences)  # Chinese puts no space after a full stop


def _joined(counts: list[tuple[str, int]]) -> str:
    """As the generic section words them: verdict, then count."""
    return ", ".join(f"{word} {count}" for word, count in counts)


def _mutant(results: Results, entry: MutantEntry, lang: str) -> MutantView:
    tests = results.tests
    family = results.families.get(entry.family, {})
    return MutantView(
        id=entry.id,
        family=entry.family,
        family_title=family_label(entry.target, family.get(lang, entry.family)),
        verdict=entry.verdict,
        verdict_text=say(lang, "verdict", entry.verdict),
        title=entry.title[lang],
        why=entry.why[lang],
        hint=entry.hint[lang] if entry.hint else None,
        proof=entry.equivalent[lang] if entry.equivalent else None,
        survives=entry.survives[lang] if entry.survives else None,
        tracked=entry.tracked,
        known_gap=entry.known_gap,
        unreviewed_gap=entry.unreviewed_gap,
        origin=entry.origin,
        file=entry.file,
        line=entry.span.start_line,
        diff=as_change(entry.diff) if entry.revert else entry.diff,  # a revert shows the change it undoes
        killed_by=entry.killed_by,
        killers=entry.killers,
        killers_listed=[short_test(test) for test in entry.killers[:KILLERS_LISTED]],
        killers_more=max(0, len(entry.killers) - KILLERS_LISTED),
        problems=[describe(problem, lang) for problem in entry.problems],
        witnesses=[(tests[index], witness) for index, witness in entry.witnesses.items()],
        outcomes={tests[index]: outcome for index, outcome in entry.outcomes.items()},
        met=entry.expectation_met,
        revert=entry.revert,
        broken=" ".join(entry.broken.split())[:WITNESS_LENGTH] if entry.broken else None,
        target=entry.target,
        hardened=entry.hardened,
        never_ran=never_ran_line(entry, lang),
    )


def _facts(results: Results, lang: str) -> list[str]:
    run, baseline = results.run, results.baseline
    sha = run.head_sha
    return [
        say(lang, "text", "baseline_line", tests=len(results.tests), rounds=baseline.rounds),
        say(
            lang,
            "text",
            "mutants_line",
            total=len(results.mutants),
            seconds=f"{run.seconds:.1f}",
            phase=f"{run.mutant_phase_seconds:.1f}",
            jobs=run.jobs,
        ),
        *_reused(results, lang),
        say(lang, "text", "version_line", version=run.mutcheck_version, python=run.python),
        say(lang, "text", "head_line", sha=sha) if sha else say(lang, "text", "no_head"),
        *([say(lang, "text", "uncommitted_line")] if run.uncommitted_changes else []),
        *_order_dependent(baseline.order_dependent, lang),
    ]


def _reused(results: Results, lang: str) -> list[str]:
    """How many tests' outcomes under the mutants the run took from the reuse store, when it consulted one."""
    if not reused_from_store(results):
        return []
    summary = results.summary
    return [say(lang, "text", "reused_line", count=summary.reused_tests, total=summary.reuse_considered)]


def _order_dependent(tests: list[str], lang: str) -> list[str]:
    """The run names the tests it did not count as killers because they fail unmutated in that order."""
    if not tests:
        return []
    listed = ", ".join(tests[:ORDER_DEPENDENT_LISTED])
    if len(tests) > ORDER_DEPENDENT_LISTED:
        listed += " " + say(lang, "text", "and_more", count=len(tests) - ORDER_DEPENDENT_LISTED)
    return [say(lang, "text", "order_dependent_line", tests=listed)]


def _generic(results: Results, lang: str) -> GenericView | None:
    entries = [entry for entry in results.mutants if entry.generic]
    if not entries:
        return None
    counts = [(say(lang, "verdict", verdict), sum(e.verdict == verdict for e in entries)) for verdict in VERDICTS]
    survivors = [_mutant(results, entry, lang) for entry in entries if entry.verdict == "survived"]
    strict = any(problem.kind == "unexpected-survivor" for e in entries for problem in e.problems)
    return GenericView(len(entries), [(word, count) for word, count in counts if count], survivors, strict)


def as_change(revert_diff: str) -> str:
    """A revert mutant's diff (head → base: it undoes a hunk of the change) turned round, base →
    head, so that a reader sees the change as the pull request made it: `-` the base's lines, `+`
    the head's, and each hunk's ranges swapped."""
    lines, block = [], []

    def flush() -> None:  # removed lines before added ones, as a diff shows them
        lines.extend(line for line in block if line.startswith("-"))
        lines.extend(line for line in block if line.startswith("+"))
        block.clear()

    for line in revert_diff.splitlines():
        if line.startswith(("--- ", "+++ ")):
            lines.append(line)
        elif match := re.match(r"@@ -(\S+) \+(\S+) @@(.*)", line):
            flush()
            lines.append(f"@@ -{match.group(2)} +{match.group(1)} @@{match.group(3)}")
        elif line[:1] in ("-", "+"):
            block.append(("+" if line[0] == "-" else "-") + line[1:])
        else:
            flush()
            lines.append(line)
    flush()
    return "\n".join(lines) + ("\n" if revert_diff.endswith("\n") else "")


def build_view(results: Results, lang: str) -> ReportView:
    catalogued = results.catalogued
    mutants = [_mutant(results, entry, lang) for entry in catalogued]
    baseline = results.baseline
    baseline_problems = [
        f"{failure.test}: {say(lang, 'outcome', failure.outcome)} {failure.witness or ''}".strip()
        for failure in baseline.failures
    ]
    baseline_problems += [f"{test}: {say(lang, 'text', 'flaky')}" for test in baseline.flaky]
    if baseline.collection_error:
        baseline_problems.append(baseline.collection_error[:2000])
    if len(baseline_problems) > BASELINE_PROBLEMS_LISTED:  # the full list is in the results file
        hidden = len(baseline_problems) - BASELINE_PROBLEMS_LISTED
        baseline_problems = [*baseline_problems[:BASELINE_PROBLEMS_LISTED], say(lang, "text", "and_more", count=hidden)]
    families = []
    for target, family in dict.fromkeys((mutant.target, mutant.family) for mutant in mutants):
        members = [mutant for mutant in mutants if (mutant.target, mutant.family) == (target, family)]
        families.append(
            {
                "title": members[0].family_title,
                "total": len(members),
                "counts": [sum(m.verdict == verdict for m in members) for verdict in VERDICTS],
                "unmet": sum(not m.met for m in members),
            }
        )
    killing = sorted({test for mutant in mutants for test in mutant.killers})
    return ReportView(
        lang=lang,
        headline=_headline(results, lang),
        baseline_ok=baseline.ok,
        baseline_problems=baseline_problems,
        mutants=mutants,
        findings=sorted(
            (m for m in mutants if not m.met and not m.unreviewed_gap),  # gaps awaiting review: listed apart
            key=lambda m: FINDING_ORDER.get(m.verdict, len(FINDING_ORDER)),
        ),
        equivalents=[mutant for mutant in mutants if mutant.proof and mutant.met],
        known_gaps=[mutant for mutant in mutants if mutant.known_gap],
        unreviewed_gaps=[mutant for mutant in mutants if mutant.unreviewed_gap],
        families=families,
        killing_tests=killing,
        facts=_facts(results, lang),
        generic=_generic(results, lang),
        verdicts=[(verdict, say(lang, "verdict", verdict)) for verdict in VERDICTS],
        change_guard=_change_guard(results, [mutant for mutant in mutants if mutant.revert], lang),
        drifts=[_drift(entry, lang) for entry in results.drift],
    )


def _drift(entry: DriftEntry, lang: str) -> DriftView:
    proposal = entry.proposal
    fields = None
    if proposal is not None:
        lines = [f"{key} = {json.dumps(getattr(proposal, key), ensure_ascii=False)}" for key in ("scope", "match")]
        edit = proposal.replace
        lines.append("delete = true" if edit is None else f"replace = {json.dumps(edit, ensure_ascii=False)}")
        fields = "\n".join(lines)
    problem = say(lang, "text", "drift_entry", field=entry.field, message=entry.message)
    return DriftView(entry.id, entry.title[lang], entry.source, problem, entry.diff, fields)


def change_guard_view(results: Results, lang: str) -> ChangeGuardView | None:
    """The change guard alone, for a renderer that shows nothing else of the view."""
    reverted = [_mutant(results, entry, lang) for entry in results.mutants if entry.revert]
    return _change_guard(results, reverted, lang)


def _change_guard(results: Results, reverted: list[MutantView], lang: str) -> ChangeGuardView | None:
    guard = results.change_guard
    if not guard or not results.baseline.ok:  # a failed baseline ran no revert: it is the news
        return None
    base = shown_base(guard.base)
    names = {"base": base, "merge_base": guard.merge_base[:12]}
    skipped = [
        SkippedView(
            hunk.id,
            say(
                lang,
                "revert",
                "where",
                file=hunk.file,
                lines=lines_label(hunk.first_line, hunk.line_count, lang),
            ),
            say(lang, "revert", "skipped_" + hunk.reason, with_id=hunk.reverted_with),
            hunk.diff,
        )
        for hunk in guard.skipped
    ]
    unguarded = sum(not mutant.met for mutant in reverted)
    counts = say(
        lang,
        "revert",
        "counts",
        total=len(reverted),
        guarded=len(reverted) - unguarded,
        unguarded=unguarded,
        skipped=len(skipped),
    )
    if guard.files:
        intro = _sentences(lang, say(lang, "revert", "intro", **names), counts)
    else:
        intro = say(lang, "revert", "no_change", **names)
    whole = next((mutant for mutant in reverted if mutant.id == WHOLE_CHANGE), None)
    failing = [test for test in (whole.killers if whole else []) if test in guard.about]
    witnesses = dict(whole.witnesses) if whole else {}
    rows = [
        AbRow(
            f"S{number}",
            test,
            guard.about[test],
            _cell(lang, say(lang, "outcome", whole.outcomes[test]), witnesses.get(test)) if whole else "",
            say(lang, "outcome", "passed"),
        )
        for number, test in enumerate(failing[:AB_ROWS_LISTED], start=1)
    ]
    if whole and whole.verdict == "broken":
        note = say(lang, "revert", "ab_broken", base=base, detail=whole.broken)
    elif whole and not failing:
        note = say(lang, "revert", "ab_none", base=base)
    elif len(failing) > AB_ROWS_LISTED:
        note = say(lang, "revert", "ab_more", count=len(failing) - AB_ROWS_LISTED, base=base)
    else:
        note = None
    heading = say(lang, "revert", "ab_heading", base=base)
    notes = {mutant.id: text for mutant in reverted if (text := _guard_note(mutant, lang))}
    return ChangeGuardView(base, intro, reverted, notes, skipped, heading, rows, note)


def _guard_note(mutant: MutantView, lang: str) -> str | None:
    if mutant.killers:
        return None
    if mutant.verdict == "broken":
        return say(lang, "revert", "broken", detail=mutant.broken)
    if mutant.verdict == "equivalent":
        return say(lang, "revert", "same_code")
    return say(lang, "revert", "unguarded")


def _cell(lang: str, outcome: str, witness: str | None) -> str:
    """An outcome and its witness on one line, short enough for a table cell."""
    if not witness:
        return outcome
    line = " ".join(witness.split())
    shortened = line if len(line) <= WITNESS_LENGTH else line[: WITNESS_LENGTH - 1] + "…"
    return say(lang, "revert", "cell", outcome=outcome, witness=shortened)
