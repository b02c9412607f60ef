"""mutcheck run on mutcheck itself: a mutant of the modules its own engine has imported reaches the
tests, and never the machinery running them, by the swap path and by a fallback copy, whether
mutcheck is imported through an editable install or through PYTHONPATH."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mutcheck.scratch import copy_project

REPOSITORY = Path(__file__).resolve().parents[2]

PROFILE = """
[tool.mutcheck.profile.isolation]
catalog = "mutants/isolation"
tests = ["tests/isolation"]
"""

TESTS = """
import time

from mutcheck.outcome import FAILED
from mutcheck.timeouts import Alarm


def test_an_alarm_is_armed_with_its_limit():
    alarm = Alarm()
    alarm.arm(5.0)
    try:
        time.sleep(0.05)
        assert alarm.limit == 5.0
    finally:
        alarm.disarm()


def test_a_failure_is_named_failed():
    time.sleep(0.05)
    assert FAILED == "failed"
"""

TEXT = '{ en = "isolation", zh = "隔离" }'
CATALOG = f"""
[[mutant]]
id = "ALARM"
family = "isolation"
file = "src/mutcheck/timeouts.py"
scope = "Alarm.arm"
match = '''
self.stopwatch, self.limit = Stopwatch(), limit
signal.setitimer(signal.ITIMER_REAL, limit)
'''
replace = '''
self.stopwatch, self.limit = Stopwatch(), 0.0
signal.setitimer(signal.ITIMER_REAL, 0.001)
'''
killed_by = ["tests/isolation/test_isolation.py::test_an_alarm_is_armed_with_its_limit"]
origin = "isolation test"
title = {TEXT}
why = {TEXT}

[[mutant]]
id = "FAILED"
family = "isolation"
file = "src/mutcheck/outcome.py"
scope = "<module>"
match = 'FAILED = "failed"'
replace = 'FAILED = "passed"'
killed_by = ["tests/isolation/test_isolation.py::test_a_failure_is_named_failed"]
origin = "isolation test"
title = {TEXT}
why = {TEXT}
"""


@pytest.fixture(scope="module")
def repository_copy(tmp_path_factory) -> Path:
    """This repository with a catalog that breaks two modules the engine itself runs on: the time
    limit alarm every forked test process arms (a swap), and the outcome names every process records."""
    copy = tmp_path_factory.mktemp("self") / "mutcheck"
    copy_project(REPOSITORY, copy)
    with (copy / "pyproject.toml").open("a", encoding="utf-8") as pyproject:
        pyproject.write(PROFILE)
    (copy / "mutants/isolation").mkdir()
    (copy / "mutants/isolation/isolation.toml").write_text(CATALOG, encoding="utf-8")
    (copy / "tests/isolation").mkdir()
    (copy / "tests/isolation/__init__.py").write_text("")
    (copy / "tests/isolation/test_isolation.py").write_text(TESTS, encoding="utf-8")
    return copy


@pytest.mark.parametrize("imported_through", ["installed", "PYTHONPATH"])
def test_mutants_of_mutcheck_reach_its_tests_and_never_its_engine(repository_copy, tmp_path, imported_through):
    environment = dict(os.environ)
    if imported_through == "PYTHONPATH":  # every process of the run finds mutcheck in the project first
        environment["PYTHONPATH"] = os.pathsep.join(["src", *filter(None, [environment.get("PYTHONPATH")])])
    results_path = tmp_path / "results.json"
    completed = subprocess.run(
        [sys.executable, "-m", "mutcheck", "run", "--profile", "isolation", "--json", str(results_path)],
        cwd=repository_copy,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    results = json.loads(results_path.read_text(encoding="utf-8"))
    verdicts = {mutant["id"]: (mutant["verdict"], sorted(mutant["outcomes"].values())) for mutant in results["mutants"]}
    # A leaked alarm would time every test out; leaked outcome names would record the failure as passed.
    assert verdicts == {"ALARM": ("killed", ["failed"]), "FAILED": ("killed", ["failed", "passed"])}
    paths = {mutant["id"]: mutant["path"] for mutant in results["mutants"]}
    assert paths == {"ALARM": "swap", "FAILED": "fallback"}
