"""Any project's pytest options: `addopts` that change only what pytest prints, pytest-xdist in
`addopts`, options no run can work with, and a conftest that changes directory at import. Real
runs on the engine fixture, whose verdicts are known."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.cli_runs import run
from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.naive import naive_run_of

# The engine fixture's verdicts and paths as a run without any option gives them (see test_engine.py).
EXPECTED = {
    "SWAP": ("killed", "swap"),
    "NESTED": ("killed", "swap"),
    "FALLBACK": ("killed", "fallback"),
    "LOOP": ("timeout", "swap"),
    "HANG": ("killed", "swap"),
    "UNREACHED": ("no-coverage", "none"),
    "BREAKS": ("broken", "fallback"),
    "EQUAL": ("equivalent", "swap"),
    "SURVIVOR": ("survived", "swap"),
}


def with_addopts(root: Path, addopts: str) -> Path:
    project = make_engine_project(root)
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace('pythonpath = ["src"]', f'pythonpath = ["src"]\naddopts = {addopts}'), "utf-8")
    return project


def verdicts(data: dict) -> dict[str, tuple[str, str]]:
    return {entry["id"]: (entry["verdict"], entry["path"]) for entry in data["mutants"]}


@pytest.mark.parametrize(
    "addopts",
    [
        '"-sv --durations=0"',
        '"-ra -q --tb=short"',
        '["-x", "--lf", "-p", "no:randomly"]',
        '"--ff --tb=line -vv"',
        '"-p no:cacheprovider -q"',
    ],
)
def test_options_that_change_what_pytest_prints_change_no_verdict(tmp_path, addopts):
    project = with_addopts(tmp_path / "project", addopts)
    checked = CliRunner().invoke(main, ["check", "--project", str(project)])
    assert (checked.exit_code, checked.output.strip()) == (0, "9 mutants in 1 families: every entry applies")
    code, output, data = run(project)
    assert code == ExitCode.EXPECTATION_FAILED, output  # the fixture's survivor and the rest, as ever
    assert verdicts(data) == EXPECTED


def test_xdist_in_addopts_is_switched_off_inside_the_run_and_said_once(tmp_path):
    pytest.importorskip("xdist")
    project = with_addopts(tmp_path / "project", '["-n", "2"]')
    _, output, data = run(project)
    assert verdicts(data) == EXPECTED
    assert output.count("pytest-xdist is switched off inside the run") == 1
    assert len(data["tests"]) == 7


@pytest.mark.parametrize(("option", "spelling"), [("--pdb", "--pdb"), ("--co", "--co"), ("-f", "-f")])
def test_an_option_no_run_can_work_with_is_one_line_naming_it_and_its_file(tmp_path, option, spelling):
    if option == "-f":
        pytest.importorskip("xdist")
    project = with_addopts(tmp_path / "project", f'"-q {option}"')
    for command in ("run", "check"):
        result = CliRunner().invoke(main, [command, "--project", str(project)])
        lines = result.output.strip().splitlines()
        assert result.exit_code == ExitCode.USAGE, result.output
        assert len(lines) == 1 and lines[0].startswith(
            f"error: pyproject.toml: tool.pytest.ini_options.addopts: {spelling} "
        ), result.output
        assert "Traceback" not in result.output


def test_a_conftest_that_changes_directory_at_import_changes_no_verdict(tmp_path):
    project = make_engine_project(tmp_path / "project")
    (project / "tests" / "conftest.py").write_text("import os\n\nos.chdir(os.path.dirname(__file__))\n")
    _, _, data = run(project)
    assert verdicts(data) == EXPECTED


# A session-wide resource that cannot be opened twice, as a database or a server often cannot.
ONCE_PER_SESSION = """\
import pytest

OPENED = []


@pytest.fixture(scope="session", autouse=True)
def connection():
    if OPENED:
        raise RuntimeError("the session's connection was opened twice")
    OPENED.append(True)
    yield
"""


def _killers(root: Path, addopts: str | None) -> dict[str, tuple[str, list[str]]]:
    project = with_addopts(root, addopts) if addopts else make_engine_project(root)
    (project / "tests/conftest.py").write_text(ONCE_PER_SESSION, encoding="utf-8")
    _, _, data = run(project)
    return {entry["id"]: (entry["verdict"], sorted(entry["killers"])) for entry in data["mutants"]}


@pytest.fixture(scope="module")
def plain_killers(tmp_path_factory) -> dict[str, tuple[str, list[str]]]:
    return _killers(tmp_path_factory.mktemp("plain") / "project", None)


@pytest.mark.parametrize("addopts", ['"-x"', '"--maxfail=1"', '"--sw"'])
def test_options_that_stop_after_a_failure_leave_shared_fixtures_to_the_tests_after_it(
    tmp_path, plain_killers, addopts
):
    """Under a mutant the first failure would mark the session to stop, and pytest's protocol then
    tears every fixture down after each test: the next one would open the connection again, fail,
    and count as a killer the run without the option never had."""
    assert _killers(tmp_path / "project", addopts) == plain_killers


def test_with_x_in_addopts_the_killers_are_every_test_that_fails_as_a_naive_run_that_does_not_stop_says(tmp_path):
    """The kill matrix holds every test's outcome: a plain run with `-x` stops at the first failure,
    one with `--maxfail=0` after the project's addopts (the naive side) fails them all."""
    project = with_addopts(tmp_path / "project", '"-x"')
    _, _, data = run(project)
    several = [entry for entry in data["mutants"] if len(entry["killers"]) > 1]
    compared = 0
    for entry in several:
        naive = naive_run_of(project, entry["id"], ["tests"], limit=30)
        if naive.status is not None:  # a mutant that hangs a test stops the naive run at its limit
            assert naive.failed == set(entry["killers"]), entry["id"]
            compared += 1
    assert compared >= 1, data["mutants"]  # one with two killers or more: a run that stopped would give one
