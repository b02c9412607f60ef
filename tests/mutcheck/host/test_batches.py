"""What a test process does, run here on tests collected here: the selected tests in their order, one
event each, under per-test time limits, stopping on a failure when asked, the first witnesses only,
whether a mutant's code started; a baseline chunk's results with what each test reached."""

import itertools
import json
import os
import signal
import time
from pathlib import Path

import pytest

from mutcheck.core.module_scope import reach_name
from mutcheck.host.batches import baseline_chunk, run_tests
from mutcheck.host.events import EventWriter
from mutcheck.host.reach import Reach
from mutcheck.host.subprocesses import SubprocessReach, follow_subprocesses
from mutcheck.host.swap import Marker
from mutcheck.host.watch import Watch
from mutcheck.host.wire import FULL, HostSpec

pytest_plugins = ["pytester"]

MIXED = """
import pytest


def test_passes():
    pass


def test_fails():
    assert 1 == 2


def test_skips():
    pytest.skip("not here")
"""

# A class-scoped fixture: set up before the first of its class's tests, torn down once the next
# test to run is outside the class.
SHARED = """
import pytest

LOG = []


@pytest.fixture(scope="class")
def shared():
    LOG.append("set up")
    yield
    LOG.append("torn down")


@pytest.mark.usefixtures("shared")
class TestShared:
    def test_one(self):
        pass

    def test_two(self):
        pass

    def test_left_out(self):
        pass


def test_outside():
    pass
"""


@pytest.fixture(autouse=True)
def _alarm_handler():
    """`run_tests` installs its SIGALRM handler in this process: the tests after get theirs back."""
    previous = signal.getsignal(signal.SIGALRM)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def _run(
    items: list[pytest.Item],
    selected: list[int],
    limits: list[float] | None = None,
    bail: bool = False,
    marker: Marker | None = None,
) -> list[dict]:
    """The events `run_tests` writes, read back from its pipe."""
    read_fd, write_fd = os.pipe()
    try:
        run_tests(items, selected, EventWriter(write_fd), bail, limits or [30.0] * len(selected), marker)
    finally:
        os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        return [json.loads(line) for line in pipe.read().splitlines()]


def _outcomes(events: list[dict]) -> list[tuple[int, str]]:
    return [(event["test"], event["outcome"]) for event in events if "outcome" in event]


def test_the_selected_tests_run_in_the_order_given_each_announced_then_reported_and_then_done(pytester):
    items = pytester.getitems(MIXED)
    events = _run(items, [2, 0])
    assert [{key: value for key, value in event.items() if key != "duration"} for event in events] == [
        {"test": 2, "running": True},
        {"test": 2, "outcome": "skipped", "witness": None},
        {"test": 0, "running": True},
        {"test": 0, "outcome": "passed", "witness": None},
        {"done": True},
    ]


def test_a_fixture_shared_by_consecutive_selected_tests_is_set_up_once_and_torn_down_after_the_last(pytester):
    """Each test is told which selected test comes next, not which one pytest collected next: the
    class fixture ends after `test_two`, although `test_left_out` follows it in the module."""
    items = pytester.getitems(SHARED)
    events = _run(items, [0, 1, 3])
    assert _outcomes(events) == [(0, "passed"), (1, "passed"), (3, "passed")]
    assert items[0].module.LOG == ["set up", "torn down"]


def test_each_test_has_its_own_limit_and_the_tests_after_a_time_out_still_run(pytester):
    items = pytester.getitems(
        """
        import time


        def test_brief():
            time.sleep(0.3)


        def test_hangs():
            time.sleep(30)


        def test_after():
            pass
        """
    )
    events = _run(items, [1, 0, 2], limits=[0.2, 5.0, 5.0])  # one limit per selected test, in their order
    assert _outcomes(events) == [(1, "timeout"), (0, "passed"), (2, "passed")]


def test_a_pytest_timeout_mark_and_the_test_s_own_limit_share_the_alarm_and_the_earlier_acts(pytester):
    """pytest-timeout's signal method sets the process's one SIGALRM timer for each test it times: a
    hang under a mark longer than the test's own limit is stopped at that limit (not at the mark's
    minute), and a mark shorter than it fails the test as the plugin does in a plain run."""
    items = pytester.getitems(
        """
        import time

        import pytest


        @pytest.mark.timeout(60)
        def test_hangs():
            while True:
                pass


        @pytest.mark.timeout(0.3)
        def test_slow():
            time.sleep(5)
        """
    )
    events = _run(items, [0, 1], limits=[0.5, 30.0])
    assert _outcomes(events) == [(0, "timeout"), (1, "failed")]
    (witness,) = [event["witness"] for event in events if event.get("test") == 1 and "outcome" in event]
    assert witness.startswith("Failed: Timeout (>0.3s)")  # the plugin's own failure


@pytest.mark.parametrize("teardown", ["time.sleep(0.5)", "pass"])
def test_a_time_out_lasted_its_limit_whatever_its_teardown_took_after_the_stop(pytester, teardown):
    """A kept time-out stands under a limit no longer than its duration: the teardown after the stop
    is not time the test ran for, and a test the alarm stopped a few milliseconds short of its limit
    by the protocol's own stopwatch (started after the alarm's) was charged that limit all the same."""
    items = pytester.getitems(
        f"""
        import time

        import pytest


        @pytest.fixture
        def closing():
            yield
            {teardown}


        def test_hangs(closing):
            time.sleep(30)
        """
    )
    (finished,) = [event for event in _run(items, [0], limits=[0.2]) if "outcome" in event]
    assert (finished["outcome"], finished["duration"]) == ("timeout", 0.2)


class _SlowReports:
    """A plugin whose report hook outlives the test's limit: the time-out is raised outside pytest's catch."""

    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo) -> None:
        if call.when == "call":
            time.sleep(5)


@pytest.mark.filterwarnings("ignore:A plugin raised an exception during an old-style hookwrapper teardown")
def test_a_time_out_raised_outside_pytest_s_catch_is_still_that_test_s_time_out(pytester):
    items = pytester.getitems("def test_passes():\n    pass\n")
    plugins = items[0].config.pluginmanager
    plugins.register(_SlowReports(), "slow-reports")
    try:
        events = _run(items, [0], limits=[0.2])
    finally:
        plugins.unregister(name="slow-reports")
    assert [event for event in events if "outcome" in event] == [
        {"test": 0, "outcome": "timeout", "duration": 0.2, "witness": None}
    ]
    assert events[-1] == {"done": True}


def test_bail_stops_at_the_first_failing_test_but_not_at_a_skipped_one(pytester):
    items = pytester.getitems(MIXED)
    bailed = _run(items, [2, 1, 0], bail=True)
    assert _outcomes(bailed) == [(2, "skipped"), (1, "failed")]
    assert bailed[-1] == {"done": True}
    assert _outcomes(_run(items, [2, 1, 0])) == [(2, "skipped"), (1, "failed"), (0, "passed")]


def test_only_the_first_two_failures_carry_a_witness(pytester):
    items = pytester.getitems(
        """
        def test_one():
            assert 1 == 2


        def test_two():
            assert 2 == 3


        def test_three():
            assert 3 == 4
        """
    )
    events = _run(items, [0, 1, 2])
    assert [event["witness"] for event in events if "outcome" in event] == [
        "AssertionError: assert 1 == 2",
        "AssertionError: assert 2 == 3",
        None,
    ]
    assert _outcomes(events) == [(0, "failed"), (1, "failed"), (2, "failed")]


def test_with_a_marker_each_test_says_whether_the_mutated_code_started_during_it(pytester):
    items = pytester.getitems(
        """
        COUNTER = None  # the marker's counter, which a swapped mutant's code calls first


        def test_starts_the_code():
            next(COUNTER)


        def test_does_not():
            pass
        """
    )
    marker = Marker(itertools.count())
    items[0].module.COUNTER = marker.counter
    marked = _run(items, [0, 1], marker=marker)
    assert [(event["test"], event["ran"]) for event in marked if "outcome" in event] == [(0, True), (1, False)]
    assert not any("ran" in event for event in _run(items, [0, 1]))


def _chunk(items: list[pytest.Item], chunk: list[int], reach: Reach | None = None, folder: Path | None = None):
    watch = None
    if reach is not None:
        watch = Watch(EventWriter(os.open(os.devnull, os.O_WRONLY)), reach)  # its fixtures' events go nowhere
    return baseline_chunk(items, chunk, watch, SubprocessReach(folder, reach) if folder else None)


def test_a_baseline_chunk_reports_its_tests_in_its_order_as_one_run_of_them(pytester):
    """Without reach, each result is the test's outcome alone; each test is told which test of the
    chunk comes next, so the class fixture ends after `test_two`."""
    items = pytester.getitems(SHARED)
    results = _chunk(items, [0, 1, 3])
    assert [set(result) for result in results] == [{"test", "outcome", "duration", "witness"}] * 3
    assert [(result["test"], result["outcome"]) for result in results] == [(0, "passed"), (1, "passed"), (3, "passed")]
    assert items[0].module.LOG == ["set up", "torn down"]


def test_with_reach_each_baseline_result_says_what_that_test_reached_here_and_in_its_subprocesses(
    pytester, tmp_path, monkeypatch
):
    helper = pytester.makepyfile(helper="def reached():\n    return 1\n").resolve()
    items = pytester.getitems(
        """
        import subprocess
        import sys

        import helper


        def test_reaches():
            helper.reached()


        def test_reaches_in_a_subprocess():
            subprocess.run([sys.executable, "-c", "import helper; helper.reached()"], check=True)


        def test_reaches_nothing():
            pass
        """
    )
    for name in ("PYTHONPATH", "MUTCHECK_SUBPROCESS"):  # what `follow_subprocesses` sets, given back after
        monkeypatch.setenv(name, os.environ.get(name, ""))
    spec = HostSpec(FULL, -1, str(pytester.path), str(tmp_path), [], [], os.getpid(), target_files=[str(helper)])
    folder = follow_subprocesses(spec)
    results = _chunk(items, [0, 1, 2], Reach({str(helper)}), folder)
    assert [(result["covered"], result["subprocess"]) for result in results] == [
        ([reach_name(str(helper), "reached")], []),
        ([], [reach_name(str(helper), "<module>"), reach_name(str(helper), "reached")]),  # it imported the helper
        ([], []),
    ]
    assert all(result["fresh"] == [] and result["cached"] == [] for result in results)
    assert [result["outcome"] for result in results] == ["passed"] * 3
    assert all("seen" in result for result in results)  # what each was seen to depend on (see `watch`)
