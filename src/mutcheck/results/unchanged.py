"""A stored run's results taken whole (see `reuse.whole`): every mutant marked reused, the run's facts
those of now. A run with a flaky test in the baseline, or a failing baseline, is never kept whole:
its next run runs."""

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from mutcheck.core.ci import in_ci
from mutcheck.core.git import head_sha, uncommitted_changes
from mutcheck.results.model import Results, Reused
from mutcheck.results.results import summarize
from mutcheck.results.results_check import first_broken_reference


def taken_whole(document: dict[str, Any], root: Path, started: float) -> Results | None:
    """The stored results, every mutant reused from the run they came from; None for a document
    that is not a sound results document (the store is checked, never trusted)."""
    try:
        results = Results.from_json(document)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if first_broken_reference(results, "the reuse store") is not None:
        return None
    mutants = []
    for mutant in results.mutants:
        source = mutant.reuse.source if mutant.reuse and mutant.reuse.reused else results.run.head_sha
        mutants.append(replace(mutant, reuse=Reused(True, source, [], {}, len(mutant.selected))))
    seconds = round(time.monotonic() - started, 3)
    run = replace(
        results.run,
        head_sha=head_sha(root),
        uncommitted_changes=uncommitted_changes(root),
        ci=in_ci(),
        seconds=seconds,
        mutant_phase_seconds=0.0,
        timings={"total": seconds},
    )
    summary = summarize(mutants, results.baseline.ok, len(results.drift))
    return replace(results, run=run, mutants=mutants, summary=summary)


def whole_keepable(results: Results) -> bool:
    """Whether the next run may take these results whole, were nothing changed. Order-dependent
    outcomes are for reuse to judge (see `reuse.keep`): one under a mutant is kept with the run in the
    suite's order that settled it; one of the baseline's split never is, and the run is not kept whole."""
    return results.baseline.ok and not results.baseline.flaky
