"""A test that opens a target file (a style check over the sources, `inspect.getsource`) tests its
text: it runs under every mutant of that file, whether or not it runs the mutated code, where the text
is the mutant's (a copy; a fresh host from the fork server for a read through `linecache`), and gives
the killing set a plain run gives."""

import pytest

from tests.mutcheck.cli_runs import mutant, run
from tests.mutcheck.engine_project import FAMILIES, catalog_entry, pyproject, write_files
from tests.mutcheck.naive import naive_run_of

STYLE = """\
from pathlib import Path

import grading


def test_lines_are_short():
    assert all(len(line) < 60 for line in Path(grading.__file__).read_text().splitlines())
"""

PROJECT = {
    "pyproject.toml": pyproject("source-readers", timeout_constant=5.0),
    "src/grading.py": "def grade(score):\n    if score > 50:\n        return 'pass'\n    return 'fail'\n",
    "tests/test_grading.py": "from grading import grade\n\n\ndef test_high():\n    assert grade(90) == 'pass'\n",
    "tests/test_style.py": STYLE,
    "mutants/families.toml": FAMILIES,
    "mutants/catalog.toml": catalog_entry(
        "LONG",
        "grade",
        "score > 50",
        "score > 50 or score > 51 or score > 52 or score > 53",
        'killed_by = ["tests/test_style.py::test_lines_are_short"]',
        "src/grading.py",
    )
    + catalog_entry(
        "BOUND",
        "grade",
        "score > 50",
        "score > 40",
        'survives = { en = "no test grades a score between 41 and 50", zh = "没有测试给 41 到 50 分评级" }',
        "src/grading.py",
    ),
}


INSPECTING = {
    **PROJECT,
    "tests/test_style.py": """\
import inspect

import grading


def test_lines_are_short():
    assert all(len(line) < 60 for line in inspect.getsource(grading).splitlines())
""",
}


@pytest.mark.parametrize("mutant_id", ["LONG", "BOUND"])
@pytest.mark.parametrize(("files", "where"), [(PROJECT, "copy"), (INSPECTING, "fork")], ids=["opens", "inspects"])
def test_a_test_that_reads_the_file_runs_under_its_mutants_where_the_text_is_the_mutants(
    tmp_path, files, where, mutant_id
):
    """A test that opens the file itself runs in a copy; `inspect.getsource` reads it through
    `linecache`, whose cache a fresh host from the fork server fills with the mutant's text, so the
    mutant runs there. Either way the reader is selected as one that opens the file."""
    project = write_files(tmp_path / "project", files)
    _, output, data = run(project, "--fresh", "--only", mutant_id)
    result = mutant(data, mutant_id)
    selected = [data["tests"][index] for index in result["selected"]]
    assert "tests/test_style.py::test_lines_are_short" in selected, output
    assert result["fallback"] == {
        "reason": "reads-source",
        "test": "tests/test_style.py::test_lines_are_short",
        "where": where,
    }, output
    naive = naive_run_of(project, mutant_id, ["tests"])
    verdict = "killed" if naive.failed else "survived"
    assert (result["verdict"], set(result["killers"])) == (verdict, naive.failed), output
