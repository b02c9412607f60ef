"""`mutcheck run --revert BASE` vs naive A/B runs on a scratch history of the reference implementation.

The base commit is the embedded target with one catalogued guard taken out of each of its files
(the first entry with a `killed_by` per file, so every guard has a test); the head commit puts
them back. mutcheck reverts each hunk alone and the whole change; the naive way, as a reviewer
does it by hand, is one scratch copy per revert with its files written and one fresh `pytest`
over the whole suite, as many at once as mutcheck has workers. Three rounds; prints each
round's ratio, the median, and whether the killed / not killed verdicts agree.
"""

import os
import subprocess
import sys
from pathlib import Path

from common import REPOSITORY, agreement, cleanup, print_ratios, run_mutcheck, run_naive, scratch_repository

ROUNDS = 3
TESTS = ["tests/consolidation"]


def git(project: Path, *args: str) -> str:
    identity = ("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false")
    return subprocess.run(["git", *identity, *args], cwd=project, check=True, capture_output=True, text=True).stdout


def history_with_guards_added(project: Path) -> tuple[str, int]:
    """The scratch project's git history: a base without one guard per target file, then the head.
    Returns the base commit and the number of guards."""
    from mutcheck.catalog.catalog import load_catalog
    from mutcheck.mutation.mutate import apply_mutant

    catalog = load_catalog(project / "mutants", project, ("en", "zh"))
    chosen = {}
    for mutant in catalog.mutants:
        if mutant.killed_by and mutant.file not in chosen:
            chosen[mutant.file] = apply_mutant(mutant, project)
    heads = {file: (project / file).read_text(encoding="utf-8") for file in chosen}
    for file, applied in chosen.items():
        (project / file).write_text(applied.mutated, encoding="utf-8")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "base: one guard out of each file")
    base = git(project, "rev-parse", "HEAD").strip()
    for file, text in heads.items():
        (project / file).write_text(text, encoding="utf-8")
    git(project, "commit", "-q", "-am", "head: the guards")
    return base, len(chosen)


def main() -> None:
    from mutcheck.mutation.revert import revert_change

    project = scratch_repository()
    base, guards = history_with_guards_added(project)
    reverted = list(revert_change(project, base, ("src/consolidation",), ("en",)).mutants)
    jobs = os.cpu_count() or 1
    pairs = []
    for _ in range(ROUNDS):
        seconds, results = run_mutcheck(
            project, "--target", "consolidation", "--revert", base, "--only", "change-guard", "--jobs", str(jobs)
        )
        naive_seconds, failures = run_naive(project, reverted, TESTS, jobs)
        pairs.append((seconds, naive_seconds))
    by_id = {entry["id"]: entry for entry in results["mutants"]}
    ordered = {"mutants": [by_id[applied.mutant.id] for applied in reverted]}
    print(f"guards added: {guards}; revert mutants: {len(reverted)}; tests: {len(results['tests'])}; workers: {jobs}")
    print_ratios(pairs)
    print("verdicts:", {verdict: n for verdict, n in results["summary"]["verdicts"].items() if n})
    print(f"killed/not-killed agreement with the naive runs: {agreement(failures, ordered)}/{len(reverted)}")
    print(f"A/B rows (tests failing on the base, passing on the head): {len(results['change_guard']['about'])}")
    cleanup(project)


if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))
    main()
