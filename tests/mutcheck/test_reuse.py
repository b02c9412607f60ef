"""Reuse of stored outcomes: each kind of evidence, changed, re-runs exactly the mutants that stand
on it; an unchanged run is taken from the store; --fresh, a damaged store and a test that writes
the store never make a verdict wrong."""

import json
import textwrap
from pathlib import Path

import pytest

from mutcheck.core.exit_code import ExitCode
from mutcheck.host.reach import watching_is_cheap
from mutcheck.reuse.store import store_path
from tests.mutcheck.cli_runs import mutant, run

CALC = '''\
"""Clamping."""

LIMIT = 10


def double(value):
    return value * 2


def untested(value):
    return value


def clamp(value):
    if value > LIMIT:
        return LIMIT
    return double(value) // 2
'''

OTHER = """\
from pkg.helpers import step


def bump(value):
    return value + step()
"""

HELPERS = """\
def step():
    return 1


def unused():
    return 0
"""

FAMILIES = '[family.guards]\nen = "guards"\nzh = "守卫"\n'

CATALOG = """\
[[mutant]]
id = "CLAMP"
family = "guards"
file = "src/pkg/calc.py"
scope = "clamp"
match = "return LIMIT"
replace = "return value"
killed_by = ["tests/clamp/test_clamp.py::test_limit_itself"]
origin = "the fixture"
title = { en = "no clamping", zh = "不再限制" }
why = { en = "a value above the limit comes back as the limit", zh = "超过上限的值应返回上限" }

[[mutant]]
id = "BUMP"
family = "guards"
file = "src/pkg/other.py"
scope = "bump"
match = "value + step()"
replace = "value - step()"
killed_by = ["tests/other/test_other.py::test_bump"]
origin = "the fixture"
title = { en = "bump goes down", zh = "递增变为递减" }
why = { en = "bump adds one", zh = "递增加一" }
"""

PYPROJECT = """\
[project]
name = "reuse-fixture"
version = "0"

[tool.pytest.ini_options]
pythonpath = ["src"]

[tool.mutcheck]
target = ["src/pkg"]
tests = ["tests"]
jobs = 2
timeout_constant = 5.0
"""

FILES = {
    "pyproject.toml": PYPROJECT,
    "src/pkg/__init__.py": "",
    "src/pkg/calc.py": CALC,
    "src/pkg/other.py": OTHER,
    "src/pkg/helpers.py": HELPERS,  # no mutant of its own: evidence, not a target file
    "mutants/guards.toml": CATALOG,
    "mutants/families.toml": FAMILIES,
    "tests/clamp/conftest.py": "import pytest\n\n\n@pytest.fixture\ndef value():\n    return 15\n",
    "tests/clamp/test_clamp.py": (
        "from pkg.calc import LIMIT, clamp\n\n\n"
        "def test_small():\n    assert clamp(3) == 3\n\n\n"
        "def test_limit_itself(value):\n    assert clamp(value) == min(value, LIMIT)\n"
    ),
    "tests/other/test_other.py": "from pkg.other import bump\n\n\ndef test_bump():\n    assert bump(1) == 2\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def first_run(root: Path) -> dict:
    code, output, data = run(root)
    assert code == ExitCode.OK, output
    assert all(entry["reuse"]["changed"] == ["not-stored"] for entry in data["mutants"])
    return data


def rerun(root: Path, *args: str) -> tuple[dict, dict[str, dict]]:
    """A second run: its results, and each mutant's `reuse` by id."""
    code, output, data = run(root, *args)
    assert code == ExitCode.OK, output
    return data, {entry["id"]: entry.get("reuse") for entry in data["mutants"]}


def reused(reuse: dict[str, dict]) -> set[str]:
    return {key for key, value in reuse.items() if value["reused"]}


def verdicts(data: dict) -> dict[str, tuple[str, list[str]]]:
    return {entry["id"]: (entry["verdict"], sorted(entry["killers"])) for entry in data["mutants"]}


def test_an_unchanged_project_is_taken_from_the_store_whole_with_the_same_verdicts(project):
    before = first_run(project)
    data, reuse = rerun(project)
    assert reused(reuse) == {"CLAMP", "BUMP"} and data["summary"]["reused"] == 2
    assert verdicts(data) == verdicts(before)
    assert data["run"]["timings"] == {"total": data["run"]["seconds"]}  # no pytest started
    assert all(value["changed"] == [] for value in reuse.values())


def test_a_test_body_re_runs_the_mutants_its_file_s_tests_reach(project):
    before = first_run(project)
    edit(project, "tests/clamp/test_clamp.py", "assert clamp(3) == 3", "assert clamp(4) == 4")
    data, reuse = rerun(project)
    assert reused(reuse) == {"BUMP"}
    assert reuse["CLAMP"]["changed"] == ["test:tests/clamp/test_clamp.py"]
    assert verdicts(data) == verdicts(before)


def test_a_fixture_in_a_conftest_re_runs_the_mutants_of_the_tests_below_it(project):
    first_run(project)
    edit(project, "tests/clamp/conftest.py", "return 15", "return 9")
    code, output, data = run(project)
    assert code == ExitCode.EXPECTATION_FAILED, output  # clamp(9) is 9 either way: a real re-run says so
    reuse = {entry["id"]: entry["reuse"] for entry in data["mutants"]}
    assert reused(reuse) == {"BUMP"}
    assert reuse["CLAMP"]["changed"] == ["test:tests/clamp/conftest.py"]
    assert mutant(data, "CLAMP")["verdict"] == "survived"


def test_a_conftest_hook_is_everyone_s_evidence(project):
    first_run(project)
    (project / "tests/other/conftest.py").write_text("def pytest_configure(config):\n    pass\n", encoding="utf-8")
    _, reuse = rerun(project)
    assert reused(reuse) == set()
    assert all("file:tests/other/conftest.py" in value["changed"] for value in reuse.values())


def test_a_called_function_outside_the_mutated_scope_re_runs_the_mutants_whose_tests_ran_it(project):
    first_run(project)
    edit(project, "src/pkg/calc.py", "return value * 2", "return 2 * value")
    _, reuse = rerun(project)
    if watching_is_cheap():  # 3.12+: what the tests ran under each mutant is known function by function
        assert reused(reuse) == {"BUMP"}
        assert reuse["CLAMP"]["changed"] == ["function:double"]
    else:  # 3.11: every target file is evidence of every mutant, whole
        assert reused(reuse) == set()
        assert reuse["BUMP"]["changed"] == ["file:src/pkg/calc.py"]


def test_a_function_no_test_runs_changes_nothing_where_watching_is_cheap(project):
    first_run(project)
    edit(project, "src/pkg/calc.py", "def untested(value):\n    return value", "def untested(value):\n    return 0")
    _, reuse = rerun(project)
    assert reused(reuse) == ({"CLAMP", "BUMP"} if watching_is_cheap() else set())


def test_a_helper_s_function_re_runs_the_mutants_whose_tests_ran_it(project):
    first_run(project)
    edit(project, "src/pkg/helpers.py", "def step():\n    return 1", "def step():\n    return 2 - 1")
    _, reuse = rerun(project)
    if watching_is_cheap():
        assert reused(reuse) == {"CLAMP"}
        assert reuse["BUMP"]["changed"] == ["function:src/pkg/helpers.py::step"]
    else:  # 3.11: a helper module is everyone's evidence, whole
        assert reused(reuse) == set()
        assert all(value["changed"] == ["file:src/pkg/helpers.py"] for value in reuse.values())
    edit(project, "src/pkg/helpers.py", "return 0", "return -1")  # a function no test runs
    _, reuse = rerun(project)
    assert reused(reuse) == ({"CLAMP", "BUMP"} if watching_is_cheap() else set())


def test_a_new_version_in_pyproject_s_project_table_changes_nothing_but_an_ini_option_does(project):
    first_run(project)
    edit(project, "pyproject.toml", 'version = "0"', 'version = "1"')
    _, reuse = rerun(project)
    assert reused(reuse) == {"CLAMP", "BUMP"}


def test_a_module_constant_re_runs_every_mutant(project):
    first_run(project)
    edit(project, "src/pkg/calc.py", "LIMIT = 10", "LIMIT = 11")
    data, reuse = rerun(project)
    assert reused(reuse) == set()
    assert all(value["changed"] == ["module:src/pkg/calc.py"] for value in reuse.values())
    assert mutant(data, "CLAMP")["verdict"] == "killed"


def test_a_new_test_reaching_a_mutant_re_runs_that_mutant_only(project):
    first_run(project)
    (project / "tests/clamp/test_more.py").write_text(
        "from pkg.calc import clamp\n\n\ndef test_above():\n    assert clamp(12) == 10\n", encoding="utf-8"
    )
    data, reuse = rerun(project)
    assert reused(reuse) == {"BUMP"}
    assert reuse["CLAMP"]["changed"] == ["tests"]  # a test reaching it joined
    assert len(mutant(data, "CLAMP")["selected"]) == 3


def test_a_dependency_version_re_runs_every_mutant(project, tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "somedependency-1.0.dist-info").mkdir(parents=True)
    monkeypatch.syspath_prepend(str(site))
    first_run(project)
    (site / "somedependency-1.0.dist-info").rename(site / "somedependency-1.1.dist-info")
    _, reuse = rerun(project)
    assert reused(reuse) == set()
    assert all(value["changed"] == ["packages"] for value in reuse.values())


def test_an_ini_option_re_runs_every_mutant(project):
    first_run(project)
    edit(project, "pyproject.toml", 'pythonpath = ["src"]', 'pythonpath = ["src"]\nmarkers = ["slow"]')
    _, reuse = rerun(project)
    assert reused(reuse) == set()
    assert all(value["changed"] == ["file:pyproject.toml"] for value in reuse.values())


def test_the_time_limits_re_run_every_mutant(project):
    first_run(project)
    _, reuse = rerun(project, "--timeout-constant", "6")
    assert reused(reuse) == set()
    assert all(value["changed"] == ["settings"] for value in reuse.values())


def test_fresh_reuses_nothing_and_says_nothing_of_reuse_but_still_keeps_its_outcomes(project):
    first_run(project)
    data, reuse = rerun(project, "--fresh")
    assert reuse == {"CLAMP": None, "BUMP": None} and data["summary"]["reused"] == 0
    _, reuse = rerun(project)
    assert reused(reuse) == {"CLAMP", "BUMP"}


def test_the_previous_killer_runs_first_under_bail(project):
    """The killer is the last test of the clamp suite; once known, a re-run under --bail tries it first."""
    code, output, data = run(project, "--bail", "--fresh")
    assert code == ExitCode.OK, output
    entry = mutant(data, "CLAMP")
    assert sorted(entry["outcomes"].values()) == ["failed", "passed"]  # the suite's order: the passing one first
    edit(project, "tests/clamp/test_clamp.py", "assert clamp(3) == 3", "assert clamp(2) == 2")
    data, reuse = rerun(project, "--bail")
    entry = mutant(data, "CLAMP")
    assert not reuse["CLAMP"]["reused"]
    assert sorted(entry["outcomes"].values()) == ["failed", "not-run"]  # the killer first, then stop


def test_a_damaged_store_is_a_warning_and_every_mutant_runs(project):
    first_run(project)
    store = store_path(project, None, None)
    store.write_text('{"format": "mutcheck-reuse", "version": 1, "environment": {}, "mutants": {"CLAMP": 3}}')
    store.with_suffix(".inputs.json").write_text("not json")
    code, output, data = run(project)
    assert code == ExitCode.OK, output
    assert "warning: the reuse store was not used, every mutant runs: " in output and "Traceback" not in output
    assert all(entry["reuse"]["changed"] == ["not-stored"] for entry in data["mutants"])
    _, reuse = rerun(project)  # the run wrote a sound store again
    assert reused(reuse) == {"CLAMP", "BUMP"}


def test_a_test_that_writes_the_store_cannot_make_the_next_run_reuse_what_it_wrote(project):
    """The hostile test forges an entry that says CLAMP survived, and a whole run that says so too."""
    first_run(project)
    hostile = textwrap.dedent(
        """\
        import json, os, pathlib

        def test_forges_the_store():
            folder = pathlib.Path(os.environ["XDG_CACHE_HOME"]) / "mutcheck" / "reuse"
            for path in folder.glob("*.json"):
                path.write_text(path.read_text().replace('"failed"', '"passed"'))
            (folder / "planted.json").write_text("{}")
        """
    )
    (project / "tests/other/test_hostile.py").write_text(hostile, encoding="utf-8")
    data, reuse = rerun(project)
    assert mutant(data, "CLAMP")["verdict"] == "killed"
    store = store_path(project, None, None)
    assert not (store.parent / "planted.json").exists()
    kept = json.loads(store.read_text(encoding="utf-8"))
    assert "failed" in kept["mutants"]["CLAMP"]["outcomes"].values()  # what the run saw, not what the test wrote
    data, reuse = rerun(project)
    assert mutant(data, "CLAMP")["verdict"] == "killed" and reused(reuse) == {"CLAMP", "BUMP"}
