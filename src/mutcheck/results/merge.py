"""`mutcheck merge`: the results of every shard of one run, combined as if it had run unsharded."""

from dataclasses import asdict, fields, replace
from pathlib import Path

from mutcheck.core.problems import InputError, Problem
from mutcheck.results.model import Baseline, ControlFacts, CopyFacts, Results, RunFacts
from mutcheck.results.results import summarize
from mutcheck.results.results_check import shown
from mutcheck.selection.shard import Shard

# What was run: shards that differ in one of these are shards of different runs.
SAME_IN_EVERY_SHARD = (
    "mutcheck_version",
    "python",
    "head_sha",
    "uncommitted_changes",
    "catalog_digest",
    "bail",
    "baseline_rounds",
    "only",
    "diff_base",
    "revert_base",
    "generic",
    "strict_generic",
    "languages",
    "targets",
    "chosen_targets",
)
MISSING_SHARDS_SHOWN = 10  # a file's n is untrusted: never list (or count through) all of a huge n


def merge_results(shards: list[tuple[Path, Results]]) -> Results:
    """One results document from every shard k/n (k = 1..n, each once) of the same catalog, commit and suite."""
    first_path, first = shards[0]
    problems = _shard_problems(shards)
    for path, shard in shards[1:]:
        for key in SAME_IN_EVERY_SHARD:
            if getattr(shard.run, key) != getattr(first.run, key):
                problems.append(Problem(str(path), "", f"run.{key}", f"differs from {first_path}: shards must match"))
        if shard.tests != first.tests:
            problems.append(Problem(str(path), "", "tests", f"the suite differs from {first_path}"))
        if (shard.change_guard is None) != (first.change_guard is None):
            has = "has none" if shard.change_guard is None else "has one"
            message = f"{has}, unlike {first_path}: shards must match"
            problems.append(Problem(str(path), "", "change_guard", message))
    problems += _source_problems(shards)
    if not problems:  # a shard given twice overlaps in every mutant: that one problem says it
        problems = _overlaps(shards)
    if problems:
        raise InputError(problems)
    mutants = sorted((m for _, shard in shards for m in shard.mutants), key=lambda mutant: mutant.order)
    sources = {file: text for _, shard in shards for file, text in shard.sources.items()}
    baselines = [shard.baseline for _, shard in shards]
    baseline = Baseline(
        ok=all(b.ok for b in baselines),
        rounds=first.baseline.rounds,
        durations=first.baseline.durations,
        failures=[failure for b in baselines for failure in b.failures],
        flaky=sorted({test for b in baselines for test in b.flaky}),
        order_dependent=sorted({test for b in baselines for test in b.order_dependent}),
        collection_error=next((b.collection_error for b in baselines if b.collection_error), None),
    )
    run = merged_run([shard.run for _, shard in shards])
    # every shard applies the whole catalog before it takes its part: the same entries drifted in each
    summary = summarize(mutants, baseline.ok, len(first.drift))
    guard = first.change_guard
    if guard is not None:  # the same change in every shard; the whole-change mutant ran in one
        about = {test: line for _, shard in shards for test, line in shard.change_guard.about.items()}
        guard = replace(guard, about=about)
    return replace(
        first, run=run, baseline=baseline, sources=sources, mutants=mutants, summary=summary, change_guard=guard
    )


def merged_run(runs: list[RunFacts]) -> RunFacts:
    """The run facts of shards run side by side: every time is the slowest shard's (per phase, the
    longest any shard spent in it), `jobs` the most workers any shard had, the control runs summed,
    `ci` only if every shard ran in CI.
    A fact that some shard's file lacks (written before the field existed) is left out."""
    timings = copy = controls = None
    if all(r.timings is not None for r in runs):
        phases = dict.fromkeys(phase for r in runs for phase in r.timings)
        timings = {phase: max(r.timings.get(phase, 0) for r in runs) for phase in phases}
    if all(r.copy is not None for r in runs):
        copy = CopyFacts(**{f.name: max(getattr(r.copy, f.name) for r in runs) for f in fields(CopyFacts)})
    if all(r.controls is not None for r in runs):
        controls = ControlFacts(**{key: sum(asdict(r.controls)[key] for r in runs) for key in ("runs", "tests")})
    return replace(
        runs[0],
        seconds=max(r.seconds for r in runs),
        mutant_phase_seconds=max(r.mutant_phase_seconds for r in runs),
        jobs=max(r.jobs for r in runs),
        shard=None,
        ci=all(r.ci for r in runs),
        timings=timings,
        copy=copy,
        controls=controls,
    )


def _shard_problems(shards: list[tuple[Path, Results]]) -> list[Problem]:
    """Every input is a shard k/n of the same n, and every k in 1..n is there exactly once."""
    parsed: list[tuple[Path, Shard]] = []
    problems = []
    for path, data in shards:
        text = data.run.shard
        if text is None:
            problems.append(Problem(str(path), "", "run.shard", "null: not a `mutcheck run --shard k/n` result"))
            continue
        try:
            parsed.append((path, Shard.parse(text)))
        except InputError:
            problems.append(Problem(str(path), "", "run.shard", f"expected k/n with 1 <= k <= n, got {text!r}"))
    if problems:
        return problems
    first_path, count = parsed[0][0], parsed[0][1].count
    for path, shard in parsed[1:]:
        if shard.count != count:
            message = f"{shard.index}/{shard.count} is a shard of {shard.count}, {first_path} one of {count}"
            problems.append(Problem(str(path), "", "run.shard", message))
    if problems:
        return problems
    carriers: dict[int, Path] = {}
    for path, shard in parsed:
        if shard.index in carriers:
            message = f"{shard.index}/{count} is in {carriers[shard.index]} too: give each shard once"
            problems.append(Problem(str(path), "", "run.shard", message))
        carriers.setdefault(shard.index, path)
    missing_count = count - len(carriers)
    if missing_count:
        missing = []
        index = 0
        while len(missing) < min(missing_count, MISSING_SHARDS_SHOWN):
            index += 1
            if index not in carriers:
                missing.append(f"{index}/{count}")
        more = f" and {missing_count - len(missing)} more" if missing_count > len(missing) else ""
        problems.append(Problem("merge", "", "run.shard", f"missing shards {', '.join(missing)}{more} of {count}"))
    return problems


def _source_problems(shards: list[tuple[Path, Results]]) -> list[Problem]:
    """Shards of one run read each file at one commit: a file's text is the same in every shard that has it."""
    problems = []
    seen: dict[str, tuple[Path, str]] = {}
    for path, shard in shards:
        for file, text in shard.sources.items():
            earlier_path, earlier = seen.setdefault(file, (path, text))
            if earlier != text:
                message = f"{shown(file)} differs from its text in {earlier_path}: shards must match"
                problems.append(Problem(str(path), "", "sources", message))
    return problems


def _overlaps(shards: list[tuple[Path, Results]]) -> list[Problem]:
    problems = []
    seen: dict[str, Path] = {}
    for path, shard in shards:
        for mutant in shard.mutants:
            if mutant.id in seen:
                problems.append(Problem(str(path), mutant.id, "id", f"also in {seen[mutant.id]}: overlapping shards"))
            seen[mutant.id] = path
    return problems
