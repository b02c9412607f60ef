"""Line reach: which lines of a span a test can be seen to run (compiled for real), and a survivor
whose lines no test ran is `no-coverage`, end to end on a fixture project."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.module_scope import reach_name
from mutcheck.core.source_text import Span
from mutcheck.selection.line_reach import FileLines, line_reach
from tests.mutcheck.cli_runs import mutant, run
from tests.mutcheck.engine_project import FAMILIES, catalog_entry, pyproject, write_files

SOURCE = """\
import functools

LIMIT = 3


def merge(blocks):
    merged = []
    for block in blocks:
        if block.get("signature"):
            merged.append(dict(block, signed=True))
        else:
            merged.append(block)
    return merged


class Store:
    size = LIMIT

    def keep(self, item, key=lambda item: item):
        global LIMIT
        return [key(item)]


def table():
    return {"limit": LIMIT}


TABLE = table()


def adder(step):
    return lambda value: value + step
"""


@pytest.fixture(scope="module")
def lines_of():
    return FileLines(SOURCE, "source.py")


def _reach(lines_of, first, last, executed, import_reached=(), in_subprocesses=(), started=None):
    span = Span(first, 4, last, 10)
    started = started if started is not None else [set() for _ in executed]
    return line_reach(lines_of, span, executed, set(import_reached), set(in_subprocesses), started)


def test_a_branch_no_test_entered_never_ran_and_its_function_s_tests_did_not_run_it(lines_of):
    executed = [{7, 8, 9, 12, 13}, {7, 8, 13}]  # one test ran the `else` branch, one an empty loop
    reach = _reach(lines_of, 10, 10, executed)
    assert (reach.lines, reach.never_ran, reach.tests) == ([10], [10], [])
    reach = _reach(lines_of, 9, 12, executed)  # `else:` carries no code of its own
    assert (reach.lines, reach.never_ran, reach.tests) == ([9, 10, 12], [10], [0])


def test_lines_that_also_run_outside_a_test_or_hold_no_code_are_not_seen(lines_of):
    everything = [set(range(1, 40))]
    assert _reach(lines_of, 3, 3, everything) is None  # module level
    assert _reach(lines_of, 17, 17, everything) is None  # a class body
    assert (
        _reach(lines_of, 19, 19, everything) is None
    )  # a default lambda: its body runs in a test, its making at import
    assert _reach(lines_of, 20, 20, everything) is None  # `global`: no code
    assert _reach(lines_of, 6, 6, everything) is None  # a `def` line: the module runs it
    run_while_importing = {reach_name("source.py", "table")}
    assert _reach(lines_of, 25, 25, everything, import_reached=run_while_importing) is None
    assert _reach(lines_of, 21, 21, everything, in_subprocesses={0}) is None  # lines run elsewhere go unseen
    assert _reach(lines_of, 25, 25, everything).tests == [0]


def test_a_lambda_made_in_a_function_is_that_function_s_code(lines_of):
    # `adder` makes the lambda on line 32, whose body (the same line) runs when the lambda is called
    assert _reach(lines_of, 32, 32, [{32}, set()]).tests == [0]
    assert _reach(lines_of, 32, 32, [set(), set()]).never_ran == [32]


def test_a_span_of_whole_lines_is_its_own_lines_and_an_insertion_has_none(lines_of):
    whole_lines = line_reach(lines_of, Span(10, 0, 11, 0), [{9, 12}], set(), set(), [set()])
    assert whole_lines.lines == [10]  # not line 11, where the span ends at column 0
    assert line_reach(lines_of, Span(12, 0, 12, 0), [{12}], set(), set(), [set()]) is None


def test_a_function_that_started_without_a_line_of_it_seen_leaves_the_lines_unseen(lines_of):
    # another tracer in its place, a thread already running: the function started, no line was seen
    assert _reach(lines_of, 10, 10, [set()], started=[{reach_name("source.py", "merge")}]) is None
    assert _reach(lines_of, 10, 10, [{7, 8, 13}], started=[{reach_name("source.py", "merge")}]).tests == []
    assert _reach(lines_of, 10, 10, [set()], started=[{reach_name("source.py", "table")}]).never_ran == [10]


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
