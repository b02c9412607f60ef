"""Reach, in this process: calls from any thread are recorded, test by test, with sys.monitoring
and with the trace-function fallback (taken when another tool holds our monitoring id); so are the
target files' lines, where asked."""

import importlib.util
import sys
import threading
from pathlib import Path

import pytest

from mutcheck.core.module_scope import reach_name
from mutcheck.host.reach import TOOL_ID, Reach

TARGET = """\
def reached():
    return 1


def generator():
    yield 1
    yield 2


def branch(flag):
    if flag:
        return "entered"
    return "not entered"


def maker():
    return lambda: "made"
"""


@pytest.fixture
def target(tmp_path):
    path = tmp_path / "reach_target.py"
    path.write_text(TARGET, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("reach_target", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, {str(path)}


@pytest.fixture(params=["monitoring", "tool id taken"] if hasattr(sys, "monitoring") else ["trace functions"])
def mode(request):
    if request.param == "tool id taken":
        sys.monitoring.use_tool_id(TOOL_ID, "another tool")
        request.addfinalizer(lambda: sys.monitoring.free_tool_id(TOOL_ID))
    return request.param


@pytest.fixture
def reach(mode, target):
    recorder = Reach(target[1])
    yield recorder
    assert recorder.monitoring is (mode == "monitoring")


@pytest.fixture
def line_reach(mode, target):
    recorder = Reach(target[1], lines=True)
    yield recorder
    assert recorder.monitoring is (mode == "monitoring")


def named(target, *qualnames: str) -> list[str]:
    """The target's functions as a reach names them (with their file)."""
    (path,) = target[1]
    return sorted(reach_name(path, qualname) for qualname in qualnames)


def _in_a_thread(function):
    thread = threading.Thread(target=function)
    thread.start()
    thread.join()


def test_each_test_records_what_it_reached_in_any_thread(reach, target):
    module = target[0]
    reach.start_test()
    _in_a_thread(module.reached)
    assert reach.stop_test().covered == named(target, "reached")
    reach.start_test()
    assert reach.stop_test().covered == []
    reach.start_test()
    module.reached()  # reported again after the previous tests disabled its event
    assert reach.stop_test().covered == named(target, "reached")


def test_a_generator_resumed_in_a_later_test_counts_for_that_test(reach, target):
    reach.start_test()
    numbers = target[0].generator()
    next(numbers)
    assert reach.stop_test().covered == named(target, "generator")
    reach.start_test()
    next(numbers)
    assert reach.stop_test().covered == named(target, "generator")


def test_what_a_shared_fixture_s_setup_started_is_its_own_and_its_outer_fixture_s(reach, target):
    module = target[0]
    reach.start_test()
    module.reached()  # before: the test's alone, and reported again inside the fixture
    reach.enter()  # an outer fixture's setup
    module.reached()
    reach.enter()  # an inner one, set up for it
    module.branch(True)
    inner = reach.leave()
    outer = reach.leave()
    module.maker()  # after: the test's alone
    assert inner[1] == named(target, "branch")
    assert outer[1] == named(target, "branch", "reached")
    assert reach.stop_test().covered == named(target, "branch", "maker", "reached")


def test_nothing_outside_the_target_files_is_recorded(reach, target):
    reach.start_test()
    _in_a_thread(lambda: Path(".").resolve())
    assert reach.stop_test().covered == []
    reach.start_test()  # while it does record the target's functions, called among others
    _in_a_thread(lambda: (Path(".").resolve(), target[0].reached(), Path(".").resolve()))
    assert reach.stop_test().covered == named(target, "reached")


def test_the_lines_each_test_ran_are_recorded_in_any_thread_and_only_in_the_target_files(line_reach, target):
    reach = line_reach
    module, files = target
    (path,) = files
    reach.start_test()
    _in_a_thread(lambda: module.branch(True))
    assert reach.stop_test().lines == {path: [11, 12]}
    reach.start_test()
    module.branch(False)
    module.branch(False)  # each line once
    assert reach.stop_test().lines == {path: [11, 13]}
    reach.start_test()
    Path(".").resolve()
    assert reach.stop_test().lines == {}
    reach.start_test()
    module.branch(True)  # the lines report again, test after test
    assert reach.stop_test().lines == {path: [11, 12]}


def test_a_lambda_made_in_one_test_reports_its_line_in_the_test_that_calls_it(line_reach, target):
    module, files = target
    (path,) = files
    line_reach.start_test()
    made = module.maker()
    assert line_reach.stop_test().lines == {path: [17]}
    line_reach.start_test()
    made()
    assert line_reach.stop_test().lines == {path: [17]}


def test_lines_are_not_recorded_unless_asked(reach, target):
    reach.start_test()
    target[0].branch(True)
    reached = reach.stop_test()
    assert (reached.covered, reached.lines) == (named(target, "branch"), {})
