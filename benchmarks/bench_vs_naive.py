"""mutcheck vs naive mutation testing on each embedded target's catalog, full matrix, three rounds in one run.

Naive: for every mutant, a scratch copy with the mutated file written and one fresh
`python -m pytest` process over the whole suite, the matrix read back from --junitxml; as many
such processes at once as mutcheck has workers. Both sides use the same hypothesis settings.
Prints each round's wall times and ratio, the median ratio, mutcheck's phase timings and the
verdict agreement.
"""

import sys

from common import REPOSITORY, cleanup, compare_with_naive, scratch_repository

ROUNDS = 3


def main() -> None:
    project = scratch_repository()
    for target, tests in (("consolidation", "tests/consolidation"), ("bridge", "tests/bridge")):
        print(f"target {target}")
        compare_with_naive(project, [tests], ROUNDS, target)
    cleanup(project)


if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))
    main()
