"""A survivor whose lines no test ran is `no-coverage`, end to end on a fixture project: the verdict,
the tests named as running its lines, and what the reports and `show` say of the lines never run."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from tests.mutcheck.cli_runs import mutant, run
from tests.mutcheck.engine_project import FAMILIES, catalog_entry, pyproject, write_files

FIXTURE_SOURCE = '''\
"""Consolidation of reasoning blocks: signed blocks keep their signature."""


def consolidate(blocks):
    merged = []
    for block in blocks:
        if block.get("signature"):
            merged.append({"text": block["text"], "signature": block["signature"]})
        else:
            merged.append({"text": block["text"]})
    return merged
'''

FIXTURE_TESTS = """\
from blocks import consolidate


def test_plain_blocks_keep_their_text():
    assert consolidate([{"text": "a"}]) == [{"text": "a"}]


def test_nothing_to_consolidate():
    assert consolidate([]) == []
"""


def _entry(mutant_id: str, match: str, replace: str, expectation: str) -> str:
    origin = "line reach fixture"
    return catalog_entry(mutant_id, "consolidate", match, replace, expectation, "src/blocks.py", origin=origin)


BOTH_BRANCHES = """\
if block.get("signature"):
    merged.append({"text": block["text"], "signature": block["signature"]})
else:
    merged.append({"text": block["text"]})"""
KILLED_BY = 'killed_by = ["tests/test_blocks.py::test_plain_blocks_keep_their_text"]'
GAP = 'survives = { en = "no test signs a block", zh = "没有测试给块签名" }'
CATALOG = "".join(
    [
        # in the branch no test enters
        _entry("UNSIGNED", 'block["signature"]', "None", GAP),
        _entry("EXPECTED", 'block["signature"]', 'block.get("sig")', KILLED_BY),
        # in the branch a test enters, and no test tells apart
        _entry("PLAIN", '{"text": block["text"]}', 'dict(text=block["text"])', GAP),
        # spans both branches: one of its lines ran
        _entry(
            "BOTH",
            BOTH_BRANCHES,
            'merged.append({"text": block["text"]})',
            GAP,
        ),
        _entry("KILLED", 'merged.append({"text": block["text"]})', "pass", KILLED_BY),
    ]
)


def _make_project(root: Path) -> Path:
    files = {
        "pyproject.toml": pyproject("line-reach-fixture", timeout_constant=5.0),
        "src/blocks.py": FIXTURE_SOURCE,
        "tests/test_blocks.py": FIXTURE_TESTS,
        "mutants/families.toml": FAMILIES,
        "mutants/catalog.toml": CATALOG,
    }
    return write_files(root, files)


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory):
    project = _make_project(tmp_path_factory.mktemp("line-reach") / "project")
    reports = ("--html", str(project.parent / "report.html"), "--markdown", str(project.parent / "comment.md"))
    reports += ("--stryker", str(project.parent / "stryker.json"))
    return project, run(project, "--fresh", *reports)


def _test_index(data: dict, name: str) -> int:
    return next(index for index, test in enumerate(data["tests"]) if test.endswith("::" + name))


def test_a_survivor_in_a_branch_no_test_enters_is_no_coverage(fixture_run):
    _, (status, _, data) = fixture_run
    unsigned = mutant(data, "UNSIGNED")
    assert unsigned["verdict"] == "no-coverage"
    assert unsigned["expectation_met"]  # a known gap: not killed, as catalogued
    assert len(unsigned["selected"]) == 2  # both tests ran the function, and still ran under it
    assert unsigned["line_reach"] == {"lines": [8], "never_ran": [8], "tests": []}
    expected = mutant(data, "EXPECTED")
    assert expected["verdict"] == "no-coverage"
    assert [problem["kind"] for problem in expected["problems"]] == ["no-coverage"]
    assert status != 0


def test_a_survivor_whose_lines_ran_stays_a_survivor_and_names_the_tests_that_ran_them(fixture_run):
    _, (_, _, data) = fixture_run
    plain = mutant(data, "PLAIN")
    assert plain["verdict"] == "survived"
    assert plain["line_reach"]["tests"] == [_test_index(data, "test_plain_blocks_keep_their_text")]
    both = mutant(data, "BOTH")
    assert both["verdict"] == "survived"
    assert both["line_reach"]["lines"] == [7, 8, 10] and both["line_reach"]["never_ran"] == [8]
    killed = mutant(data, "KILLED")
    assert killed["verdict"] == "killed" and killed["expectation_met"]


def test_the_reports_and_show_say_which_lines_never_ran(fixture_run):
    project, (_, output, _) = fixture_run
    assert "never ran in any test: src/blocks.py line(s) 8" in output  # EXPECTED, a finding
    assert "UNSIGNED: none of 2 tests failed; none ran its lines" in output
    assert "BOTH: none of 2 tests failed\n" in output
    for report in ("report.html", "comment.md"):
        text = (project.parent / report).read_text(encoding="utf-8")
        assert "never ran in any test: src/blocks.py line(s) 8" in text
        assert "在任何测试中都没有执行过：src/blocks.py 第 8 行" in text
    shown = CliRunner().invoke(main, ["show", "UNSIGNED", "--project", str(project)])
    assert "no test reaches its code" in shown.output
    assert "2 tests ran its function without running its lines" in shown.output
    assert "never ran in any test: src/blocks.py line(s) 8" in shown.output
    chinese = CliRunner().invoke(main, ["show", "BOTH", "--lang", "zh", "--project", str(project)])
    assert "在任何测试中都没有执行过：src/blocks.py 第 8 行" in chinese.output
    assert "有 1 个测试执行到它" in chinese.output


def test_stryker_s_covered_by_names_the_tests_that_ran_the_lines(fixture_run):
    project, _ = fixture_run
    report = json.loads((project.parent / "stryker.json").read_text(encoding="utf-8"))
    covered = {m["id"]: m["coveredBy"] for file in report["files"].values() for m in file["mutants"]}
    assert covered["UNSIGNED"] == []  # both tests ran the function, neither its line
    assert covered["PLAIN"] == ["tests/test_blocks.py::test_plain_blocks_keep_their_text"]
