"""mutcheck run on mutcheck itself: a mutant of the modules its own engine has imported reaches the
tests, and never the machinery running them, by the swap path and by a fallback copy, whether
mutcheck is imported through an editable install or through PYTHONPATH."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mutcheck.sandbox.scratch import copy_project
from tests.mutcheck.paths import REPOSITORY
from tests.mutcheck.site_venvs import venv_seeing_ours

PROFILE = """
[tool.mutcheck.profile.isolation]
catalog = "mutants/isolation"
tests = ["tests/isolation"]
"""

TESTS = """
import time

from mutcheck.core.outcome import FAILED
from mutcheck.host.timeouts import Alarm


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
file = "src/mutcheck/host/timeouts.py"
scope = "Alarm.arm"
match = '''
self.stopwatch, self.limit = Stopwatch(), limit
signal.signal(signal.SIGALRM, self)
signal.setitimer(signal.ITIMER_REAL, limit)
'''
replace = '''
self.stopwatch, self.limit = Stopwatch(), 0.0
signal.signal(signal.SIGALRM, self)
signal.setitimer(signal.ITIMER_REAL, 0.001)
'''
killed_by = ["tests/isolation/test_isolation.py::test_an_alarm_is_armed_with_its_limit"]
origin = "isolation test"
title = {TEXT}
why = {TEXT}

[[mutant]]
id = "FAILED"
family = "isolation"
file = "src/mutcheck/core/outcome.py"
scope = "<module>"
match = 'FAILED = "failed"'
replace = 'FAILED = "passed"'
killed_by = ["tests/isolation/test_isolation.py::test_a_failure_is_named_failed"]
origin = "isolation test"
title = {TEXT}
why = {TEXT}
"""


def repository_copy(root: Path, pytest_pythonpath: bool) -> Path:
    """This repository with a catalog that breaks two modules the engine itself runs on: the time
    limit alarm every forked test process arms (a swap), and the outcome names every process records."""
    copy = root / "mutcheck"
    copy_project(REPOSITORY, copy)
    pyproject = (copy / "pyproject.toml").read_text(encoding="utf-8")
    if not pytest_pythonpath:  # then only the environment leads the tests to the copy's src
        assert 'pythonpath = ["src"]\n' in pyproject
        pyproject = pyproject.replace('pythonpath = ["src"]\n', "")
    (copy / "pyproject.toml").write_text(pyproject + PROFILE, encoding="utf-8")
    (copy / "mutants/isolation").mkdir()
    (copy / "mutants/isolation/isolation.toml").write_text(CATALOG, encoding="utf-8")
    (copy / "tests/isolation").mkdir()
    (copy / "tests/isolation/__init__.py").write_text("")
    (copy / "tests/isolation/test_isolation.py").write_text(TESTS, encoding="utf-8")
    return copy


def editable_python(root: Path, project: Path) -> Path:
    """A virtual environment with the project installed editable (a `.pth` entry into its src, read
    before this environment's packages, which it sees as a site folder): what `pip install -e` of
    the project being run writes."""
    python, site_packages = venv_seeing_ours(root)
    (site_packages / "0_project.pth").write_text(f"{project / 'src'}\n", encoding="utf-8")
    return python


@pytest.mark.parametrize("imported_through", ["another install", "PYTHONPATH=src", "an editable install of it"])
def test_mutants_of_mutcheck_reach_its_tests_and_never_its_engine(tmp_path, imported_through):
    """Another install: this process's mutcheck (an editable install of another checkout, or a
    wheel), the copy's tests led to its src by pytest's pythonpath. PYTHONPATH=src: every process of
    the run finds the project's mutcheck first. An editable install of it: the engine and the tests
    both import the project being run, and no pytest pythonpath leads the tests to the copy."""
    project = repository_copy(tmp_path, pytest_pythonpath=imported_through != "an editable install of it")
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    python = Path(sys.executable)
    if imported_through == "PYTHONPATH=src":
        environment["PYTHONPATH"] = "src"
    elif imported_through == "an editable install of it":
        python = editable_python(tmp_path / "venv", project)
        imported = subprocess.run(
            [python, "-c", "import mutcheck; print(mutcheck.__file__)"], capture_output=True, text=True
        )
        assert Path(imported.stdout.strip()) == project / "src/mutcheck/__init__.py", imported.stderr
    results_path = tmp_path / "results.json"
    completed = subprocess.run(
        [python, "-m", "mutcheck", "run", "--profile", "isolation", "--json", str(results_path)],
        cwd=project,
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
