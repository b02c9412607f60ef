"""The scheduler run here, as the host runs it, on a suite collected here: the baseline's chunks, its
rerun in pytest's order and what its first round reached; then each mutant forked under its swap or
run in a copy, resumed after a time-out or a crash, its controls and its confirmation in the suite's
order, reported once. Tests whose outcome changes after their first run stand for suites that leave
state behind."""

import ast
import base64
import fcntl
import os
import time
from pathlib import Path
from typing import Any

import pytest

from mutcheck.core.module_scope import reach_name
from mutcheck.host.scheduler import Scheduler, deal
from mutcheck.host.subprocesses import follow_subprocesses
from mutcheck.host.swap import marked_module, modules_by_file
from mutcheck.host.wire import FULL, BaselineRan, HostEvent, HostSpec, MutantPlan, MutantRan, read_event

pytest_plugins = ["pytester"]

TARGET = """\
import os
import signal
import time


def add(a, b):
    return a + b


def sub(a, b):
    return a - b
"""
SUBTRACTS = TARGET.replace("a + b", "a - b")
SWAPS_OPERANDS = TARGET.replace("a + b", "b + a")  # the same sums: no test can tell
# Ignores the time limit's SIGALRM: only the scheduler, once the process is over its budget, stops it.
HANGS = TARGET.replace("    return a + b", "    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    time.sleep(30)")
CRASHES = TARGET.replace("    return a + b", "    os.kill(os.getpid(), signal.SIGKILL)")
SLOW = TARGET.replace("    return a + b", "    time.sleep(0.5)\n    return a + b")

ADDS = """
import calc


def test_adds():
    assert calc.add(1, 2) == 3
"""


class _Host:
    """A scheduler over a suite collected in this process, with the spec, plan and modules the host
    gives it, its events read back from their pipe."""

    def __init__(self, pytester: pytest.Pytester, scratch: Path, suite: str, target: str = TARGET, **spec: Any):
        self.source = target
        self.target = str(pytester.makepyfile(calc=target).resolve())
        self.items = pytester.getitems(suite)
        session = self.items[0].session
        session.items = self.items  # what pytest's run loop hands the host
        self.read_fd, write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        fcntl.fcntl(write_fd, fcntl.F_SETPIPE_SZ, 1 << 20)  # read only once the run is over: room for every event
        self.spec = HostSpec(
            FULL, write_fd, str(pytester.path), str(scratch), [], [], os.getpid(), target_files=[self.target], **spec
        )
        self.spec.subprocesses = str(follow_subprocesses(self.spec))
        # a copy's host must start and collect: never the reason it runs out of time here; no fork
        # server (that is the host's, made before collection): every fallback runs in a copy
        self.scheduler = Scheduler(self.spec, session, startup_seconds=5.0)

    def mutant(self, mutant_id: str, mutated: str, selected: list[int], innermost: str | None = "add") -> dict:
        """A mutant of the target as the engine plans it: swapped in `innermost` (None: in a copy)."""
        original = compile(self.source, self.target, "exec", dont_inherit=True)
        marked = marked_module(
            ast.parse(mutated), self.target, original, compile(mutated, self.target, "exec", dont_inherit=True)
        )
        return {
            "id": mutant_id,
            "file": "calc.py",
            "path": self.target,
            "swap_target": innermost,
            "marked": base64.b64encode(marked).decode() if marked else None,
            "fallback": "outside-function",
            "edit": None,
            "encoding": "utf-8",
            "writes": [["calc.py", mutated, "utf-8", None]],
            "selected": selected,
        }

    def run(self, mutants: list[dict], durations: list[float] | None = None, constant: float = 5.0) -> list[MutantRan]:
        """The baseline, then `mutants` with each test's limit its duration plus `constant`."""
        self.scheduler.baseline()
        durations = durations or [0.0] * len(self.items)
        self.scheduler.plan = MutantPlan(mutants, {}, durations, 1.0, constant)
        self.scheduler.modules = modules_by_file(self.spec.target_files)
        self.scheduler.mutants()
        return [event for event in self.events() if isinstance(event, MutantRan)]

    def events(self) -> list[HostEvent]:
        data = b""
        while True:
            try:
                chunk = os.read(self.read_fd, 65536)
            except BlockingIOError:
                break
            data += chunk
        return [read_event(line) for line in data.decode().splitlines()]

    def baselines(self) -> list[BaselineRan]:
        self.scheduler.baseline()
        return [event for event in self.events() if isinstance(event, BaselineRan)]

    def nodeid(self, index: int) -> str:
        return self.items[index].nodeid


@pytest.fixture
def host(pytester, tmp_path, monkeypatch):
    for name in ("PYTHONPATH", "MUTCHECK_SUBPROCESS"):  # what `follow_subprocesses` sets, given back after
        monkeypatch.setenv(name, os.environ.get(name, ""))
    hosts = []

    def make(suite: str, target: str = TARGET, **spec: Any) -> _Host:
        scratch = tmp_path / f"scratch{len(hosts)}"
        scratch.mkdir()
        hosts.append(_Host(pytester, scratch, suite, target, **spec))
        return hosts[-1]

    yield make
    for made in hosts:
        os.close(made.read_fd)
        os.close(made.spec.events_fd)


# -- the baseline --------------------------------------------------------------------------------


def test_the_baseline_cuts_the_suite_into_runs_of_consecutive_tests_one_per_worker():
    assert deal(["a"] * 5, 2) == [[0, 1], [2, 3, 4]]
    assert deal(["a", "b"], 4) == [[0], [1]]  # never more chunks than tests
    assert deal(["a"] * 3, 0) == [[0, 1, 2]]
    assert deal([], 4) == [[]]  # an empty suite: one process, which runs nothing


def test_a_cut_moves_to_the_nearest_start_of_a_file_within_an_eighth_of_a_chunk():
    # 32 tests, two chunks of 16: file b starts at 14, within 2 of the even cut, so b stays whole
    assert deal(["a"] * 14 + ["b"] * 18, 2) == [list(range(14)), list(range(14, 32))]
    # no file starts near the even cut: the cut stays there, inside a file
    assert deal(["a"] * 4 + ["b"] * 28, 2) == [list(range(16)), list(range(16, 32))]
    # of two starts in reach, the nearer one
    cuts = deal(["a"] * 14 + ["b"] * 3 + ["c"] * 15, 2)
    assert cuts == [list(range(17)), list(range(17, 32))]


ORDERED = """
import calc

READY = []


def test_prepares():
    READY.append(True)


def test_needs_preparing():
    total = calc.add(1, 2)
    assert READY
    assert total == 3
"""


def test_a_test_failing_only_as_the_workers_split_the_suite_is_order_dependent_and_its_pytest_order_result_counts(
    host,
):
    run = host(ORDERED, jobs=2)  # one test per worker: the second runs without the first
    (event,) = run.baselines()
    assert event.order_dependent == [1]
    assert [result["outcome"] for result in event.results] == ["passed", "passed"]


def test_a_test_failing_in_pytest_s_order_too_is_a_failure_not_order_dependent(host):
    run = host(
        """
        def test_fails():
            assert 1 == 2


        def test_passes():
            pass
        """,
        jobs=2,
    )
    (event,) = run.baselines()
    assert event.order_dependent == []
    assert [result["outcome"] for result in event.results] == ["failed", "passed"]


def test_only_the_first_baseline_round_records_what_each_test_reached(host):
    run = host(ADDS + "\n\ndef test_reaches_nothing():\n    pass\n", baseline_rounds=2)
    # what the host found ran while pytest imported the project (names enough that a set's order is not sorted)
    run.scheduler.import_reached = {"sub", "add", "mul", "div", "neg", "abs"}
    first, second = run.baselines()
    assert (first.round, second.round) == (1, 2)
    add = reach_name(run.target, "add")
    assert [result["covered"] for result in first.results] == [[add], []]
    assert first.import_reached == ["abs", "add", "div", "mul", "neg", "sub"]
    assert all("covered" not in result for result in second.results) and second.import_reached is None
    assert [reached["covered"] for reached in run.scheduler.reached] == [{add}, set()]


def test_the_tests_of_a_baseline_process_that_died_unheard_are_errors(host):
    run = host(
        """
        import os


        def test_ends_its_process():
            os._exit(0)


        def test_passes():
            pass
        """
    )
    (event,) = run.baselines()
    assert [(result["outcome"], result["witness"]) for result in event.results] == [
        ("error", "the test process died"),
        ("error", "the test process died"),
    ]


def test_the_tests_of_a_baseline_process_that_broke_are_errors_that_say_why(host):
    run = host(
        """
        def test_interrupts():
            raise KeyboardInterrupt


        def test_passes():
            pass
        """
    )
    (event,) = run.baselines()
    assert [(result["outcome"], result["witness"]) for result in event.results] == [
        ("error", "KeyboardInterrupt"),
        ("error", "KeyboardInterrupt"),
    ]


# -- the mutants: where each runs ----------------------------------------------------------------


ADDS_AND_MORE = ADDS + "\n\ndef test_adds_nothing():\n    pass\n"


def test_a_swapped_mutant_that_fails_a_test_passing_unmutated_in_that_order_is_killed_after_one_control(host):
    run = host(ADDS_AND_MORE)
    (event,) = run.run([run.mutant("M", SUBTRACTS, [0, 1])])
    assert (event.path, event.fallback, event.timed_out, event.broken) == ("swap", None, False, None)
    assert event.outcomes == {0: "failed", 1: "passed"}
    assert event.witnesses == {0: "AssertionError: assert -1 == 3"}
    assert (run.scheduler.controls.runs, run.scheduler.controls.tests) == (1, 2)
    assert list(run.scheduler.controls.finished) == [(0, 1)]


def test_a_mutant_with_no_function_to_swap_runs_in_a_copy_and_says_why(host):
    run = host(ADDS)
    (event,) = run.run([run.mutant("M", SUBTRACTS, [0], innermost=None)])
    assert (event.path, event.fallback) == ("fallback", {"reason": "outside-function", "test": None, "where": "copy"})
    assert event.outcomes == {0: "failed"}


def test_a_mutant_without_its_marked_code_runs_in_a_copy(host):
    run = host(ADDS)
    mutant = run.mutant("M", SUBTRACTS, [0])
    mutant["marked"] = None
    (event,) = run.run([mutant])
    assert (event.path, event.fallback) == ("fallback", {"reason": "no-marker", "test": None, "where": "copy"})


def test_a_mutant_of_a_file_the_suite_never_imported_runs_in_a_copy(host):
    run = host("def test_passes():\n    pass\n")
    (event,) = run.run([run.mutant("M", SUBTRACTS, [0])])
    assert (event.path, event.fallback) == ("fallback", {"reason": "not-imported", "test": None, "where": "copy"})


def test_a_mutant_whose_function_ran_while_pytest_imported_the_project_runs_in_a_copy(host):
    """The function or one inside it: `subtraction` having run at import says nothing of `sub`."""
    run = host(ADDS + "\n\ndef test_subtracts():\n    assert calc.sub(3, 1) == 2\n")
    run.scheduler.import_reached = {reach_name(run.target, "add"), reach_name(run.target, "subtraction")}
    added, subtracted = run.run(
        [run.mutant("A", SUBTRACTS, [0]), run.mutant("S", TARGET.replace("a - b", "a + b"), [1], innermost="sub")]
    )
    assert (added.path, added.fallback) == ("fallback", {"reason": "import-time", "test": None, "where": "copy"})
    assert (subtracted.path, subtracted.outcomes) == ("swap", {1: "failed"})


LAMBDA_TARGET = """\
def make():
    return lambda x: x + 1


increment = make()
"""


def test_a_mutant_in_a_lambda_whose_def_ran_at_import_runs_in_a_copy(host):
    """Python 3.11 reports the `def` holding a lambda as started, not the lambda itself."""
    run = host("import calc\n\n\ndef test_increments():\n    assert calc.increment(1) == 2\n", LAMBDA_TARGET)
    run.scheduler.import_reached = {reach_name(run.target, "make")}
    mutant = run.mutant("M", LAMBDA_TARGET.replace("x + 1", "x - 1"), [0], innermost="make.<locals>.<lambda>")
    (event,) = run.run([mutant])
    assert (event.path, event.fallback) == ("fallback", {"reason": "import-time", "test": None, "where": "copy"})


def test_a_mutant_a_test_reached_in_a_subprocess_runs_in_a_copy_naming_that_test(host):
    run = host(
        ADDS
        + """

def test_adds_in_a_subprocess():
    import subprocess
    import sys

    subprocess.run([sys.executable, "-c", "import calc; calc.add(1, 2)"], check=True)
"""
    )
    (event,) = run.run([run.mutant("M", SUBTRACTS, [0, 1])])
    assert (event.path, event.fallback) == (
        "fallback",
        {"reason": "subprocess", "test": run.nodeid(1), "where": "copy"},
    )


def test_a_mutant_a_test_reached_through_fresh_code_runs_in_a_copy_naming_that_test(host):
    run = host(
        """
        import importlib

        import calc


        def test_reloads():
            assert importlib.reload(calc).add(1, 2) == 3
        """
    )
    (event,) = run.run([run.mutant("M", SUBTRACTS, [0])])
    assert (event.path, event.fallback) == (
        "fallback",
        {"reason": "fresh-code", "test": run.nodeid(0), "where": "copy"},
    )
    assert event.outcomes == {0: "failed"}


GONE_TARGET = """\
def gone():
    return 1


del gone
"""


def test_a_mutant_no_live_function_carries_runs_in_a_copy_saying_why(host):
    run = host("import calc\n\n\ndef test_passes():\n    pass\n", GONE_TARGET)
    (event,) = run.run([run.mutant("M", GONE_TARGET.replace("1", "2", 1), [0], innermost="gone")])
    assert (event.path, event.fallback) == ("fallback", {"reason": "no-live-function", "test": None, "where": "copy"})


def test_a_copy_s_host_is_given_time_to_start_beyond_its_tests_limits(host):
    run = host(ADDS)
    (event,) = run.run([run.mutant("M", SUBTRACTS, [0], innermost=None)], constant=0.05)
    assert (event.timed_out, event.outcomes) == (False, {0: "failed"})


# -- the mutants: evidence that the swap ran -----------------------------------------------------


def test_a_test_that_passed_without_starting_the_code_it_reached_in_the_baseline_sends_the_mutant_to_a_copy(host):
    run = host(
        """
        import os

        import calc


        def test_adds_on_its_first_run_only():
            if not os.path.exists("ran"):
                open("ran", "w").close()
                assert calc.add(1, 2) == 3
        """
    )
    (event,) = run.run([run.mutant("M", SUBTRACTS, [0])])
    assert (event.path, event.fallback) == (
        "fallback",
        {"reason": "no-evidence", "test": run.nodeid(0), "where": "copy"},
    )
    assert event.outcomes == {0: "passed"}


def test_a_test_that_failed_before_the_mutated_code_started_sends_the_mutant_to_a_copy(host):
    run = host(
        """
import os


def test_fails_after_its_first_run():
    assert not os.path.exists("ran")
    open("ran", "w").close()
"""
        + ADDS
    )
    (event,) = run.run([run.mutant("M", SUBTRACTS, [0, 1])])
    assert (event.path, event.fallback) == (
        "fallback",
        {"reason": "no-evidence", "test": run.nodeid(0), "where": "copy"},
    )


def test_a_time_out_before_the_mutated_code_started_is_no_reason_to_doubt_the_swap(host):
    run = host(
        """
        import os
        import time

        import calc  # imported: the mutant can be swapped


        def test_hangs_after_its_first_run():
            if os.path.exists("ran"):
                time.sleep(30)
            open("ran", "w").close()
        """
    )
    (event,) = run.run([run.mutant("M", SUBTRACTS, [0])], constant=0.3)
    assert (event.path, event.fallback) == ("swap", None), event


def test_a_test_after_the_one_that_started_the_mutated_code_in_its_process_is_trusted(host):
    """As a fixture shared by several tests runs the code in the first of them only."""
    run = host(
        ADDS
        + """

import os


def test_adds_on_its_first_run_only():
    if not os.path.exists("added"):
        open("added", "w").close()
        assert calc.add(1, 2) == 3
"""
    )
    (event,) = run.run([run.mutant("M", SWAPS_OPERANDS, [0, 1])])
    assert (event.path, event.fallback, event.outcomes) == ("swap", None, {0: "passed", 1: "passed"})


def test_the_mutated_code_must_start_again_in_each_process_a_resumed_mutant_runs(host):
    """The first process started it in `test_adds`; the second, resumed after `test_hangs_once_more`,
    never did, although `test_adds_on_its_first_run_only` reached it in the baseline."""
    run = host(
        ADDS
        + """

import os
import signal
import time


def test_hangs_once_more():
    if os.path.exists("hung"):
        return
    if os.path.exists("ran"):
        open("hung", "w").close()
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        time.sleep(30)
    open("ran", "w").close()


def test_adds_on_its_first_run_only():
    if not os.path.exists("added"):
        open("added", "w").close()
        assert calc.add(1, 2) == 3
"""
    )
    (event,) = run.run([run.mutant("M", SWAPS_OPERANDS, [0, 1, 2])], constant=0.2)
    assert (event.path, event.fallback) == (
        "fallback",
        {"reason": "no-evidence", "test": run.nodeid(2), "where": "copy"},
    )
    assert event.outcomes == {0: "passed", 1: "passed", 2: "passed"}


# -- the mutants: time-outs, crashes, limits -----------------------------------------------------


def test_after_a_time_out_the_tests_the_hung_one_kept_from_running_run_in_a_new_process(host):
    run = host(ADDS_AND_MORE)
    started = time.monotonic()
    (event,) = run.run([run.mutant("M", HANGS, [0, 1])], constant=0.3)
    assert (event.path, event.timed_out, event.outcomes) == ("swap", True, {0: "timeout", 1: "passed"})
    # from its first process's start: that one alone ran for its whole budget (two limits and one more)
    assert 0.9 <= event.seconds <= time.monotonic() - started
    assert list(run.scheduler.controls.finished) == [(0,)]  # what the hung process ran, not what it was given


def test_a_mutant_is_resumed_twice_at_most(host):
    run = host(ADDS + "".join(f"\n\ndef test_adds_{n}():\n    assert calc.add(1, 2) == 3\n" for n in range(3)))
    (event,) = run.run([run.mutant("M", HANGS, [0, 1, 2, 3])], constant=0.2)
    assert event.outcomes == {0: "timeout", 1: "timeout", 2: "timeout", 3: "not-run"}


def test_with_bail_a_mutant_is_not_resumed_after_a_time_out(host):
    run = host(ADDS_AND_MORE, bail=True)
    (event,) = run.run([run.mutant("M", HANGS, [0, 1])], constant=0.3)
    assert (event.timed_out, event.outcomes) == (True, {0: "timeout", 1: "not-run"})


def test_after_a_crash_the_test_it_died_in_failed_and_the_tests_after_it_run_in_a_new_process(host):
    run = host(ADDS_AND_MORE)
    (event,) = run.run([run.mutant("M", CRASHES, [0, 1])])
    assert (event.timed_out, event.broken, event.outcomes) == (False, None, {0: "failed", 1: "passed"})
    assert event.witnesses == {0: "SIGKILL (Killed): the test process died in this test"}


HOLDS_THE_PIPE = """
    if os.fork() == 0:  # keeps the test process's pipe open, as a test's leftover process may
        time.sleep(30)
        os._exit(0)
"""


def test_a_broken_mutant_is_not_resumed_after_a_time_out(host):
    run = host(ADDS_AND_MORE)
    breaks = TARGET.replace("    return a + b", HOLDS_THE_PIPE.rstrip("\n")[1:] + "\n    raise KeyboardInterrupt")
    (event,) = run.run([run.mutant("M", breaks, [0, 1])], constant=0.3)
    assert (event.timed_out, event.broken) == (True, "KeyboardInterrupt")
    assert event.outcomes == {0: "timeout", 1: "not-run"}


def test_a_process_that_said_it_is_done_is_finished_though_a_process_it_left_holds_its_pipe(host):
    run = host(ADDS)
    leaves = TARGET.replace("    return a + b", HOLDS_THE_PIPE.rstrip("\n")[1:] + "\n    return a + b")
    started = time.monotonic()
    (event,) = run.run([run.mutant("M", leaves, [0])], constant=5.0)
    assert (event.timed_out, event.outcomes) == (False, {0: "passed"})
    assert time.monotonic() - started < 5.0  # well before its budget of 15 seconds


def test_each_test_s_limit_comes_from_its_own_baseline_duration(host):
    run = host(ADDS + "\n\ndef test_adds_again():\n    assert calc.add(2, 2) == 4\n")
    (event,) = run.run([run.mutant("M", SLOW, [0, 1])], durations=[10.0, 0.0], constant=0.2)
    assert (event.timed_out, event.outcomes) == (False, {0: "passed", 1: "timeout"})


# -- the mutants: controls, confirmation, order --------------------------------------------------


def test_an_order_dependent_failure_that_the_suite_s_order_confirms_is_a_kill_with_that_run_s_witness(host):
    run = host(ORDERED)  # `test_needs_preparing` fails alone, mutated or not
    (event,) = run.run([run.mutant("M", SUBTRACTS, [1])])
    assert event.outcomes == {1: "failed"}
    assert event.witnesses == {1: "AssertionError: assert -1 == 3"}


def test_an_order_dependent_failure_that_passes_in_the_suite_s_order_stays_order_dependent(host):
    run = host(ORDERED)
    (event,) = run.run([run.mutant("M", SWAPS_OPERANDS, [1])])
    assert (event.outcomes, event.witnesses) == ({1: "order-dependent"}, {})


def test_a_finished_mutant_s_missing_control_waits_for_a_mutant_yet_to_run_that_needs_a_longer_one(host):
    run = host(
        ADDS
        + """

def test_subtracts():
    assert calc.sub(3, 1) == 2


def test_adds_nothing():
    pass
"""
    )
    fails_first = run.mutant("A", SUBTRACTS, [0, 1])  # needs (0, 1)
    fails_second = run.mutant("S", TARGET.replace("a - b", "a + b"), [0, 1, 2], innermost="sub")  # (0, 1, 2)
    added, subtracted = run.run([fails_first, fails_second])
    assert added.outcomes == {0: "failed", 1: "passed"}
    assert subtracted.outcomes == {0: "passed", 1: "failed", 2: "passed"}
    assert list(run.scheduler.controls.finished) == [(0, 1, 2)]  # one control answered both


def test_a_finished_mutant_s_missing_control_waits_for_a_running_mutant_that_needs_a_longer_one(host):
    run = host(
        ADDS
        + """

def test_subtracts():
    assert calc.sub(3, 1) == 2


def test_adds_nothing():
    pass
""",
        jobs=2,
    )
    fails_first = run.mutant("A", SUBTRACTS, [0, 1])  # needs (0, 1), and finishes first
    slow_sub = TARGET.replace("    return a - b", "    time.sleep(0.5)\n    return a + b")
    fails_second = run.mutant("S", slow_sub, [0, 1, 2], innermost="sub")  # needs (0, 1, 2)
    added, subtracted = run.run([fails_first, fails_second])
    assert (added.outcomes[0], subtracted.outcomes[1]) == ("failed", "failed")
    assert list(run.scheduler.controls.finished) == [(0, 1, 2)]


def test_a_queued_control_starts_before_the_next_mutant(host):
    """So a finished mutant is reported without waiting for the mutants after it."""
    run = host(ADDS_AND_MORE, jobs=1)
    first, second = run.run([run.mutant("A", SUBTRACTS, [0, 1]), run.mutant("B", SUBTRACTS, [1])])
    assert (first.id, second.id) == ("A", "B")


def test_no_more_mutants_run_at_once_than_there_are_jobs(host):
    run = host(ADDS, jobs=2)
    records = TARGET.replace(
        "    return a + b",
        "    started = time.monotonic()\n    time.sleep(0.3)\n"
        "    with open('intervals', 'a') as log:\n        log.write(f'{started} {time.monotonic()}\\n')\n"
        "    return a + b",
    )
    run.run([run.mutant(name, records, [0]) for name in "ABC"])
    lines = (Path(run.spec.project) / "intervals").read_text().splitlines()
    intervals = [tuple(map(float, line.split())) for line in lines]
    at_once = [sum(start <= moment < end for start, end in intervals) for moment, _ in intervals]
    assert max(at_once) == 2


def test_confirmations_in_the_suite_s_order_run_no_more_at_once_than_there_are_jobs(host):
    """Mutants of one function share their control run, so they are released, and confirmed, together."""
    run = host(ORDERED, jobs=1)  # `test_needs_preparing` fails alone: every mutant is confirmed with `test_prepares`
    records = TARGET.replace(
        "    return a + b",
        "    started = time.monotonic()\n    time.sleep(0.2)\n"
        "    with open('intervals', 'a') as log:\n        log.write(f'{started} {time.monotonic()}\\n')\n"
        "    return a - b",
    )
    events = run.run([run.mutant(name, records, [1]) for name in "ABCD"])
    assert [event.outcomes for event in events] == [{1: "failed"}] * 4  # the suite's order confirmed each kill
    lines = (Path(run.spec.project) / "intervals").read_text().splitlines()
    intervals = [tuple(map(float, line.split())) for line in lines]
    assert len(intervals) == 8  # each mutant alone, then in the suite's order
    at_once = [sum(start <= moment < end for start, end in intervals) for moment, _ in intervals]
    assert max(at_once) == 1


def test_once_the_engine_is_gone_the_running_mutants_are_stopped_and_no_other_starts(host):
    """Nor is a stopped one resumed with the tests it did not run."""
    run = host(ADDS + "\n\ndef test_adds_again():\n    assert calc.add(2, 2) == 4\n", jobs=1)
    run.scheduler.parent = -1  # not this process's parent: the engine that started the host has ended
    waits = TARGET.replace("    return a + b", "    time.sleep(30)")
    started = time.monotonic()
    run.run([run.mutant("A", waits, [0, 1]), run.mutant("B", waits, [0, 1])], constant=60.0)
    assert time.monotonic() - started < 10.0
    assert [mutant["id"] for mutant in run.scheduler.pending] == ["B"]
    assert [(child.mutant["id"], child.timed_out) for child in run.scheduler.controls.waiting] == [("A", True)]
