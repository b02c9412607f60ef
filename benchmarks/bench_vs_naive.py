"""mutcheck vs naive mutation testing on the reference catalog, full matrix, three rounds in one run.

Naive: for every mutant, a scratch copy with the mutated file written and one fresh
`python -m pytest` process over the whole suite, the matrix read back from --junitxml; as many
such processes at once as mutcheck has workers. Both sides use the same hypothesis settings.
Prints each round's wall times and ratio, the median ratio, mutcheck's phase timings and the
verdict agreement.
"""

import os
import sys

from common import REPOSITORY, agreement, cleanup, print_ratios, run_mutcheck, run_naive, scratch_repository

ROUNDS = 3


def main() -> None:
    from mutcheck.catalog import load_catalog
    from mutcheck.config import load_config
    from mutcheck.mutate import apply_mutant

    project = scratch_repository()
    jobs = os.cpu_count() or 1
    catalog = load_catalog(project / "mutants", project, load_config(project).languages)
    applied = [apply_mutant(mutant, project) for mutant in catalog.mutants]
    pairs = []
    for _ in range(ROUNDS):
        mutcheck_seconds, results = run_mutcheck(project, "--jobs", str(jobs))
        naive_seconds, failures = run_naive(project, applied, ["tests/consolidation"], jobs)
        pairs.append((mutcheck_seconds, naive_seconds))
    cleanup(project)
    print(f"mutants: {len(applied)}, tests: {len(results['tests'])}, workers: {jobs}")
    print_ratios(pairs)
    print("mutcheck phases (last round, s):", results["run"]["timings"])
    print(f"killed/not-killed agreement: {agreement(failures, results)}/{len(applied)}")


if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))
    main()
