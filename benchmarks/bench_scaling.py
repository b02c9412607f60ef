"""Scaling: the same catalog against the suite and against the suite doubled (every test module
copied), measured in one run. Cost should grow with the tests run, not faster."""

import shutil
import sys

from common import REPOSITORY, cleanup, run_mutcheck, scratch_repository


def doubled(project):
    for module in sorted((project / "tests/consolidation").glob("test_*.py")):
        shutil.copy(module, module.with_name(module.stem + "_copy.py"))
    return project


def main() -> None:
    single, double = scratch_repository(), doubled(scratch_repository())
    _, first = run_mutcheck(single, "--target", "consolidation")
    _, second = run_mutcheck(double, "--target", "consolidation")
    cleanup(single)
    cleanup(double)
    runs = [sum(len(m["selected"]) for m in data["mutants"]) for data in (first, second)]
    phase = [data["run"]["mutant_phase_seconds"] for data in (first, second)]
    for label, count, seconds, data in zip(("suite", "suite x2"), runs, phase, (first, second), strict=True):
        print(f"{label:9} tests: {len(data['tests'])}, test runs: {count}, mutant phase: {seconds:.2f} s")
    print(f"test runs grew {runs[1] / runs[0]:.2f}x; mutant phase grew {phase[1] / phase[0]:.2f}x")


if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))
    main()
