"""Distance to the limit: mutcheck's mutant phase against the tests' own run time, in one run.

The limit is what the mutants' selected tests cost when pytest runs them unmutated: the sum,
over mutants, of the plain-pytest duration of every test mutcheck ran under it (measured here
with --junitxml, under the same hypothesis settings). mutcheck's side is the sum of its
per-mutant times (fork, code swap, tests, reporting) and the wall time of the whole phase.
"""

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

from common import REPOSITORY, cleanup, run_mutcheck, scratch_repository


def plain_durations(project) -> dict[str, float]:
    report = project.parent / "plain.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/consolidation", f"--junitxml={report}"],
        cwd=project,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MUTCHECK_RUNNING": "1"},
        check=False,
    )
    durations = {}
    for case in ElementTree.parse(report).iter("testcase"):
        module = case.get("classname").replace(".", "/") + ".py"
        durations[f"{module}::{case.get('name')}"] = float(case.get("time"))
    return durations


def main() -> None:
    project = scratch_repository()
    durations = plain_durations(project)
    _, results = run_mutcheck(project, "--target", "consolidation")
    cleanup(project)
    tests = results["tests"]
    limit = sum(durations[tests[index]] for mutant in results["mutants"] for index in mutant["selected"])
    spent = sum(mutant["seconds"] for mutant in results["mutants"])
    jobs = results["run"]["jobs"]
    wall = results["run"]["mutant_phase_seconds"]
    runs = sum(len(mutant["selected"]) for mutant in results["mutants"])
    print(f"test runs in the mutant phase: {runs} ({len(results['mutants'])} mutants)")
    print(f"tests' own time (plain pytest durations, summed): {limit:.2f} s")
    print(f"mutcheck per-mutant time, summed:                  {spent:.2f} s")
    print(f"overhead over the tests' own time:                 {100 * (spent / limit - 1):.0f}%")
    print(f"mutant phase wall time on {jobs} workers: {wall:.2f} s (ideal {limit / jobs:.2f} s)")


if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))
    main()
