"""Hostile inputs to the loaders: encodings, configuration values, a replacement of the wrong kind."""

import json
import os
from pathlib import Path

import pytest

from mutcheck.catalog.config import load_config
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.problems import InputError
from tests.mutcheck.engine_project import PYPROJECT, SOURCE, entry, make_project
from tests.mutcheck.hostile.commands import CATALOG_FILE, invoke

# Encodings


@pytest.mark.parametrize("name", ["pyproject.toml", "mutants/families.toml", CATALOG_FILE])
def test_a_toml_file_that_is_not_utf8_is_refused_naming_the_file(tmp_path, name):
    project = make_project(tmp_path)
    path = project / name
    path.write_bytes(path.read_text(encoding="utf-8").replace("[", "# café\n[", 1).encode("latin-1", "replace"))
    code, output = invoke(project, "check")
    assert code == ExitCode.USAGE
    assert f"error: {name}: not UTF-8 (byte " in output


LATIN_1_SOURCE = '# -*- coding: latin-1 -*-\nLABEL = "café"\nUNUSED = 1\n' + SOURCE
LABEL_TEST = 'from tiny import LABEL\n\n\ndef test_label():\n    assert LABEL == "caf\\xe9"\n'
GAP = '{ en = "nothing reads it", zh = "没有代码读取它" }'


def latin_1_project(root: Path) -> Path:
    """A target in Latin-1 with its coding cookie; a module mutant that only the file's encoding could kill."""
    catalog = entry(replace='"value > low"') + entry(
        id='"GAP"', scope='"<module>"', match='"UNUSED = 1"', replace='"UNUSED = 2"', killed_by=None, survives=GAP
    )
    project = make_project(root, catalog)
    (project / "src/tiny.py").write_bytes(LATIN_1_SOURCE.encode("latin-1"))
    (project / "tests/test_label.py").write_text(LABEL_TEST, encoding="utf-8")
    return project


def test_a_source_with_a_coding_cookie_is_read_as_python_reads_it(tmp_path):
    project = latin_1_project(tmp_path)
    assert invoke(project, "check") == (ExitCode.OK, "2 mutants in 1 families: every entry applies\n")
    code, output = invoke(project, "show", "GAP")
    assert code == ExitCode.OK, output
    assert "-UNUSED = 1\n+UNUSED = 2" in output


def test_a_run_writes_a_mutated_source_in_its_own_encoding(tmp_path):
    project = latin_1_project(tmp_path)
    results_path = tmp_path / "results.json"
    code, output = invoke(project, "run", "--json", str(results_path))
    assert code == ExitCode.OK, output
    results = json.loads(results_path.read_text(encoding="utf-8"))
    gap = next(mutant for mutant in results["mutants"] if mutant["id"] == "GAP")
    assert (gap["path"], gap["verdict"]) == ("fallback", "survived")  # test_label still reads "café"
    assert 'LABEL = "café"' in results["sources"]["src/tiny.py"]
    assert (project / "src/tiny.py").read_bytes() == LATIN_1_SOURCE.encode("latin-1")


def test_a_replacement_the_source_encoding_cannot_hold_names_replace(tmp_path):
    project = latin_1_project(tmp_path)
    catalog = project / CATALOG_FILE
    catalog.write_text(
        catalog.read_text(encoding="utf-8").replace('"UNUSED = 2"', "\"UNUSED = '中'\""), encoding="utf-8"
    )
    code, output = invoke(project, "check")
    assert code == ExitCode.USAGE
    assert f"error: {CATALOG_FILE}: GAP: replace: has '中', which iso-8859-1 cannot encode" in output


@pytest.mark.parametrize(
    ("head", "message"),
    [
        (b"# -*- coding: klingon -*-\n", "unknown encoding: klingon"),
        (b'# coding: ascii\nLABEL = "caf\xe9"\n', "'ascii' codec can't decode byte 0xe9"),
    ],
)
def test_a_source_that_cannot_be_decoded_names_the_entry_file(tmp_path, head, message):
    project = make_project(tmp_path, entry(file='"src/other.py"'))
    (project / "src/other.py").write_bytes(head + SOURCE.encode())
    code, output = invoke(project, "check")
    assert code == ExitCode.USAGE
    assert f"error: {CATALOG_FILE}: B1: file: cannot be read as Python source: " in output
    assert message in output


# Configuration values


def with_settings(project: Path, settings: str) -> Path:
    """The project with its [tool.mutcheck] table replaced by `settings` (TOML from the table on)."""
    head = PYPROJECT.split("[tool.mutcheck]")[0]
    (project / "pyproject.toml").write_text(head + settings + "\n", encoding="utf-8")
    return project


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ('[tool]\nmutcheck = "yes"', "pyproject.toml: tool.mutcheck: must be a table ([tool.mutcheck])"),
        ("[tool.mutcheck]\njobs = inf", "pyproject.toml: tool.mutcheck.jobs: must be a finite number"),
        ("[tool.mutcheck]\njobs = nan", "pyproject.toml: tool.mutcheck.jobs: must be a finite number"),
        ("[tool.mutcheck]\njobs = 0", "pyproject.toml: tool.mutcheck.jobs: must be positive"),
        ("[tool.mutcheck]\njobs = -4", "pyproject.toml: tool.mutcheck.jobs: must be positive"),
        ("[tool.mutcheck]\nbaseline_rounds = inf", "pyproject.toml: tool.mutcheck.baseline_rounds: must be a finite"),
        ("[tool.mutcheck]\ntimeout_factor = nan", "pyproject.toml: tool.mutcheck.timeout_factor: must be a finite"),
        ("[tool.mutcheck]\ntimeout_constant = inf", "pyproject.toml: tool.mutcheck.timeout_constant: must be a finite"),
        (
            "[tool.mutcheck]\ntimeout_factor = 0\ntimeout_constant = 0.0",
            "pyproject.toml: tool.mutcheck.timeout_constant: timeout_factor and timeout_constant are both 0",
        ),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_key(tmp_path, settings, message):
    code, output = invoke(with_settings(make_project(tmp_path), settings), "check")
    assert code == ExitCode.USAGE
    assert output.startswith(f"error: {message}")
    assert output.count("\n") == 1  # one problem, one line


def test_a_tool_key_that_is_no_table_is_named(tmp_path):
    project = make_project(tmp_path)
    (project / "pyproject.toml").write_text('tool = 3\n[project]\nname = "x"\n', encoding="utf-8")
    code, output = invoke(project, "check")
    assert code == ExitCode.USAGE
    assert "error: pyproject.toml: tool: must be a table" in output


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--timeout-factor", "nan"], "error: --timeout-factor: must be a finite number"),
        (["--timeout-constant", "inf"], "error: --timeout-constant: must be a finite number"),
        (
            ["--timeout-factor", "0", "--timeout-constant", "0"],
            "error: --timeout-constant: timeout_factor and timeout_constant are both 0",
        ),
    ],
)
def test_a_bad_option_is_named_as_an_option(tmp_path, options, message):
    code, output = invoke(make_project(tmp_path), "run", *options)
    assert code == ExitCode.USAGE
    assert message in output


def test_jobs_from_the_file_are_capped_at_the_cpu_count_and_the_option_is_not(tmp_path):
    project = with_settings(make_project(tmp_path), "[tool.mutcheck]\njobs = 100000")
    assert load_config(project).jobs == os.cpu_count()
    assert load_config(project, {"jobs": 100000}).jobs == 100000


def test_a_setting_and_its_option_in_the_same_problem_list(tmp_path):
    project = with_settings(make_project(tmp_path), "[tool.mutcheck]\njobs = inf")
    with pytest.raises(InputError) as raised:
        load_config(project, {"timeout_factor": float("nan")})
    assert [str(problem) for problem in raised.value.problems] == [
        "pyproject.toml: tool.mutcheck.jobs: must be a finite number",
        "--timeout-factor: must be a finite number",
    ]


BOGUS_ARGS = '[tool.mutcheck]\ntests = ["tests"]\npytest_args = ["--no-such-option"]'


@pytest.mark.parametrize("command", ["check", "run"])
def test_pytest_arguments_pytest_refuses_are_named_as_such(tmp_path, command):
    code, output = invoke(with_settings(make_project(tmp_path), BOGUS_ARGS), command)
    assert code == ExitCode.USAGE
    assert "error: pyproject.toml: tool.mutcheck.pytest_args: pytest refuses them: " in output
    assert "--no-such-option" in output


def test_a_nul_character_in_pytest_arguments_is_named(tmp_path):
    project = with_settings(make_project(tmp_path), '[tool.mutcheck]\npytest_args = ["-k", "a\\u0000b"]')
    code, output = invoke(project, "check")
    assert code == ExitCode.USAGE
    assert "error: pyproject.toml: tool.mutcheck.pytest_args: must not contain a NUL character" in output


def test_a_suite_that_does_not_collect_is_not_blamed_on_its_pytest_arguments(tmp_path):
    project = with_settings(make_project(tmp_path), '[tool.mutcheck]\ntests = ["tests"]\npytest_args = ["-x"]')
    (project / "tests/test_broken.py").write_text("import no_such_module\n", encoding="utf-8")
    code, output = invoke(project, "check")
    assert code == ExitCode.USAGE
    assert "error: pyproject.toml: tool.mutcheck.tests: collection failed" in output


# The kind of a replacement


def test_a_statement_replacing_an_expression_blames_replace(tmp_path):
    code, output = invoke(make_project(tmp_path, entry(replace='"return 5"')), "check")
    assert code == ExitCode.USAGE
    message = "replace: does not parse as an expression, the kind of node match is: it parses only as a statement"
    assert f"error: {CATALOG_FILE}: B1: {message}" in output


def test_a_statement_match_with_a_statement_replace_is_still_a_statement_edit(tmp_path):
    code, output = invoke(make_project(tmp_path, entry(match='"return low"', replace='"return 5"')), "check")
    assert code == ExitCode.OK, output
