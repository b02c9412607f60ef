"""`mutcheck check`, `list`, `show` and `run` on black-formatted code and on module statements."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.cli_runs import mutant, outcome, run
from tests.mutcheck.engine_project import entry, make_project

# Real black output (black 26, default settings): the `and` operand is split across lines.
SHAPES = '''\
"""Code as black formats it."""

RETRY_LIMIT = 3


def retries_left(used):
    return RETRY_LIMIT - used


def admitted(
    session_is_authenticated, signature_is_valid_for_path, path_is_public_anyway
):
    return verdict(
        session_is_authenticated
        and signature_is_valid_for_path
        or path_is_public_anyway,
        "admission",
    )


def verdict(allowed, topic):
    return {"topic": topic, "allowed": allowed}
'''

SHAPES_TESTS = """\
from shapes import admitted, retries_left


def test_retries_left():
    assert retries_left(1) == 2


def test_admitted_needs_both():
    assert admitted(True, False, False) == {"topic": "admission", "allowed": False}
"""

MODULE_CONSTANT = entry(
    id='"MODULE-CONSTANT"',
    file='"src/shapes.py"',
    scope='"<module>"',
    match='"RETRY_LIMIT = 3"',
    replace='"RETRY_LIMIT = 4"',
    killed_by='["tests/test_shapes.py::test_retries_left"]',
)

# The operand as copied from the file, line break and indentation included.
SPLIT_OPERAND = entry(
    id='"SPLIT-OPERAND"',
    file='"src/shapes.py"',
    scope='"admitted"',
    match="'''session_is_authenticated\n        and signature_is_valid_for_path'''",
    replace='"session_is_authenticated or signature_is_valid_for_path"',
    killed_by='["tests/test_shapes.py::test_admitted_needs_both"]',
)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    project = make_project(tmp_path_factory.mktemp("shapes") / "project", MODULE_CONSTANT + "\n" + SPLIT_OPERAND)
    (project / "src/shapes.py").write_text(SHAPES, encoding="utf-8")
    (project / "tests/test_shapes.py").write_text(SHAPES_TESTS, encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def shapes_run(project) -> tuple[int, str, dict]:
    return run(project)


def invoke(project: Path, *args: str):
    return CliRunner().invoke(main, [*args, "--project", str(project)])


def test_check_applies_both_entries(project):
    result = invoke(project, "check")
    assert result.exit_code == ExitCode.OK, result.output
    assert "2 mutants in 1 families: every entry applies" in result.output


def test_list_and_show_name_the_module_scope(project):
    listed = invoke(project, "list")
    assert "src/shapes.py::<module>" in listed.output
    shown = invoke(project, "show", "MODULE-CONSTANT")
    assert shown.exit_code == ExitCode.OK
    assert "-RETRY_LIMIT = 3" in shown.output and "+RETRY_LIMIT = 4" in shown.output
    split = invoke(project, "show", "SPLIT-OPERAND")
    assert "-        session_is_authenticated\n-        and signature_is_valid_for_path\n" in split.output
    assert "+        (session_is_authenticated or signature_is_valid_for_path)\n" in split.output


def test_a_module_constant_runs_every_test_on_the_fallback_path(shapes_run):
    code, output, data = shapes_run
    entry = mutant(data, "MODULE-CONSTANT")
    assert (entry["path"], entry["verdict"], entry["expectation_met"]) == ("fallback", "killed", True), output
    assert entry["selected"] == list(range(len(data["tests"])))
    assert outcome(data, entry, "test_retries_left") == "failed"
    assert outcome(data, entry, "test_clamp_low") == "passed"
    assert code == ExitCode.OK


def test_a_black_split_operand_is_killed_on_the_swap_path(shapes_run):
    _, output, data = shapes_run
    entry = mutant(data, "SPLIT-OPERAND")
    assert (entry["path"], entry["verdict"], entry["expectation_met"]) == ("swap", "killed", True), output
    assert (entry["span"]["start_line"], entry["span"]["end_line"]) == (14, 15)
    assert outcome(data, entry, "test_admitted_needs_both") == "failed"
    assert outcome(data, entry, "test_clamp_low") == "unselected"
