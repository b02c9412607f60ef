"""The results of a project with several targets: each target's run, one after the other, as one document."""

import hashlib
from dataclasses import dataclass, replace

from mutcheck.results.model import Baseline, ControlFacts, CopyFacts, MutantEntry, Results
from mutcheck.results.results import summarize


@dataclass(frozen=True)
class TargetRun:
    name: str
    results: Results
    chosen: int  # the mutants the target's run chose before `--shard` took its part


def _shifted(mutant: MutantEntry, target: str, index: list[int], order: int) -> MutantEntry:
    """A target's mutant with its tests numbered among every target's (`index`: its run's test
    numbers to theirs) and its place counted after the earlier targets' mutants."""
    reach = mutant.line_reach
    return replace(
        mutant,
        target=target,
        order=mutant.order + order,
        selected=[index[test] for test in mutant.selected],
        outcomes={index[test]: outcome for test, outcome in mutant.outcomes.items()},
        witnesses={index[test]: witness for test, witness in mutant.witnesses.items()},
        line_reach=reach and replace(reach, tests=[index[test] for test in reach.tests]),
    )


def _baseline(runs: list[TargetRun], tests: list[str]) -> Baseline:
    """Every target's baseline; a test two targets share is listed once (its longest duration)."""
    baselines = [run.results.baseline for run in runs]
    durations = dict.fromkeys(tests, 0.0)
    for run in runs:
        for test, duration in zip(run.results.tests, run.results.baseline.durations, strict=False):
            durations[test] = max(durations[test], duration)
    failures = {(failure.test, failure.outcome): failure for baseline in baselines for failure in baseline.failures}
    errors = [
        f"{run.name}: {run.results.baseline.collection_error}" for run in runs if run.results.baseline.collection_error
    ]
    return Baseline(
        ok=all(baseline.ok for baseline in baselines),
        rounds=min(baseline.rounds for baseline in baselines),
        durations=list(durations.values()) if all(baseline.durations for baseline in baselines) else [],
        failures=list(failures.values()),
        flaky=list(dict.fromkeys(test for baseline in baselines for test in baseline.flaky)),
        order_dependent=list(dict.fromkeys(test for baseline in baselines for test in baseline.order_dependent)),
        collection_error="\n".join(errors) or None,
    )


def joined_results(runs: list[TargetRun]) -> Results:
    """One results document for targets run one after the other: their tests listed in turn (a test
    two targets share, once), each mutant naming its target, the times summed."""
    tests = list(dict.fromkeys(test for run in runs for test in run.results.tests))
    number = {test: index for index, test in enumerate(tests)}
    mutants, chosen = [], 0
    for run in runs:
        index = [number[test] for test in run.results.tests]
        mutants += [_shifted(mutant, run.name, index, chosen) for mutant in run.results.mutants]
        chosen += run.chosen
    facts = [run.results.run for run in runs]
    timings = {}
    if all(fact.timings is not None for fact in facts):
        for fact in facts:
            for phase, seconds in fact.timings.items():
                timings[phase] = round(timings.get(phase, 0) + seconds, 3)
    digest = hashlib.sha256(
        " ".join(f"{run.name}:{fact.catalog_digest}" for run, fact in zip(runs, facts, strict=True)).encode()
    )
    run_facts = replace(
        facts[0],
        targets=[run.name for run in runs],
        catalog_digest=digest.hexdigest(),
        seconds=round(sum(fact.seconds for fact in facts), 3),
        mutant_phase_seconds=round(sum(fact.mutant_phase_seconds for fact in facts), 3),
        timings=timings if all(fact.timings is not None for fact in facts) else None,
        copy=CopyFacts(
            files=sum(fact.copy.files for fact in facts),
            bytes=sum(fact.copy.bytes for fact in facts),
            seconds=round(sum(fact.copy.seconds for fact in facts), 3),
        )
        if all(fact.copy is not None for fact in facts)
        else None,
        controls=ControlFacts(sum(fact.controls.runs for fact in facts), sum(fact.controls.tests for fact in facts))
        if all(fact.controls is not None for fact in facts)
        else None,
        uncommitted_changes=facts[-1].uncommitted_changes,  # as the last target's run ended
    )
    baseline = _baseline(runs, tests)
    drift = [entry for run in runs for entry in run.results.drift]
    families = {}
    for run in runs:
        for family, title in run.results.families.items():
            families.setdefault(family, title)
    return Results(
        run=run_facts,
        tests=tests,
        baseline=baseline,
        families=families,
        sources={file: text for run in runs for file, text in run.results.sources.items()},
        mutants=mutants,
        summary=summarize(mutants, baseline.ok, len(drift)),
        change_guard=None,
        drift=drift,
    )
