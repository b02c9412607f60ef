"""What a failing test costs under a mutant: one mutant that fails 50 of its 60 tests, in one run.

The benchmark generates a scratch project whose test module is as long as a real one (the tests
after 2,500 lines of helpers), once with plain pytest functions and once with unittest test cases,
and one catalog mutant that 50 of the 60 tests kill. For each, it prints the mutant's own seconds
(fork, code swap, its tests, their outcomes and witnesses) per failing test, and the whole mutant
phase's (with the control run of the same tests unmutated), beside the baseline's seconds per
passing test (the tests' own run) and naive mutation testing's seconds per failing test (one fresh
`python -m pytest` over the suite with the mutant written). Medians of three rounds.
"""

import statistics
import sys
import tempfile
from pathlib import Path

from common import REPOSITORY, cleanup, run_mutcheck, run_naive

TESTS = 60
FAILING = 50  # the tests that the mutant's off-by-one result fails; the others scale 0
HELPERS = 600  # four-line helper functions before the tests: a test module of 2,500 lines
ROUNDS = 3

TARGET = '''\
"""The target: one small function."""


def scale(value, factor):
    if factor < 0:
        raise ValueError("negative factor")
    return value * factor
'''

CATALOG = """\
[[mutant]]
id = "F1"
family = "failures"
file = "src/app.py"
scope = "scale"
match = "value * factor"
replace = "value * (factor + 1)"
killed_by = ["{killer}"]
origin = "bench_failures"
title = {{ en = "factor off by one", zh = "因子差一" }}
why = {{ en = "benchmark", zh = "基准" }}
"""


def _helpers() -> str:
    return "".join(f"\n\ndef helper_{number}(value):\n    return value + {number}\n" for number in range(HELPERS))


def _functions() -> str:
    tests = "".join(
        f"\n\ndef test_scale_{number}():\n    assert scale({number + 1}, 2) == {2 * (number + 1)}\n"
        if number < FAILING
        else f"\n\ndef test_scale_zero_{number}():\n    assert scale(0, {number}) == 0\n"
        for number in range(TESTS)
    )
    return "from app import scale\n" + _helpers() + tests


def _unittest() -> str:
    tests = "".join(
        f"\n    def test_scale_{number}(self):\n        self.assertEqual(scale({number + 1}, 2), {2 * (number + 1)})\n"
        if number < FAILING
        else f"\n    def test_scale_zero_{number}(self):\n        self.assertEqual(scale(0, {number}), 0)\n"
        for number in range(TESTS)
    )
    return "import unittest\n\nfrom app import scale\n" + _helpers() + "\n\nclass TestScale(unittest.TestCase):" + tests


SUITES = {
    "pytest functions": (_functions, "tests/test_app.py::test_scale_0"),
    "unittest test cases": (_unittest, "tests/test_app.py::TestScale::test_scale_0"),
}


def generate(root: Path, suite: str) -> Path:
    module, killer = SUITES[suite]
    project = root / "project"
    files = {
        "pyproject.toml": '[project]\nname = "failures-bench"\nversion = "0"\n\n'
        '[tool.pytest.ini_options]\npythonpath = ["src"]\n\n'
        '[tool.mutcheck]\ntarget = ["src"]\ntests = ["tests"]\n',
        "src/app.py": TARGET,
        "tests/test_app.py": module(),
        "mutants/families.toml": '[family.failures]\nen = "failures benchmark"\nzh = "失败基准"\n',
        "mutants/catalog.toml": CATALOG.format(killer=killer),
    }
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    return project


def measure(suite: str) -> None:
    from mutcheck.catalog.catalog import load_catalog
    from mutcheck.catalog.config import load_config
    from mutcheck.mutation.mutate import apply_mutant

    project = generate(Path(tempfile.mkdtemp(prefix="mutcheck-bench-")), suite)
    config = load_config(project)
    catalog = load_catalog(config.catalog_dir, project, config.languages)
    applied = [apply_mutant(mutant, project) for mutant in catalog.mutants]
    per_failure, phase_per_failure, per_test, naive_per_failure = [], [], [], []
    for _ in range(ROUNDS):
        _, results = run_mutcheck(project, "--jobs", "2")
        (mutant,) = results["mutants"]
        failures = sum(outcome == "failed" for outcome in mutant["outcomes"].values())
        assert failures == FAILING and mutant["verdict"] == "killed", (failures, mutant["verdict"])
        per_failure.append(mutant["seconds"] / failures)
        phase_per_failure.append(results["run"]["mutant_phase_seconds"] / failures)
        per_test.append(results["run"]["timings"]["baseline"] / len(results["tests"]))
        naive_seconds, (naive_failures,) = run_naive(project, applied, ["tests"], 1)
        assert naive_failures == FAILING, naive_failures
        naive_per_failure.append(naive_seconds / naive_failures)
    rounds = (per_failure, phase_per_failure, per_test, naive_per_failure)
    failure, phase, test, naive = (statistics.median(values) for values in rounds)
    print(f"{suite}: {TESTS} tests, {FAILING} fail under the mutant")
    print(f"  mutant's seconds per failing test: {1000 * failure:.1f} ms")
    print(f"  mutant phase's seconds (its control run too) per failing test: {1000 * phase:.1f} ms")
    print(f"  baseline's seconds per passing test: {1000 * test:.1f} ms")
    print(f"  naive one-pytest-per-mutant seconds per failing test: {1000 * naive:.1f} ms ({naive / failure:.1f}x)")
    cleanup(project)


def main() -> None:
    for suite in SUITES:
        measure(suite)


if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))
    main()
