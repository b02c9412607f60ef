"""A failed subtest (pytest 9's built-in `subtests` fixture) fails its test under a mutant, as in
a plain pytest run, although the test's own call passes."""

import pytest

from tests.mutcheck.cli_runs import mutant, outcome, run
from tests.mutcheck.engine_project import entry, make_project

SUBTESTS = """\
from tiny import clamp


def test_clamp_cases(subtests):
    for value, expected in [(5, 5), (-1, 0)]:
        with subtests.test(value=value):
            assert clamp(value, 0, 10) == expected
"""


@pytest.mark.skipif(pytest.version_tuple < (9,), reason="subtests are built in from pytest 9.0")
def test_a_failed_subtest_kills_the_mutant(tmp_path):
    catalog = entry(
        id='"SUB"', match='"value < low"', replace='"value > low"', killed_by='["tests/test_sub.py::test_clamp_cases"]'
    )
    project = make_project(tmp_path / "project", catalog)
    (project / "tests/test_sub.py").write_text(SUBTESTS, encoding="utf-8")
    code, output, data = run(project)
    sub = mutant(data, "SUB")
    assert outcome(data, sub, "test_clamp_cases") == "failed", output
    index = str(data["tests"].index("tests/test_sub.py::test_clamp_cases"))
    assert sub["witnesses"].get(index, "").endswith("assert 0 == 5"), sub["witnesses"]
    assert (sub["verdict"], sub["expectation_met"], code) == ("killed", True, 0)
