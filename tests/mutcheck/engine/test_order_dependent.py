"""A failure is a kill only if the same tests, in the same order, pass unmutated; one that fails
unmutated too in the order of a mutant's selection is decided by the suite's own order, as a plain
pytest run would run it."""

from mutcheck.core.exit_code import ExitCode
from mutcheck.report.markdown import render_markdown
from tests.mutcheck.cli_runs import mutant, outcome, run
from tests.mutcheck.engine_project import entry, make_engine_project, make_project
from tests.mutcheck.results_docs import typed

# test_b passes only after test_a has run in the same process (shared module state). The
# mutants on clamp select test_b but not test_a, which never calls clamp.
ORDER_DEPENDENT_TESTS = """

_STATE = {}


def test_a_prepares_the_state():
    _STATE["ready"] = True
    assert countdown(1) == 0


def test_b_needs_the_state():
    assert _STATE.get("ready")
    assert clamp(5, 0, 10) == 5
"""


def _project(tmp_path):
    project = make_engine_project(tmp_path / "project")
    tests = project / "tests/test_tiny.py"
    tests.write_text(tests.read_text() + ORDER_DEPENDENT_TESTS)
    return project


def test_a_test_that_fails_only_without_its_predecessor_is_decided_in_the_suites_order(tmp_path):
    """Neither mutant's selection holds test_a, so test_b fails unmutated in it: never a kill there.
    After every test before it, as pytest runs the suite, SWAP still breaks it (a kill, as a plain
    run says) and EQUAL does not (order-dependent, not a killer)."""
    code, output, data = run(_project(tmp_path), "--only", "EQUAL", "--only", "SWAP")
    equal, swap = mutant(data, "EQUAL"), mutant(data, "SWAP")
    assert outcome(data, equal, "test_b_needs_the_state") == "order-dependent"
    assert (equal["verdict"], equal["expectation_met"]) == ("equivalent", True)
    assert outcome(data, swap, "test_b_needs_the_state") == "failed"
    assert set(swap["killers"]) >= {
        "tests/test_tiny.py::test_clamp_low",
        "tests/test_tiny.py::test_clamp_inside",
        "tests/test_tiny.py::test_b_needs_the_state",
    }
    assert data["baseline"]["order_dependent"] == ["tests/test_tiny.py::test_b_needs_the_state"]
    assert "order-dependent (fails unmutated in a mutant's selection" in output
    assert "test_b_needs_the_state" in output
    assert code == ExitCode.OK, output
    comment = render_markdown(typed(data))
    assert "Order-dependent tests (" in comment and "依赖顺序的测试" in comment
    assert comment.count("test\\_b\\_needs\\_the\\_state") + comment.count("test_b_needs_the_state") >= 2


def test_the_baseline_passes_as_pytest_runs_the_suite_even_when_the_split_breaks_an_order(tmp_path):
    """test_a first in the file, test_b last: with two workers, the baseline's cut into runs of
    consecutive tests puts them in different children; run whole, they pass."""
    project = make_engine_project(tmp_path / "project")
    tests = project / "tests/test_tiny.py"
    first, second = ORDER_DEPENDENT_TESTS.split("def test_b_needs_the_state")
    imports, rest = tests.read_text().split("\n", 1)
    tests.write_text(f"{imports}\n{first}\n{rest}\n\ndef test_b_needs_the_state{second}")
    code, output, data = run(project, "--only", "EQUAL", "--jobs", "2")
    assert data["tests"].index("tests/test_tiny.py::test_a_prepares_the_state") == 0
    assert data["tests"][-1] == "tests/test_tiny.py::test_b_needs_the_state"
    assert data["baseline"]["ok"], output
    assert data["baseline"]["failures"] == []
    assert "tests/test_tiny.py::test_b_needs_the_state" in data["baseline"]["order_dependent"]
    assert code == ExitCode.OK, output


def test_an_expected_killer_that_is_order_dependent_is_reported_as_not_failing(tmp_path):
    project = make_engine_project(
        tmp_path / "project",
        catalog=entry(
            id='"INCLUSIVE"',
            file='"src/tiny.py"',
            match='"value < low"',
            replace='"value <= low"',
            killed_by='["tests/test_tiny.py::test_b_needs_the_state"]',
        ),
    )
    tests = project / "tests/test_tiny.py"
    tests.write_text(tests.read_text() + ORDER_DEPENDENT_TESTS)
    code, output, data = run(project)
    inclusive = mutant(data, "INCLUSIVE")
    assert {
        "kind": "killer-passed",
        "test": "tests/test_tiny.py::test_b_needs_the_state",
        "detail": "order-dependent",
    } in inclusive["problems"]
    assert code == ExitCode.EXPECTATION_FAILED, output


def test_mutants_of_one_function_share_one_control_run(tmp_path):
    """LOW fails the first clamp test, INSIDE the third: INSIDE's control (the three tests) also
    answers LOW's (the first two), so LOW's waits for INSIDE rather than running on its own."""
    catalog = entry(id='"LOW"', match='"value < low"', replace='"value < low - 100"')
    catalog += entry(
        id='"INSIDE"',
        match='"return value"',
        replace='"return value + 1"',
        killed_by='["tests/test_tiny.py::test_clamp_inside"]',
    )
    project = make_project(tmp_path / "project", catalog)
    code, output, data = run(project, "--jobs", "1")
    assert code == ExitCode.OK, output
    assert mutant(data, "LOW")["killers"] == ["tests/test_tiny.py::test_clamp_low"]
    assert mutant(data, "INSIDE")["killers"] == ["tests/test_tiny.py::test_clamp_inside"]
    assert data["run"]["controls"] == {"runs": 1, "tests": 3}
