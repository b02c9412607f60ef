"""A run's results document, built from the engine's run, the matrix and the catalog."""

import hashlib
import json
import platform
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mutcheck import __version__
from mutcheck.catalog.catalog import REVERT_FAMILY, Catalog
from mutcheck.core.ci import in_ci
from mutcheck.core.git import head_sha, uncommitted_changes
from mutcheck.core.outcome import ORDER_DEPENDENT
from mutcheck.core.texts import say
from mutcheck.engine.engine import EngineRun, MutantRun, baseline_passed
from mutcheck.results.matrix import Matrix, MutantResult
from mutcheck.results.model import (
    Baseline,
    BaselineFailure,
    ChangeGuard,
    ControlFacts,
    CopyFacts,
    DriftEntry,
    Fallback,
    MutantEntry,
    Proposal,
    Results,
    Reused,
    RunFacts,
)
from mutcheck.results.results import summarize

if TYPE_CHECKING:
    from mutcheck.mutation.drift import Drift


def catalog_digest(catalog: Catalog) -> str:
    """Identifies the catalog's edits and expectations, so shards of different catalogs never merge."""
    fields = [
        [m.id, m.file, m.scope, m.match, m.replace, list(m.killed_by), m.equivalent, m.survives]
        for m in catalog.mutants
    ]
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


# A change under every outcome (a module's effects, the run's key) can name hundreds of labels: the
# results say the first of them (`reuse.decide` has them all).
REASONS_PER_TEST, REASONS_PER_MUTANT = 3, 20


def _reused(run: MutantRun) -> Reused | None:
    """What the store said of the mutant's tests (see `reuse.decide`)."""
    decision = run.reuse
    if decision is None:
        return None
    changed = sorted({why for reasons in decision.reasons.values() for why in reasons})
    ran = {test: _first(reasons, REASONS_PER_TEST) for test, reasons in decision.reasons.items()}
    return Reused(not ran, decision.source, _first(changed, REASONS_PER_MUTANT), ran, len(decision.reused))


def _first(reasons: list[str], count: int) -> list[str]:
    """The first `count` reasons, and how many more there are."""
    return reasons if len(reasons) <= count else [*reasons[:count], f"… and {len(reasons) - count} more"]


def _mutant_entry(result: MutantResult, order: int) -> MutantEntry:
    applied, run, mutant = result.applied, result.run, result.applied.mutant
    return MutantEntry(
        id=mutant.id,
        order=order,
        generic=mutant.generic,
        revert=mutant.revert,
        operator=mutant.operator,
        aliases=list(mutant.aliases),
        family=mutant.family,
        file=mutant.file,
        scope=mutant.scope,
        span=applied.span,
        replacement=applied.replacement,
        diff=applied.diff,
        origin=mutant.origin,
        title=mutant.title,
        why=mutant.why,
        hint=mutant.hint,
        equivalent=mutant.equivalent,
        survives=mutant.survives,
        tracked=mutant.tracked,
        reviewed=mutant.reviewed,
        killed_by=list(mutant.killed_by),
        path=run.path,
        fallback=Fallback(**run.fallback) if run.fallback else None,
        reuse=_reused(run),
        verdict=result.verdict,
        expectation_met=result.expectation_met,
        problems=list(result.problems),
        killers=list(result.killers),
        broken=run.broken,
        selected=run.selected,
        line_reach=run.line_reach,
        outcomes=dict(sorted(run.outcomes.items())),
        witnesses=dict(sorted(run.witnesses.items())),
        seconds=round(run.seconds, 4),
        time_limit=round(run.time_limit, 3),
    )


def baseline_section(run: EngineRun) -> Baseline:
    """The unmutated suite; `order_dependent` names the tests that failed unmutated when run in
    some mutant's selection and order (never counted as killers), or in the baseline only as
    the workers split the suite."""
    tests = run.tests
    first = run.baseline[0] if run.baseline else None
    failures = [
        BaselineFailure(tests[index], outcome, first.witnesses[index])
        for index, outcome in enumerate(first.outcomes if first else [])
        if outcome not in ("passed", "skipped")
    ]
    flaky = [
        tests[index] for index in range(len(tests)) if len({round_.outcomes[index] for round_ in run.baseline}) > 1
    ]
    return Baseline(
        ok=baseline_passed(run),
        rounds=len(run.baseline),
        durations=[round(max(r.durations[i] for r in run.baseline), 5) for i in range(len(tests))] if first else [],
        failures=failures,
        flaky=flaky,
        order_dependent=sorted(
            {tests[index] for index in run.order_dependent}
            | {
                tests[index]
                for mutant in run.mutants.values()
                for index, outcome in mutant.outcomes.items()
                if outcome == ORDER_DEPENDENT
            }
        ),
        collection_error=run.collection_error,
    )


def build_results(
    matrix: Matrix,
    run: EngineRun,
    catalog: Catalog,
    root: Path,
    settings: dict[str, Any],
    order: dict[str, int],
    change_guard: ChangeGuard | None = None,
    drifts: "list[Drift]" = (),
) -> Results:
    """`settings`: the run's (see `RunOptions.settings`), of which the run facts take those they
    name; `order`: each mutant's place among every mutant the run chose before `--shard` took its
    part, so that merged shards list them as the unsharded run does; `drifts`: the catalog entries
    the change moved away from."""
    mutants = [_mutant_entry(result, order[result.applied.mutant.id]) for result in matrix.results]
    baseline = baseline_section(run)
    families = dict(catalog.families)
    if change_guard is not None:
        families[REVERT_FAMILY] = revert_family(settings["languages"])
    run_facts = RunFacts(
        mutcheck_version=__version__,
        python=platform.python_version(),
        ci=in_ci(),
        head_sha=head_sha(root),
        uncommitted_changes=uncommitted_changes(root),
        catalog_digest=catalog_digest(catalog),
        seconds=round(run.seconds, 3),
        mutant_phase_seconds=round(run.mutant_phase_seconds, 3),
        timings={phase: round(seconds, 3) for phase, seconds in run.timings.items()},
        copy=CopyFacts(run.copy.files, run.copy.bytes, round(run.copy.seconds, 3)),
        controls=ControlFacts(**run.controls),
        **{each.name: settings[each.name] for each in fields(RunFacts) if each.name in settings},
    )
    return Results(
        run=run_facts,
        tests=list(run.tests),
        baseline=baseline,
        families=families,
        sources={result.applied.mutant.file: result.applied.original for result in matrix.results},
        mutants=mutants,
        summary=summarize(mutants, baseline.ok, len(drifts)),
        change_guard=change_guard,
        drift=[drift_entry(drift) for drift in drifts],
    )


def drift_entry(drift: "Drift") -> DriftEntry:
    mutant = drift.mutant
    proposal = Proposal(**drift.proposal) if drift.proposal is not None else None
    return DriftEntry(
        id=mutant.id,
        source=mutant.source,
        file=mutant.file,
        scope=mutant.scope,
        title=mutant.title,
        field=drift.field,
        message=drift.message,
        diff=drift.diff,
        proposal=proposal,
    )


def revert_family(languages: list[str]) -> dict[str, str]:
    return {lang: say(lang, "revert", "family") for lang in languages}
