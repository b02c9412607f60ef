"""The host's two phases: baseline rounds in forked children, then the mutant phase, one child per
mutant or control run, as many at once as there are workers, each resumed after a time-out and
reported once its controls are in."""

import os
import selectors
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mutcheck.batches import baseline_chunk, run_tests
from mutcheck.children import Child, absorb, fork, read_all, read_ready, reap, start_fallback
from mutcheck.clock import Stopwatch
from mutcheck.controls import Controls
from mutcheck.events import EventWriter
from mutcheck.outcome import NOT_RUN, PASSED, SKIPPED
from mutcheck.plan import test_limit, time_limit
from mutcheck.swap import mutated_function_code, swap_in

RESUMES_PER_MUTANT = 2  # new children after time-outs, so a mutant that hangs every test stays bounded


class Scheduler:
    def __init__(self, spec: dict[str, Any], session: pytest.Session, startup_seconds: float) -> None:
        self.spec = spec
        self.items: list[pytest.Item] = list(session.items)
        self.events = EventWriter(spec["events_fd"])
        self.parent = os.getppid()
        self.modules: dict[str, ModuleType] = {}
        self.durations: list[float] = []  # per test, from the baseline: time limits for any subset
        self.timeout_factor = 0.0
        self.timeout_constant = 0.0
        self.startup_seconds = startup_seconds  # interpreter start to collected suite
        self.controls = Controls()
        self.pending: list[dict[str, Any]] = []  # mutants not started yet

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
                for result in baseline_chunk(self.items, chunk, coverage):
                    events.write(result)

            children.append(fork(body))
        return self._complete(read_all(children))

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

    def _start(self, mutant: dict[str, Any], selected: list[int], carried: Child | None = None) -> Child:
        """A process running `selected` under the mutant; `carried` is what an earlier one recorded."""
        now = time.monotonic()
        budget = time_limit(selected, self.durations, self.timeout_factor, self.timeout_constant)
        if mutant["swap_target"] is not None:
            mutated_code = mutated_function_code(mutant)

            def body(events: EventWriter) -> None:
                swap_in(mutant, mutated_code, self.modules)
                run_tests(self.items, selected, events, self.spec["bail"], self._limits(selected))

            pid, read_fd = fork(body)
            child = Child(mutant, selected, pid, read_fd, budget, Stopwatch(pid), now)
        else:
            tests = [self.items[index].nodeid for index in selected]
            process, read_fd, scratch = start_fallback(self.spec, mutant, tests, self._limits(selected))
            # A fresh host must start and collect before its tests run: allow twice what ours took.
            budget += 2 * self.startup_seconds
            stopwatch = Stopwatch(process.pid)
            child = Child(mutant, selected, process.pid, read_fd, budget, stopwatch, now, process, scratch)
        child.sequences = [selected]
        if carried is not None:
            child.started, child.timed_out, child.resumes = carried.started, carried.timed_out, carried.resumes + 1
            child.outcomes, child.durations, child.witnesses = carried.outcomes, carried.durations, carried.witnesses
            child.sequences = [*carried.sequences, selected]
        return child

    def _start_control(self, sequence: tuple[int, ...]) -> Child:
        """The tests of `sequence`, in that order, unmutated: which of them fail without a mutant."""
        tests = list(sequence)

        def body(events: EventWriter) -> None:
            run_tests(self.items, tests, events, False, self._limits(tests))

        pid, read_fd = fork(body)
        self.controls.runs, self.controls.tests = self.controls.runs + 1, self.controls.tests + len(tests)
        budget = time_limit(tests, self.durations, self.timeout_factor, self.timeout_constant)
        return Child(None, tests, pid, read_fd, budget, Stopwatch(pid), time.monotonic())

    def _finish(self, child: Child, timed_out: bool) -> Child | None:
        """Keep a control's outcomes; set a mutant aside for its controls or, after a time-out, go
        on with the tests the hung one kept from running: a full matrix should not depend on where
        a hanging test sits in the order."""
        reap(child, timed_out)
        if child.mutant is None:
            self.controls.finished[tuple(child.selected)] = child.outcomes
            return None
        remaining = [index for index in child.selected if index not in child.outcomes]
        stop = self.spec["bail"] or child.broken or child.resumes >= RESUMES_PER_MUTANT or os.getppid() != self.parent
        child.sequences[-1] = [index for index in child.selected if index in child.outcomes]  # what it ran
        if timed_out and remaining and not stop:
            return self._start(child.mutant, remaining, carried=child)
        child.seconds = time.monotonic() - child.started  # its controls may keep it waiting
        self.controls.waiting.append(child)
        return None

    def _release(self, running: dict[int, Child]) -> None:
        """Report every waiting mutant whose controls are all in (see `Controls.release`)."""
        controls = [tuple(child.selected) for child in running.values() if child.mutant is None]
        unfinished = [mutant["selected"] for mutant in self.pending]
        unfinished += [child.mutant["selected"] for child in running.values() if child.mutant is not None]
        for child in self.controls.release(controls, unfinished):
            self._report(child)

    def _report(self, child: Child) -> None:
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
        running: dict[int, Child] = {}
        selector = selectors.DefaultSelector()
        queue = self.controls.queue

        def track(child: Child | None) -> None:
            if child is not None:
                running[child.read_fd] = child
                selector.register(child.read_fd, selectors.EVENT_READ)

        def finish(fd: int, timed_out: bool) -> None:
            selector.unregister(fd)
            track(self._finish(running.pop(fd), timed_out))
            self._release(running)

        while pending or running or queue:
            while (queue or pending) and len(running) < self.spec["jobs"]:
                if queue:  # first, so that finished mutants do not wait long
                    track(self._start_control(queue.pop(0)))
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
                    absorb(running[key.fd], data)
                else:
                    finish(key.fd, timed_out=False)
            for fd, child in list(running.items()):
                if child.finished:  # said "done": its results are complete, whatever else holds the pipe
                    finish(fd, timed_out=False)
                elif child.overdue() >= 0:
                    while chunk := read_ready(fd):  # what it said before the deadline still counts
                        absorb(child, chunk)
                    finish(fd, timed_out=not child.finished)
