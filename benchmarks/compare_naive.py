"""mutcheck against one plain pytest per mutant on any project with a [tool.mutcheck] table: every
verdict and every killing-test set compared, mutant by mutant, and both timed in one run.

    python benchmarks/compare_naive.py PROJECT [--profile NAME] [--jobs N] [mutcheck run options...]

With several targets ([tool.mutcheck.targets]), each mutant's naive run covers its own target's tests.

mutcheck runs the full matrix (no --bail) in a scratch copy; the naive side writes each mutant's files
into a copy of its own and runs the project's own `python -m pytest` over the configured tests (its
addopts and plugins included, `--maxfail=0` after them: a `-x` there would stop at the first failure,
where the kill matrix holds every test's outcome), as many at once as mutcheck has workers, each stopped after ten times
the slowest unmutated run. A killed mutant agrees when the naive run fails exactly the tests mutcheck
says killed it; one mutcheck did not kill agrees when no test fails naively; a naive run that outlived its
limit, or that a signal ended in a test (an infinite generator filling the memory), agrees with a
time-out or a kill whose killers, among the tests that naive run got to, are the tests it saw fail
and the one it hung or died in; a time-out agrees with a naive failure of its killers where
each test mutcheck stopped ran naively at least the limit mutcheck gives it (`timeout_factor` times its
unmutated naive duration, plus `timeout_constant`): a slow failure, which a plain run with those limits
also stops; `broken` agrees with a suite that does not collect. Prints each
disagreement, the agreement as N/N, the wall times and their ratio, and the share of mutants that ran
on the fallback path with the reasons. Exits 1 on any disagreement, 2 (with mutcheck's error lines)
when mutcheck could not run the catalog.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPOSITORY / "src"), str(REPOSITORY)]

from common import end_on_sigterm, run_child  # noqa: E402

from mutcheck.catalog.config import load_config  # noqa: E402
from mutcheck.catalog.project_catalog import catalog_of  # noqa: E402
from mutcheck.host.timeouts import test_limit  # noqa: E402
from mutcheck.mutation.mutate import apply_mutant  # noqa: E402
from tests.mutcheck.naive import NaiveRun, naive_run  # noqa: E402

LIMIT_FACTOR = 10


def agrees(entry: dict, naive: NaiveRun, tests: list[str], limits: dict[str, float]) -> bool:
    """`limits`: each test's time limit under a mutant as mutcheck sets it, from its unmutated naive run."""
    # it hung in a test, or a signal ended it there (the kernel's out-of-memory killer, say; mutcheck
    # counts that test failed and goes on in a new process): the tests it got to fail as mutcheck says,
    # that one included
    if naive.status is None or (naive.status < 0 and naive.started):
        detected = entry["verdict"] in ("timeout", "killed")
        return detected and {test for test in entry["killers"] if test in naive.started} == naive.failed
    if entry["verdict"] == "timeout":
        # a slow failure: it failed naively only after running longer than mutcheck lets it run
        timed_out = [tests[int(index)] for index, outcome in entry["outcomes"].items() if outcome == "timeout"]
        slow = all(naive.durations.get(test, 0.0) >= limits.get(test, float("inf")) for test in timed_out)
        return slow and set(entry["killers"]) == naive.failed
    if entry["verdict"] == "broken":
        return naive.broken
    if entry["verdict"] == "killed":
        return set(entry["killers"]) == naive.failed
    return not naive.failed and not naive.broken and naive.status is not None


def main() -> int:
    end_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--profile")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    arguments, run_options = parser.parse_known_args()
    project = arguments.project.resolve()
    config = load_config(project, {"jobs": arguments.jobs}, arguments.profile)
    catalog = catalog_of(config)
    applied = {mutant.id: apply_mutant(mutant, project) for mutant in catalog.mutants}
    profile = ["--profile", arguments.profile] if arguments.profile else []

    results_path = Path(tempfile.mkdtemp(prefix="mutcheck-compare-")) / "results.json"
    command = [sys.executable, "-m", "mutcheck", "run", "--project", str(project), "--json", str(results_path)]
    started = time.monotonic()
    # --fresh: every mutant runs, as on the naive side (none is taken from an earlier run's store)
    try:
        done = run_child(
            [*command, "--jobs", str(arguments.jobs), "--fresh", *profile, *run_options],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        mutcheck_seconds = time.monotonic() - started
        if not results_path.exists():  # a configuration or catalog error: mutcheck said which, in one line each
            print(done.stderr.strip() or f"mutcheck run exited {done.returncode} without results", file=sys.stderr)
            return 2
        results = json.loads(results_path.read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(results_path.parent)
    entries = [entry for entry in results["mutants"] if entry["id"] in applied]

    # With several targets, each mutant runs its own target's tests, as mutcheck runs them.
    tests = {one.target_name: [*one.tests, *config.pytest_args] for one in config.each_target()}
    unmutated = [naive_run(project, [], suite) for suite in tests.values()]
    limit = LIMIT_FACTOR * max(max(run.seconds for run in unmutated), 1.0)
    limits = {
        test: test_limit(seconds, config.timeout_factor, config.timeout_constant)
        for run in unmutated
        for test, seconds in run.durations.items()
    }

    def naive(entry: dict) -> NaiveRun:
        writes = [(edit.path, edit.text, edit.encoding) for edit in applied[entry["id"]].files_written()]
        return naive_run(project, writes, tests[entry.get("target")], limit)

    started = time.monotonic()
    pool = ThreadPoolExecutor(max_workers=arguments.jobs)
    try:
        naive_runs = list(pool.map(naive, entries))
    finally:  # ended early: the runs not started never start; those running end at their limit, then clean up
        pool.shutdown(cancel_futures=True)
    naive_seconds = time.monotonic() - started

    agreeing = 0
    for entry, run in zip(entries, naive_runs, strict=True):
        if agrees(entry, run, results["tests"], limits):
            agreeing += 1
            continue
        print(f"DISAGREE {entry['id']}: mutcheck {entry['verdict']} by {sorted(entry['killers'])} ({entry['path']})")
        print(f"         naive: status {run.status}, failed {sorted(run.failed)}")
    fallback = Counter((entry["fallback"] or {}).get("reason") for entry in entries if entry["path"] == "fallback")
    ran = sum(entry["path"] != "none" for entry in entries)
    print(f"project: {project.name}, {len(results['tests'])} tests, {len(entries)} mutants, {arguments.jobs} workers")
    print(f"verdicts and killing sets agree: {agreeing}/{len(entries)}")
    print(f"mutcheck {mutcheck_seconds:.1f} s, naive {naive_seconds:.1f} s: {naive_seconds / mutcheck_seconds:.1f}x")
    reasons = ", ".join(f"{reason} {count}" for reason, count in fallback.most_common())
    print(f"fallback path: {sum(fallback.values())} of {ran} mutants run ({reasons or 'none'})")
    print("verdicts:", dict(Counter(entry["verdict"] for entry in entries)))
    return 0 if agreeing == len(entries) else 1


if __name__ == "__main__":
    sys.exit(main())
