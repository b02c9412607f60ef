"""The engine's pytest host: collect once in a scratch copy, run the baseline, fork one child per
mutant with the mutated code swapped in, stream outcomes back as JSON lines.

Started by the engine as `python -m mutcheck.host SPEC.json`; never imported by the CLI process.
"""

import gc
import json
import os
import re
import select
import selectors
import shutil
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any, TextIO

import pytest

from mutcheck.clock import Stopwatch
from mutcheck.imports import Relocation, redirect_imports
from mutcheck.lab import PREFIX, make_folder
from mutcheck.outcome import DETECTING, NOT_RUN, ORDER_DEPENDENT, PASSED, SKIPPED, TIMEOUT
from mutcheck.plan import test_limit, time_limit
from mutcheck.protocol import TestResult, TestTimeout, logged_failures, run_item
from mutcheck.pytest_compat import rewrite_only_the_suite
from mutcheck.reach import Reach
from mutcheck.scratch import remove_bytecode
from mutcheck.swap import find_code, live_function
from mutcheck.warm import warm_caches

WITNESSES_PER_MUTANT = 2
RESUMES_PER_MUTANT = 2  # new children after time-outs, so a mutant that hangs every test stays bounded
STARTED = time.monotonic()
_ERROR_LINE = re.compile(r"^(?:E\s+)?(\w*(?:Error|Exception)\b.*)$")


class EventWriter:
    """JSON lines to one file descriptor, each written whole."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, event: dict[str, Any]) -> None:
        data = (json.dumps(event) + "\n").encode()
        while data:
            data = data[os.write(self.fd, data) :]


def _last_error(lines: list[str]) -> str | None:
    """The last line that names an error (e.g. `E   NameError: ...` in a pytest report)."""
    errors = [match.group(1) for line in lines if (match := _ERROR_LINE.match(line))]
    return errors[-1] if errors else None


def _log_lines(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []


def modules_by_file(files: list[str]) -> dict[str, ModuleType]:
    """The imported modules loaded from `files` (resolved paths), found once before forking."""
    wanted = {str(Path(name).resolve()) for name in files}
    found = {}
    for module in list(sys.modules.values()):
        filename = getattr(module, "__file__", None)
        if filename and (resolved := os.path.realpath(filename)) in wanted:
            found[resolved] = module
    return found


def _mutated_function_code(mutant: dict[str, Any]) -> CodeType | None:
    """The swap target's code in the mutated file, compiled by the host before it forks: in a
    child the compile costs twice as much (its allocations fault in copy-on-write pages)."""
    code = compile(mutant["mutated"], str(Path(mutant["file"]).resolve()), "exec")
    return find_code(code, mutant["swap_target"])


def _swap_in(mutant: dict[str, Any], mutated_code: CodeType | None, modules: dict[str, ModuleType]) -> None:
    """Replace the live function's code with the mutated one; every reference sees the change."""
    module = modules.get(str(Path(mutant["file"]).resolve()))
    function = live_function(module, mutant["swap_target"]) if module else None
    if function is None or mutated_code is None:
        raise RuntimeError(f"{mutant['swap_target']} is not loaded from {mutant['file']}")
    function.__code__ = mutated_code


class _Alarm:
    """Interrupts the running test once it has been charged its limit (see `clock`): SIGALRM fires
    at the limit by the wall clock and, if the test was kept waiting for a CPU meanwhile, is set
    again for what it is still owed. Armed only while a test's phases run."""

    def __init__(self) -> None:
        self.limit: float | None = None
        self.stopwatch = Stopwatch()

    def arm(self, limit: float) -> None:
        self.stopwatch, self.limit = Stopwatch(), limit
        signal.setitimer(signal.ITIMER_REAL, limit)

    def disarm(self) -> None:
        self.limit = None
        signal.setitimer(signal.ITIMER_REAL, 0)

    def __call__(self, _signal: int, _frame: object) -> None:
        if self.limit is None:
            return
        owed = self.limit - self.stopwatch.elapsed()
        if owed > 0.01:
            signal.setitimer(signal.ITIMER_REAL, owed)
            return
        signal.setitimer(signal.ITIMER_REAL, 0.25)  # again, should the test swallow this one
        raise TestTimeout("the test outlived its time limit under this mutant")


def run_tests(
    items: list[pytest.Item], selected: list[int], events: EventWriter, bail: bool, limits: list[float]
) -> None:
    """Run `selected` items in order, one event per test, stopping at the first failure if `bail`.

    A test charged more than its limit (seconds, one per selected test) is interrupted and
    recorded as a timeout; the tests after it still run.
    """
    witnesses = 0
    alarm = _Alarm()
    signal.signal(signal.SIGALRM, alarm)
    for position, index in enumerate(selected):
        nextitem = items[selected[position + 1]] if position + 1 < len(selected) else None
        events.write({"test": index, "running": True})
        alarm.arm(limits[position])
        try:
            want_witness = witnesses < WITNESSES_PER_MUTANT
            result = run_item(items[index], nextitem, want_witness=want_witness, phases_done=alarm.disarm)
        except TestTimeout:  # raised outside pytest's own catch (e.g. in a report hook)
            result = TestResult(TIMEOUT, limits[position], None)
        finally:
            alarm.disarm()
        witnesses += result.witness is not None
        events.write({"test": index, "outcome": result.outcome, "duration": result.duration, "witness": result.witness})
        if bail and result.outcome not in (PASSED, "skipped"):
            break
    events.write({"done": True})


def _read_ready(fd: int) -> bytes:
    """Whatever is already waiting in a pipe, without blocking."""
    ready, _, _ = select.select([fd], [], [], 0)
    return os.read(fd, 65536) if ready else b""


def _baseline_chunk(items: list[pytest.Item], chunk: list[int], target_files: set[str] | None) -> list[dict[str, Any]]:
    reach = Reach(target_files) if target_files is not None else None
    results = []
    for position, index in enumerate(chunk):
        nextitem = items[chunk[position + 1]] if position + 1 < len(chunk) else None
        if reach:
            reach.start_test()
        result = run_item(items[index], nextitem)
        event = {"test": index, "outcome": result.outcome, "duration": result.duration, "witness": result.witness}
        if reach:
            event["covered"] = reach.stop_test()
        results.append(event)
    return results


@dataclass
class _Child:
    """One running mutant (a forked child or a fallback subprocess) or control run, and what it
    has said so far."""

    mutant: dict[str, Any] | None  # None: a control run, the same tests unmutated
    selected: list[int]  # the tests this process runs, in order (a continuation runs fewer)
    pid: int
    read_fd: int
    budget: float  # charged seconds it may take (see `clock`) before it is stopped
    stopwatch: Stopwatch
    started: float
    process: subprocess.Popen | None = None
    scratch: str | None = None
    buffer: bytes = b""
    outcomes: dict[int, str] = field(default_factory=dict)
    durations: dict[int, float] = field(default_factory=dict)
    witnesses: dict[int, str] = field(default_factory=dict)
    running: int | None = None
    broken: str | None = None
    finished: bool = False
    timed_out: bool = False
    resumes: int = 0
    sequences: list[list[int]] = field(default_factory=list)  # what each of its processes ran, in order
    seconds: float = 0.0  # from its start to its last process's end

    def overdue(self) -> float:
        """Charged seconds past its budget (negative while within it). Until the wall clock
        passes the budget the charged time cannot have, and the cheap wall figure is enough."""
        wall = self.stopwatch.wall_elapsed() - self.budget
        return wall if wall < 0 else self.stopwatch.elapsed() - self.budget


class Host:
    def __init__(self, spec: dict[str, Any], session: pytest.Session) -> None:
        self.spec = spec
        self.items: list[pytest.Item] = list(session.items)
        self.events = EventWriter(spec["events_fd"])
        self.parent = os.getppid()
        self.modules: dict[str, ModuleType] = {}
        self.durations: list[float] = []  # per test, from the baseline: time limits for any subset
        self.timeout_factor = 0.0
        self.timeout_constant = 0.0
        self.startup_seconds = time.monotonic() - STARTED  # interpreter start to collected suite
        self.controls: dict[tuple[int, ...], dict[int, str]] = {}  # unmutated runs, by their order
        self.control_queue: list[tuple[int, ...]] = []
        self.waiting: list[_Child] = []  # finished mutants whose controls are not all in
        self.pending: list[dict[str, Any]] = []  # mutants not started yet
        self.control_runs = self.control_tests = 0

    # -- forking -----------------------------------------------------------------------------
    def _fork(self, body: Any) -> tuple[int, int]:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            os.close(read_fd)
            code = 0
            try:
                body(EventWriter(write_fd))
            except BaseException:  # report anything, then leave without running parent cleanup
                EventWriter(write_fd).write({"broken": traceback.format_exc().strip().splitlines()[-1]})
                code = 1
            finally:
                os._exit(code)
        os.close(write_fd)
        return pid, read_fd

    def _read_all(self, children: list[tuple[int, int]]) -> list[dict[str, Any]]:
        """Every event of the given children, read as they arrive so no child blocks on a full pipe."""
        chunks: dict[int, list[bytes]] = {read_fd: [] for _, read_fd in children}
        with selectors.DefaultSelector() as selector:
            for _, read_fd in children:
                selector.register(read_fd, selectors.EVENT_READ)
            while selector.get_map():
                for key, _mask in selector.select():
                    if chunk := os.read(key.fd, 65536):
                        chunks[key.fd].append(chunk)
                    else:
                        selector.unregister(key.fd)
                        os.close(key.fd)
        for pid, _ in children:
            os.waitpid(pid, 0)
        data = b"".join(b"".join(parts) + b"\n" for parts in chunks.values())
        return [json.loads(line) for line in data.splitlines() if line.strip()]

    # -- baseline ----------------------------------------------------------------------------
    def baseline(self) -> None:
        """Each round in fresh forks, the tests dealt round-robin to one child per worker (the
        mutant phase runs subsets anyway). A round in which some test fails is run again whole,
        in pytest's order, in one child: the suite must pass as pytest runs it, not as we split it."""
        target_files = {str(Path(name).resolve()) for name in self.spec["target_files"]}
        jobs = max(1, min(self.spec["jobs"], len(self.items)))
        chunks = [list(range(start, len(self.items), jobs)) for start in range(jobs)]
        for round_number in range(1, self.spec["baseline_rounds"] + 1):
            coverage = target_files if round_number == 1 else None
            results = self._baseline_round(chunks, coverage)
            split_failures = [result["test"] for result in results if result["outcome"] not in (PASSED, SKIPPED)]
            if len(chunks) > 1 and split_failures:
                results = self._baseline_round([list(range(len(self.items)))], coverage)
            # Failed only as the workers split the suite: they depend on the tests before them.
            order_dependent = [index for index in split_failures if results[index]["outcome"] in (PASSED, SKIPPED)]
            self.events.write(
                {
                    "event": "baseline",
                    "round": round_number,
                    "results": results,
                    "order_dependent": order_dependent,
                    "at": time.monotonic(),
                }
            )

    def _baseline_round(self, chunks: list[list[int]], coverage: set[str] | None) -> list[dict[str, Any]]:
        children = []
        for chunk in chunks:

            def body(events: EventWriter, chunk: list[int] = chunk, coverage: set[str] | None = coverage) -> None:
                for result in _baseline_chunk(self.items, chunk, coverage):
                    events.write(result)

            children.append(self._fork(body))
        return self._complete(self._read_all(children))

    def _complete(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One result per test, in order; a test whose process died before reporting it is an error."""
        by_test = {event["test"]: event for event in events if "test" in event}
        died = next((event["broken"] for event in events if "broken" in event), "the test process died")
        return [
            by_test.get(index, {"test": index, "outcome": "error", "duration": 0.0, "witness": died})
            for index in range(len(self.items))
        ]

    # -- mutants -----------------------------------------------------------------------------
    def _limits(self, selected: list[int]) -> list[float]:
        return [test_limit(self.durations[index], self.timeout_factor, self.timeout_constant) for index in selected]

    def _start(self, mutant: dict[str, Any], selected: list[int], carried: _Child | None = None) -> _Child:
        """A process running `selected` under the mutant; `carried` is what an earlier one recorded."""
        now = time.monotonic()
        budget = time_limit(selected, self.durations, self.timeout_factor, self.timeout_constant)
        if mutant["swap_target"] is not None:
            mutated_code = _mutated_function_code(mutant)

            def body(events: EventWriter) -> None:
                _swap_in(mutant, mutated_code, self.modules)
                run_tests(self.items, selected, events, self.spec["bail"], self._limits(selected))

            pid, read_fd = self._fork(body)
            child = _Child(mutant, selected, pid, read_fd, budget, Stopwatch(pid), now)
        else:
            # A fresh host must start and collect before its tests run: allow twice what ours took.
            child = self._start_fallback(mutant, selected, budget + 2 * self.startup_seconds, now)
        child.sequences = [selected]
        if carried is not None:
            child.started, child.timed_out, child.resumes = carried.started, carried.timed_out, carried.resumes + 1
            child.outcomes, child.durations, child.witnesses = carried.outcomes, carried.durations, carried.witnesses
            child.sequences = [*carried.sequences, selected]
        return child

    def _start_control(self, sequence: tuple[int, ...]) -> _Child:
        """The tests of `sequence`, in that order, unmutated: which of them fail without a mutant."""
        tests = list(sequence)

        def body(events: EventWriter) -> None:
            run_tests(self.items, tests, events, False, self._limits(tests))

        pid, read_fd = self._fork(body)
        self.control_runs, self.control_tests = self.control_runs + 1, self.control_tests + len(tests)
        budget = time_limit(tests, self.durations, self.timeout_factor, self.timeout_constant)
        return _Child(None, tests, pid, read_fd, budget, Stopwatch(pid), time.monotonic())

    def _start_fallback(self, mutant: dict[str, Any], selected: list[int], budget: float, now: float) -> _Child:
        """A scratch copy of the scratch copy with the mutated file written, run by a fresh host."""
        scratch = str(make_folder(f"{PREFIX}{mutant['id']}-"))
        project = Path(scratch) / "project"
        shutil.copytree(Path.cwd(), project, symlinks=True)
        (project / mutant["file"]).write_text(mutant["mutated"], encoding=mutant.get("encoding", "utf-8"))
        remove_bytecode(project / mutant["file"])
        roots = [*map(Path, self.spec["project_roots"]), Path.cwd()]  # its imports move on to its own copy
        read_fd, write_fd = os.pipe()
        spec = {
            "mode": "tests",
            "events_fd": write_fd,
            "bail": self.spec["bail"],
            "tests": [self.items[index].nodeid for index in selected],
            "limits": self._limits(selected),
            "pytest_args": self.spec["pytest_args"],
            "project_roots": [str(root) for root in roots],
        }
        spec_path = Path(scratch) / "spec.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        with (Path(scratch) / "host.log").open("w", encoding="utf-8") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "mutcheck.host", str(spec_path)],
                cwd=project,
                pass_fds=[write_fd],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**Relocation(roots, project).environment(os.environ), "PYTHONDONTWRITEBYTECODE": "1"},
            )
        os.close(write_fd)
        stopwatch = Stopwatch(process.pid)
        return _Child(mutant, selected, process.pid, read_fd, budget, stopwatch, now, process=process, scratch=scratch)

    def _absorb(self, child: _Child, data: bytes) -> None:
        child.buffer += data
        *lines, child.buffer = child.buffer.split(b"\n")
        for line in lines:
            if not line.strip():
                continue
            event = json.loads(line)
            if "broken" in event:
                child.broken = event["broken"]
            elif event.get("done"):
                child.finished = True
            elif event.get("running"):
                index = event["test"]
                child.running = child.selected[index] if child.process is not None else index
            elif "outcome" in event:
                index = event.get("test")
                if child.process is not None:  # a fallback host numbers its own tests
                    index = child.selected[index]
                child.outcomes[index] = event["outcome"]
                child.durations[index] = event["duration"]
                if event.get("witness"):
                    child.witnesses[index] = event["witness"]
                child.running = None

    def _reap(self, child: _Child, timed_out: bool) -> None:
        """Stop (if it timed out) and wait for a child; note how it ended."""
        if timed_out:
            if child.process is not None:
                os.killpg(child.pid, signal.SIGKILL)
            else:
                os.kill(child.pid, signal.SIGKILL)
            child.timed_out = True
            # Hung in a test, or between two (then the one it was about to run is blamed): either
            # way a test's outcome says so, and the matrix never has a time-out without a test.
            pending = [index for index in child.selected if index not in child.outcomes]
            blamed = child.running if child.running is not None else next(iter(pending), None)
            if blamed is not None:
                child.outcomes[blamed] = TIMEOUT
        os.close(child.read_fd)
        if child.process is not None:
            status = child.process.wait()
            if not (timed_out or child.finished or child.broken):
                child.broken = (
                    _last_error(_log_lines(Path(child.scratch) / "host.log")) or f"test process exited with {status}"
                )
            shutil.rmtree(child.scratch, ignore_errors=True)
        else:
            _, status = os.waitpid(child.pid, 0)
            if not (timed_out or child.finished or child.broken):
                child.broken = f"test process ended early (wait status {status})"

    def _finish(self, child: _Child, timed_out: bool) -> _Child | None:
        """Keep a control's outcomes; set a mutant aside for its controls or, after a time-out, go
        on with the tests the hung one kept from running: a full matrix should not depend on where
        a hanging test sits in the order."""
        self._reap(child, timed_out)
        if child.mutant is None:
            self.controls[tuple(child.selected)] = child.outcomes
            return None
        remaining = [index for index in child.selected if index not in child.outcomes]
        stop = self.spec["bail"] or child.broken or child.resumes >= RESUMES_PER_MUTANT or os.getppid() != self.parent
        child.sequences[-1] = [index for index in child.selected if index in child.outcomes]  # what it ran
        if timed_out and remaining and not stop:
            return self._start(child.mutant, remaining, carried=child)
        child.seconds = time.monotonic() - child.started  # its controls may keep it waiting
        self.waiting.append(child)
        return None

    # -- controls: a failure is a kill only if the same tests, in the same order, pass unmutated --
    @staticmethod
    def _control_needs(child: _Child) -> list[tuple[int, ...]]:
        """Per process of the mutant, the tests it ran up to its last failing one and the test
        after that (which decides what the failing one's teardown finalizes)."""
        needs = []
        for sequence in child.sequences:
            failing = [position for position, index in enumerate(sequence) if child.outcomes.get(index) in DETECTING]
            if failing:
                needs.append(tuple(sequence[: failing[-1] + 2]))
        return needs

    def _control_for(self, sequence: tuple[int, ...]) -> dict[int, str] | None:
        """The outcomes of a control run that began with `sequence` (tests after it cannot change
        how the ones before its last ran), if one has finished."""
        return next((outcomes for key, outcomes in self.controls.items() if key[: len(sequence)] == sequence), None)

    def _release(self, running: dict[int, _Child]) -> None:
        """Report every waiting mutant whose controls are all in; queue the controls still missing.

        A missing control waits while a mutant yet to run, or running, could need a longer one
        that starts the same way (mutants of one function share their selection): one run then
        answers them all. Once every mutant has finished, nothing waits."""
        needs = {need for child in self.waiting for need in self._control_needs(child)}
        missing = {need for need in needs if self._control_for(need) is None}
        covered = [tuple(child.selected) for child in running.values() if child.mutant is None] + self.control_queue
        unfinished = [mutant["selected"] for mutant in self.pending]
        unfinished += [child.mutant["selected"] for child in running.values() if child.mutant is not None]
        for need in sorted(missing, key=len, reverse=True):  # the longest first: they cover the rest
            if any(tuple(sequence[: len(need)]) == need for sequence in [*covered, *unfinished]):
                continue
            self.control_queue.append(need)
            covered.append(need)
        for child in list(self.waiting):
            if any(self._control_for(need) is None for need in self._control_needs(child)):
                continue
            self.waiting.remove(child)
            for need in self._control_needs(child):
                control = self._control_for(need)
                for index in need:
                    if child.outcomes.get(index) in DETECTING and control.get(index, PASSED) not in (PASSED, SKIPPED):
                        child.outcomes[index] = ORDER_DEPENDENT
                        child.witnesses.pop(index, None)
            self._report(child)

    def _report(self, child: _Child) -> None:
        outcomes = {str(index): NOT_RUN for index in child.mutant["selected"]}
        outcomes.update({str(index): outcome for index, outcome in child.outcomes.items()})
        self.events.write(
            {
                "event": "mutant",
                "id": child.mutant["id"],
                "path": "swap" if child.process is None else "fallback",
                "timed_out": child.timed_out,
                "broken": child.broken,
                "outcomes": outcomes,
                "durations": {str(index): duration for index, duration in child.durations.items()},
                "witnesses": {str(index): witness for index, witness in child.witnesses.items()},
                "seconds": child.seconds,
            }
        )

    def mutants(self) -> None:
        self.pending = pending = list(self.spec["mutants"])
        running: dict[int, _Child] = {}
        selector = selectors.DefaultSelector()

        def track(child: _Child | None) -> None:
            if child is not None:
                running[child.read_fd] = child
                selector.register(child.read_fd, selectors.EVENT_READ)

        def finish(fd: int, timed_out: bool) -> None:
            selector.unregister(fd)
            track(self._finish(running.pop(fd), timed_out))
            self._release(running)

        while pending or running or self.control_queue:
            while (self.control_queue or pending) and len(running) < self.spec["jobs"]:
                if self.control_queue:  # first, so that finished mutants do not wait long
                    track(self._start_control(self.control_queue.pop(0)))
                else:
                    mutant = pending.pop(0)
                    track(self._start(mutant, mutant["selected"]))
            if os.getppid() != self.parent:  # the engine is gone: nobody reads our results
                for fd in list(running):
                    finish(fd, timed_out=True)
                return
            timeout = max(0.0, -max(child.overdue() for child in running.values()))
            for key, _mask in selector.select(timeout=min(timeout, 1.0)):
                if key.fd not in running:
                    continue
                data = os.read(key.fd, 65536)
                if data:
                    self._absorb(running[key.fd], data)
                else:
                    finish(key.fd, timed_out=False)
            for fd, child in list(running.items()):
                if child.finished:  # said "done": its results are complete, whatever else holds the pipe
                    finish(fd, timed_out=False)
                elif child.overdue() >= 0:
                    while chunk := _read_ready(fd):  # what it said before the deadline still counts
                        self._absorb(child, chunk)
                    finish(fd, timed_out=not child.finished)


class HostPlugin:
    """Takes over pytest's run loop once collection is done."""

    def __init__(self, spec: dict[str, Any], answers: TextIO | None) -> None:
        self.spec = spec
        self.answers = answers  # the engine's stdin, taken before pytest captures it
        self.collection_errors: list[str] = []
        self.reached_run_loop = False
        self.collection_started = time.monotonic()

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self) -> None:
        self.collection_started = time.monotonic()

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            lines = [line for line in report.longreprtext.splitlines() if line.strip()]
            reason = _last_error(lines) or (lines or ["failed"])[-1]
            self.collection_errors.append(f"{report.nodeid or 'collection'}: {reason}")

    def collection_failure(self, fallback: str) -> dict[str, str]:
        return {"event": "collection-error", "broken": "; ".join(self.collection_errors) or fallback}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        events = EventWriter(self.spec["events_fd"])
        self.reached_run_loop = True
        if session.testsfailed or self.collection_errors:
            events.write(self.collection_failure(f"{session.testsfailed} collection error(s)"))
            return True
        if self.spec["mode"] == "tests":
            run_tests(
                list(session.items), list(range(len(session.items))), events, self.spec["bail"], self.spec["limits"]
            )
            return True
        # Moments on the system's monotonic clock, which the engine's process shares.
        moments = {"collection_started": self.collection_started, "collected": time.monotonic()}
        events.write({"event": "collected", "tests": [item.nodeid for item in session.items], **moments})
        host = Host(self.spec, session)
        warm_caches(getattr(item, "obj", None) for item in session.items)  # the baseline's children too
        logged_failures(session.config)
        host.baseline()
        ready = json.loads(self.answers.readline())  # the engine answers with the plan
        host.spec["mutants"] = ready["mutants"]
        host.durations = ready["durations"]
        host.timeout_factor, host.timeout_constant = ready["timeout_factor"], ready["timeout_constant"]
        # Children inherit the host's heap copy-on-write; a frozen heap is not walked (and so not
        # copied page by page) by each child's garbage collector.
        gc.freeze()
        host.modules = modules_by_file(self.spec["target_files"])
        for mutant in host.spec["mutants"]:
            if str(Path(mutant["file"]).resolve()) not in host.modules:
                mutant["swap_target"] = None  # imported only inside tests: a scratch copy runs it
        host.mutants()
        events.write({"event": "done", "controls": {"runs": host.control_runs, "tests": host.control_tests}})
        return True


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    sys.dont_write_bytecode = True
    rewrite_only_the_suite()
    redirect_imports([Path(root) for root in spec["project_roots"]], Path.cwd())
    args = [*spec.get("tests", spec.get("test_paths", [])), *spec["pytest_args"]]
    # No terminal reporter: nothing reads it, and plugins skip their summary work without it.
    args += ["-p", "no:cacheprovider", "-p", "no:terminal"]
    answers = os.fdopen(os.dup(0), "r", encoding="utf-8") if spec["mode"] == "full" else None
    plugin = HostPlugin(spec, answers)
    code = pytest.main(args, plugins=[plugin])
    if not plugin.reached_run_loop:  # e.g. a test id that no longer collects because its module fails
        EventWriter(spec["events_fd"]).write(plugin.collection_failure(f"pytest stopped before running: {code!r}"))


if __name__ == "__main__":
    main()
