"""Hostile paths and ids: nothing outside the project is read as a target or written, and ids are names."""

import json
from pathlib import Path

import pytest

from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.engine_project import entry, make_project
from tests.mutcheck.hostile.commands import CATALOG_FILE, invoke


def outside_module(tmp_path: Path) -> Path:
    """A module outside the project, importable by its tests."""
    outside = tmp_path / "outside" / "ext.py"
    outside.parent.mkdir()
    outside.write_text("VALUE = 1\n", encoding="utf-8")
    return outside


def project_with(tmp_path: Path, **fields: str) -> Path:
    return make_project(tmp_path / "project", entry(**fields))


def test_a_run_never_writes_a_catalogued_file_outside_the_project(tmp_path):
    outside = outside_module(tmp_path)
    catalog = entry(
        file=json.dumps(str(outside)),
        scope='"<module>"',
        match='"VALUE = 1"',
        replace='"VALUE = 2"',
        killed_by='["tests/test_ext.py::test_value"]',
    )
    project = make_project(tmp_path / "project", catalog)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            'pythonpath = ["src"]', f'pythonpath = ["src", {json.dumps(str(outside.parent))}]'
        )
    )
    (project / "tests/test_ext.py").write_text("import ext\n\n\ndef test_value():\n    assert ext.VALUE == 1\n")
    code, output = invoke(project, "run")
    assert code == ExitCode.USAGE
    assert f"error: {CATALOG_FILE}: B1: file: must be relative to the project root, not absolute" in output
    assert outside.read_text() == "VALUE = 1\n"


@pytest.mark.parametrize(
    ("file", "message"),
    [
        ("/etc/hostname", "must be relative to the project root, not absolute: '/etc/hostname'"),
        ("../outside/ext.py", "leads outside the project (through '..' or a symlink): '../outside/ext.py'"),
        ("src/../../outside/ext.py", "leads outside the project"),
        ("src/link.py", "leads outside the project (through '..' or a symlink): 'src/link.py'"),
        ("src/linked/ext.py", "leads outside the project"),
    ],
)
def test_an_entry_file_outside_the_project_is_refused_naming_the_field(tmp_path, file, message):
    outside = outside_module(tmp_path)
    project = project_with(tmp_path, file=json.dumps(file))
    (project / "src/link.py").symlink_to(outside)
    (project / "src/linked").symlink_to(outside.parent, target_is_directory=True)
    code, output = invoke(project, "check")
    assert code == ExitCode.USAGE
    assert f"error: {CATALOG_FILE}: B1: file: {message}" in output


def test_a_symlink_that_stays_inside_the_project_is_a_file_like_any_other(tmp_path):
    project = project_with(tmp_path, file='"src/alias.py"')
    (project / "src/alias.py").symlink_to(project / "src/tiny.py")
    code, output = invoke(project, "check")
    assert code == ExitCode.OK, output


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ('catalog = "/etc"', "tool.mutcheck.catalog: must be relative to the project root, not absolute: '/etc'"),
        ('catalog = "../outside"', "tool.mutcheck.catalog: leads outside the project"),
        ('catalog = "linked"', "tool.mutcheck.catalog: leads outside the project"),
        ('target = ["src", "/etc"]', "tool.mutcheck.target: must be relative to the project root, not absolute"),
        ('target = "../outside"', "tool.mutcheck.target: leads outside the project"),
        ('tests = ["linked"]', "tool.mutcheck.tests: leads outside the project"),
        ('tests = ["../outside/ext.py::test_x"]', "tool.mutcheck.tests: leads outside the project"),
        ('target = ["lib"]', "tool.mutcheck.target: no such file or directory: 'lib'"),
        (
            'tests = ["tests/test_nothing.py"]',
            "tool.mutcheck.tests: no such file or directory: 'tests/test_nothing.py'",
        ),
    ],
)
def test_configured_paths_stay_inside_the_project_and_exist(tmp_path, setting, message):
    outside = outside_module(tmp_path)
    project = project_with(tmp_path)
    (project / "linked").symlink_to(outside.parent, target_is_directory=True)
    pyproject = project / "pyproject.toml"
    key = setting.split(" = ")[0]
    lines = [line for line in pyproject.read_text().splitlines() if not line.startswith(f"{key} = ")]
    pyproject.write_text("\n".join([*lines, setting]) + "\n")
    code, output = invoke(project, "check")
    assert code == ExitCode.USAGE
    assert f"error: pyproject.toml: {message}" in output


def test_a_test_path_may_name_one_test(tmp_path):
    project = project_with(tmp_path)
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text().replace('tests = ["tests"]', 'tests = ["tests/test_tiny.py::test_clamp_low"]')
    pyproject.write_text(text)
    code, output = invoke(project, "check")
    assert code == ExitCode.OK, output


@pytest.mark.parametrize(
    ("fields", "field", "name"),
    [
        ({"id": '"G1/../../x"'}, "id", "G1/../../x"),
        ({"id": '"-rf"'}, "id", "-rf"),
        ({"id": '"a b"'}, "id", "a b"),
        ({"id": '"é1"'}, "id", "é1"),
        ({"aliases": '["M1", "seed 000/M1"]'}, "aliases", "seed 000/M1"),
        ({"aliases": '[".hidden"]'}, "aliases", ".hidden"),
    ],
)
def test_ids_and_aliases_are_names_of_one_documented_character_set(tmp_path, fields, field, name):
    code, output = invoke(project_with(tmp_path, **fields), "check")
    assert code == ExitCode.USAGE
    entry_name = "entry #1" if field == "id" else "B1"
    rule = "a name is letters, digits, '.', '_' and '-', starting with a letter or digit"
    assert f"error: {CATALOG_FILE}: {entry_name}: {field}: {name!r}: {rule}" in output


def test_an_id_with_a_line_break_cannot_break_the_problem_line(tmp_path):
    code, output = invoke(project_with(tmp_path, id='"B1\\nerror: forged"'), "check")
    assert code == ExitCode.USAGE
    assert "error: forged" not in output.replace("\\nerror: forged", "")
    assert f"error: {CATALOG_FILE}: entry #1: id: 'B1\\nerror: forged': a name is" in output


def test_ids_of_the_usual_shapes_are_accepted(tmp_path):
    fields = {"id": '"G12.b_2-x"', "aliases": '["seed000.M1", "R7", "M_6"]'}
    code, output = invoke(project_with(tmp_path, **fields), "check")
    assert code == ExitCode.OK, output
