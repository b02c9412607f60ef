"""mutcheck's generic sweep of its own decision modules: `mutcheck run --profile self --generic
--baseline-rounds 3 --fresh` on a scratch copy of this repository. Prints, per module, the generic
mutants and those no test kills (survivors and mutants no test reaches), and checks that every one
of them is catalogued in the self catalog (`equivalent` with its proof, or a known gap with its
reason) by the same edit. Exits 1 when one is not, when more than 5% survive, or when the self
catalog's run fails."""

import sys
from collections import Counter

from common import cleanup, run_mutcheck, scratch_repository

NOT_KILLED = ("survived", "no-coverage")
SHARE_LIMIT = 0.05


def main() -> int:
    project = scratch_repository()
    try:
        # three baseline rounds: a flaky test of mutcheck's own would fail the run, not pass as a kill
        seconds, results = run_mutcheck(project, "--profile", "self", "--generic", "--baseline-rounds", "3", "--fresh")
    finally:
        cleanup(project)
    generic = [mutant for mutant in results["mutants"] if mutant["generic"]]
    if not generic:
        print("no generic mutant was run")
        return 1
    catalogued = {
        (mutant["file"], mutant["diff"]): mutant["id"]
        for mutant in results["mutants"]
        if not mutant["generic"] and (mutant["equivalent"] or mutant["survives"])
    }
    totals, left = Counter(), Counter()
    uncatalogued = []
    for mutant in generic:
        totals[mutant["file"]] += 1
        if mutant["verdict"] in NOT_KILLED:
            left[mutant["file"]] += 1
            entry = catalogued.get((mutant["file"], mutant["diff"]))
            print(f"  {mutant['verdict']:<11} {mutant['id']} -> {entry or 'NOT CATALOGUED'}: {mutant['title']['en']}")
            if entry is None:
                uncatalogued.append(mutant["id"])
    for file in sorted(totals):
        print(f"{file}: {totals[file]} generic mutants, {left[file]} not killed")
    share = sum(left.values()) / len(generic)
    print(
        f"total: {len(generic)} generic mutants, {sum(left.values())} not killed ({share:.1%}), "
        f"{len(uncatalogued)} of them not catalogued; self catalog exit {results['summary']['exit_code']}; "
        f"{seconds:.1f} s"
    )
    return int(bool(uncatalogued) or share > SHARE_LIMIT or results["summary"]["exit_code"] != 0)


if __name__ == "__main__":
    sys.exit(main())
