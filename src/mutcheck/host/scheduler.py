"""The host's two phases: baseline rounds in forked children, then the mutant phase, one child per
mutant or control run, as many at once as there are workers, each resumed after a time-out and
reported once its controls are in."""

import base64
import os
import re
import selectors
import time
from itertools import pairwise
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

import pytest

from mutcheck.core.module_scope import reach_name
from mutcheck.core.outcome import DETECTING, NOT_RUN, ORDER_DEPENDENT, PASSED, SKIPPED, TIMEOUT
from mutcheck.core.source_text import read_source
from mutcheck.host.batches import baseline_chunk, run_tests
from mutcheck.host.children import (
    Child,
    absorb,
    fork,
    read_all,
    read_ready,
    reap,
    start_fallback,
    start_forked_fallback,
)
from mutcheck.host.clock import Stopwatch
from mutcheck.host.controls import Controls
from mutcheck.host.events import EventWriter
from mutcheck.host.fork_server import ForkServer
from mutcheck.host.reach import Reach, watching_is_cheap
from mutcheck.host.subprocesses import SubprocessReach
from mutcheck.host.swap import LiveFunctions, Swap, prepare_swap
from mutcheck.host.timeouts import test_limit, time_limit
from mutcheck.host.watch import Watch
from mutcheck.host.wire import (
    BaselineRan,
    HostSpec,
    MutantPlan,
    MutantRan,
    Seen,
    event_json,
    joined_fixtures,
    shared_reach,
)

RESUMES_PER_MUTANT = 2  # new children after time-outs, so a mutant that hangs every test stays bounded
# fallback reasons: code the mutant changes runs while pytest imports the project (see `outside`)
OUTSIDE = {"module-statement", "class-body", "function-header", "outside-function"}
RUN_WHILE_COLLECTING = {"import-time", "whole-file", *OUTSIDE}
# Fallback reasons whose mutant a fresh host from the fork server can run: a copy's own file is needed
# where a test may run the source by other means than importing it (`exec`, a subprocess).
FORKABLE = {"import-time", "not-imported", "no-live-function", "no-marker", "no-evidence", "reads-source", *OUTSIDE}
# what a baseline test reached, and how (see `Reach`; `forked`: in a process it forked, which runs the swap too;
# `shared`: through a shared fixture's value, see `shared_reach`)
REACH_KINDS = ("covered", "fresh", "cached", "subprocess", "forked", "shared")


def deal(files: list[str], jobs: int) -> list[list[int]]:
    """The baseline's chunks, one per worker: runs of consecutive tests in pytest's order, of nearly
    equal length, each cut moved to the nearest start of a test file within an eighth of a chunk.
    A test that counts on what the tests before it in its file left is common; dealt apart from
    them it fails, and the round runs again whole. `files` holds each test's file; never more
    chunks than tests, nor fewer than one (an empty suite gets one, empty)."""
    tests = len(files)
    count = max(1, min(jobs, tests))
    file_starts = [index for index in range(1, tests) if files[index] != files[index - 1]]
    reach = tests / count / 8
    cuts = [0]
    for number in range(1, count):
        even = round(number * tests / count)
        near = [start for start in file_starts if abs(start - even) <= reach and start > cuts[-1]]
        cuts.append(min(near, key=lambda start: abs(start - even)) if near else even)
    cuts.append(tests)
    return [list(range(start, end)) for start, end in pairwise(cuts)]


class Scheduler:
    def __init__(
        self, spec: HostSpec, session: pytest.Session, startup_seconds: float, fork_server: ForkServer | None = None
    ) -> None:
        self.spec = spec
        self.fork_server = fork_server
        self.project = os.path.realpath(spec.project)
        self.items: list[pytest.Item] = list(session.items)
        self.events = EventWriter(spec.events_fd)
        self.parent = os.getppid()
        self.modules: dict[str, ModuleType] = {}
        self.plan: MutantPlan | None = None  # the engine's answer once the baseline is over
        self.startup_seconds = startup_seconds  # interpreter start to collected suite
        self.controls = Controls()
        self.pending: list[dict[str, Any]] = []  # mutants not started yet
        self.live: LiveFunctions | None = None  # found after collection, before the baseline forks
        self.import_reached: set[str] = set()  # target functions that ran while pytest imported the project
        self.reached: list[dict[str, set[str]]] = []  # per test, the baseline's first round: see `Reach`
        self.seen: list[Seen | None] = []  # per test, what the baseline's first round saw it depend on
        self.fixtures_seen: dict[str, Seen] = {}  # per shared fixture, what its setups in that round depended on
        self.collection = Seen()  # what the host's start and collection were seen to depend on
        self.originals: dict[str, CodeType] = {}  # target files' code, compiled from the text the host imported

    # -- baseline ----------------------------------------------------------------------------
    def baseline(self) -> None:
        """Each round in fresh forks, the suite cut into one chunk per worker (see `deal`). A round
        in which some test fails is run again whole, in pytest's order, in one child: the suite
        must pass as pytest runs it, not as we split it."""
        target_files = set(self.spec.target_files)
        self.live = LiveFunctions(target_files)
        chunks = deal([item.nodeid.split("::", 1)[0] for item in self.items], self.spec.jobs)
        for round_number in range(1, self.spec.baseline_rounds + 1):
            watched = round_number == 1
            results, fixtures = self._baseline_round(chunks, watched)
            split_failures = [result["test"] for result in results if result["outcome"] not in (PASSED, SKIPPED)]
            if len(chunks) > 1 and split_failures:
                results, fixtures = self._baseline_round([list(range(len(self.items)))], watched)
            # Failed only as the workers split the suite: they depend on the tests before them.
            order_dependent = [index for index in split_failures if results[index]["outcome"] in (PASSED, SKIPPED)]
            import_reached = seen_fixtures = None
            if watched:
                self.reached = [{kind: set(result.get(kind, ())) for kind in REACH_KINDS} for result in results]
                self.seen = [Seen.from_json(result["seen"]) if "seen" in result else None for result in results]
                self.fixtures_seen = fixtures
                import_reached = sorted(self.import_reached)
                seen_fixtures = {name: seen.to_json() for name, seen in fixtures.items()}
            collection = self.collection.to_json() if watched else None
            event = BaselineRan(
                round_number, results, order_dependent, time.monotonic(), import_reached, seen_fixtures, collection
            )
            self.events.write_line(event_json(event))

    def _baseline_round(self, chunks: list[list[int]], watched: bool) -> tuple[list[dict[str, Any]], dict[str, Seen]]:
        """One round's results, in order, and (`watched`) what each shared fixture's setups were seen to depend on."""
        children = []
        for chunk in chunks:

            def body(events: EventWriter, chunk: list[int] = chunk) -> None:
                watch = subprocesses = None
                if watched:
                    reach = Reach(
                        set(self.spec.target_files), self.live.known_codes, self.live.caches, self.project, lines=True
                    )
                    watch, subprocesses = Watch(events, reach), SubprocessReach(Path(self.spec.subprocesses), reach)
                for result in baseline_chunk(self.items, chunk, watch, subprocesses):
                    events.write(result)

            children.append(fork(body))
        events = read_all(children)
        results = self._complete(events)
        if watched:
            shared_reach(results, events)
        return results, joined_fixtures(events)

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
        plan = self.plan
        return [test_limit(plan.durations[index], plan.timeout_factor, plan.timeout_constant) for index in selected]

    def _fallback(self, reason: str, test: int | None = None) -> dict[str, str | None]:
        return {"reason": reason, "test": None if test is None else self.items[test].nodeid}

    def _swap(self, mutant: dict[str, Any]) -> tuple[Swap | None, dict[str, str | None] | None]:
        """The mutant's swap, or why it runs in a copy: what cannot be swapped, and what a swap could
        not reach (code that ran before any test, in a subprocess, or from a fresh code object)."""
        if mutant["swap_target"] is None:
            return None, self._fallback(mutant["fallback"])
        innermost = reach_name(mutant["path"], mutant["swap_target"])

        def inside(names: set[str]) -> bool:
            return any(name == innermost or name.startswith(innermost + ".") for name in names)

        # a lambda or comprehension ran at import if the `def` holding it did (3.11 counts defs only)
        holder = re.sub(r"(\.<locals>)?\.<[a-z]+>$", "", innermost)
        if inside(self.import_reached) or holder in self.import_reached:
            return None, self._fallback("import-time")
        real = os.path.realpath(mutant["path"])
        for index in mutant["selected"]:
            seen = self.seen[index] if index < len(self.seen) else None
            if seen is not None and seen.opened(real):
                return None, self._fallback("reads-source", index)  # it reads the file on disk: the copy's
            if inside(self.reached[index]["subprocess"]):
                return None, self._fallback("subprocess", index)
            if inside(self.reached[index]["fresh"]):
                return None, self._fallback("fresh-code", index)
        path = mutant["path"]
        if path not in self.modules:
            return None, self._fallback("not-imported")
        if mutant["marked"] is None:
            return None, self._fallback("no-marker")
        if path not in self.originals:
            source = read_source(Path(path))[0]
            self.originals[path] = compile(source, path, "exec", dont_inherit=True)
        marked = base64.b64decode(mutant["marked"])
        swap, reason = prepare_swap(self.live, path, self.originals[path], marked, innermost)
        return swap, None if swap is not None else self._fallback(reason)

    def _forked(self, mutant: dict[str, Any], selected: list[int], reason: str) -> tuple[int, int, str] | None:
        """A fresh host from the fork server running the mutant's tests, where one can serve (see
        `_forkable`): its pid, pipe and folder. None where it cannot, or once the server is gone
        (every later mutant runs in a copy)."""
        if not self._forkable(mutant, selected, reason):
            return None
        tests = [self.items[index].nodeid for index in selected]
        try:
            return start_forked_fallback(
                self.fork_server, self.spec, self.plan.sources, mutant, tests, self._limits(selected)
            )
        except (OSError, ValueError):  # the server ended (killed, out of memory): copies from now on
            self.fork_server = None
            return None

    def _forkable(self, mutant: dict[str, Any], selected: list[int], reason: str) -> bool:
        """Whether a fresh host from the fork server gives what a copy would: one file's edit, whose
        module was not imported before the server was made, and no test of it, no shared fixture and
        nothing of collecting seen to read that file but by importing it or through `linecache` (the
        fresh host holds the mutant's text for both), to write it or to start a
        process (which would import the file on disk; a fork without exec holds the host's memory,
        and the fresh host sees what its children do: `observe.FORK`)."""
        if self.fork_server is None or reason not in FORKABLE or mutant["edit"] is None:
            return False
        path = os.path.realpath(mutant["path"])
        if path in self.fork_server.imported:
            return False
        seen = [self.collection, *self.fixtures_seen.values()]
        seen += [self.seen[index] if index < len(self.seen) else None for index in selected]
        return all(each is not None and _leaves_alone(each, path) for each in seen)

    def _missing_evidence(self, child: Child) -> int | None:
        """The first test whose outcome the swap cannot vouch for: one that failed, or passed although
        it started the mutated function in the baseline, while the mutated code had not started yet
        in its process (in it or in a test before it: a fixture shared by several tests runs the code
        in the first of them only). None when every outcome can be trusted."""
        for sequence in child.sequences:
            started = False
            for index in sequence:
                if index not in child.ran:  # not run, or stopped without a word (a hard time-out)
                    continue
                started = started or child.ran[index]
                outcome = child.outcomes[index]
                # the marked function, or code nested in it (a closure made before the swap keeps its
                # old code; one made since started the marked function first)
                evidence, covered = child.swap.evidence, self.reached[index]["covered"]
                reached = any(name == evidence or name.startswith(evidence + ".") for name in covered)
                if not started and (reached or (outcome in DETECTING and outcome != TIMEOUT)):
                    return index
        return None

    def _start(
        self,
        mutant: dict[str, Any],
        selected: list[int],
        carried: Child | None = None,
        fallback: dict[str, str | None] | None = None,
    ) -> Child:
        """A process running `selected` under the mutant; `carried` is what an earlier one recorded,
        `fallback` why it must run in a copy (decided here when not given)."""
        now = time.monotonic()
        budget = time_limit(selected, self.plan.durations, self.plan.timeout_factor, self.plan.timeout_constant)
        if carried is not None:
            swap, fallback = carried.swap, carried.fallback
        elif fallback is None:
            swap, fallback = self._swap(mutant)
        else:
            swap = None
        if swap is not None:

            def body(events: EventWriter) -> None:
                swap.apply()
                # what the tests depend on under the mutant, the evidence a later run's reuse checks;
                # the code they run only where watching it is nearly free (3.12+: see `reuse`)
                reach = None
                if watching_is_cheap():
                    reach = Reach(set(self.spec.target_files), None, self.live.caches, self.project)
                watch = Watch(events, reach, self.seen, self.fixtures_seen)
                run_tests(self.items, selected, events, self.spec.bail, self._limits(selected), swap.marker, watch)

            pid, read_fd = fork(body)
            child = Child(mutant, selected, pid, read_fd, budget, Stopwatch(pid), now, swap=swap)
        elif fallback.get("where") != "copy" and (forked := self._forked(mutant, selected, fallback["reason"])):
            fallback = {**fallback, "where": "fork"}
            pid, read_fd, scratch = forked
            budget += 2 * self.startup_seconds  # it collects the whole suite before its tests run
            child = Child(mutant, selected, pid, read_fd, budget, Stopwatch(pid), now, scratch=scratch, fresh_host=True)
        else:
            fallback = {**fallback, "where": "copy"}
            tests = [self.items[index].nodeid for index in selected]
            # mutated code that runs while pytest imports the tests may break any test module, as
            # it would in a plain run: the copy collects them all (elsewhere the collection is
            # the unmutated one until the mutated function is called, so the selected ones do)
            collect_all = fallback["reason"] in RUN_WHILE_COLLECTING
            process, read_fd, scratch = start_fallback(
                self.spec, self.plan.sources, mutant, tests, self._limits(selected), collect_all
            )
            # A fresh host must start and collect before its tests run: allow twice what ours took.
            budget += 2 * self.startup_seconds
            stopwatch = Stopwatch(process.pid)
            child = Child(
                mutant, selected, process.pid, read_fd, budget, stopwatch, now, process, scratch, fresh_host=True
            )
        child.fallback = fallback
        child.sequences = [selected]
        if carried is not None:
            child.started, child.timed_out, child.resumes = carried.started, carried.timed_out, carried.resumes + 1
            child.outcomes, child.durations, child.witnesses = carried.outcomes, carried.durations, carried.witnesses
            child.ran, child.sequences = carried.ran, [*carried.sequences, selected]
            child.needs_the_file = carried.needs_the_file
        return child

    def _start_control(self, sequence: tuple[int, ...]) -> Child:
        """The tests of `sequence`, in that order, unmutated: which of them fail without a mutant."""
        tests = list(sequence)

        def body(events: EventWriter) -> None:
            run_tests(self.items, tests, events, False, self._limits(tests))

        pid, read_fd = fork(body)
        self.controls.runs, self.controls.tests = self.controls.runs + 1, self.controls.tests + len(tests)
        budget = time_limit(tests, self.plan.durations, self.plan.timeout_factor, self.plan.timeout_constant)
        return Child(None, tests, pid, read_fd, budget, Stopwatch(pid), time.monotonic())

    def _finish(self, child: Child, timed_out: bool) -> Child | None:
        """Keep a control's outcomes; set a mutant aside for its controls or, after a time-out, go
        on with the tests the hung one kept from running: a full matrix should not depend on where
        a hanging test sits in the order."""
        reap(child, timed_out)
        if child.mutant is None:
            self.controls.finished[tuple(child.selected)] = child.outcomes
            return None
        if child.confirms is not None:
            self._confirmed(child)
            return None
        remaining = [index for index in child.selected if index not in child.outcomes]
        gone = os.getppid() != self.parent
        stop = self.spec.bail or child.broken or child.resumes >= RESUMES_PER_MUTANT or gone
        child.sequences[-1] = [index for index in child.selected if index in child.outcomes]  # what it ran
        if (timed_out or child.crashed) and remaining and not stop:
            return self._start(child.mutant, remaining, carried=child)
        if child.swap is not None and not gone and (missing := self._missing_evidence(child)) is not None:
            # What ran was not the mutant everywhere: the copy, where the mutated file is all there is, decides.
            return self._start(child.mutant, child.mutant["selected"], fallback=self._fallback("no-evidence", missing))
        if child.fallback and child.fallback["where"] == "fork" and child.needs_the_file and not gone:
            # A process started under the mutant, or a loader of the project's own, read the file on
            # disk rather than the fork's text: a copy decides.
            return self._start(child.mutant, child.mutant["selected"], fallback={**child.fallback, "where": "copy"})
        child.seconds = time.monotonic() - child.started  # its controls may keep it waiting
        self.controls.waiting.append(child)
        return None

    def _release(self, running: dict[int, Child]) -> list[tuple[Child, list[int]]]:
        """Report every waiting mutant whose controls are all in (see `Controls.release`), unless a
        failure was order-dependent in its selection: then first the suite's own order decides
        (returned: each such mutant with its doubtful tests, to be confirmed)."""
        controls = [tuple(child.selected) for child in running.values() if child.mutant is None]
        unfinished = [mutant["selected"] for mutant in self.pending]
        unfinished += [child.mutant["selected"] for child in running.values() if child.mutant is not None]
        doubting = []
        for child in self.controls.release(controls, unfinished):
            doubtful = sorted(index for index, outcome in child.outcomes.items() if outcome == ORDER_DEPENDENT)
            if doubtful and os.getppid() == self.parent:
                doubting.append((child, doubtful))
            else:
                self._report(child)
        return doubting

    def _in_suite_order(self, child: Child, doubtful: list[int]) -> Child:
        """A test that fails unmutated too in the order of the mutant's selection (which leaves out
        the tests that do not reach it) is run again under the mutant after every test before it in
        the suite, as a plain pytest run would run it; the suite passed in that order unmutated."""
        suite_order = list(range(doubtful[-1] + 1))
        # on the fallback path, in a copy: the tests before the doubtful ones may start processes
        fallback = {**child.fallback, "where": "copy"} if child.swap is None else None
        confirming = self._start(child.mutant, suite_order, fallback=fallback)
        confirming.confirms, confirming.doubtful = child, doubtful
        return confirming

    def _confirmed(self, confirming: Child) -> None:
        """What the suite's order said of each doubtful test: a failure there (after the mutated code
        started, on a swap) is a kill; anything else stays order-dependent. What that run's tests
        were seen to depend on is their outcomes' evidence (and its shared fixtures', the mutant's)."""
        child = confirming.confirms
        child.confirmed = confirming.doubtful  # their outcomes come from another process, in another order
        if self._keepable(confirming):
            child.in_order, child.in_order_seen = list(confirming.selected), confirming.seen
            child.fixture_events += confirming.fixture_events
        started = False
        for index in confirming.selected:
            started = started or confirming.ran.get(index, False)
            outcome = confirming.outcomes.get(index)
            if index in confirming.doubtful and outcome in DETECTING and (confirming.swap is None or started):
                child.outcomes[index] = outcome
                if index in confirming.witnesses:
                    child.witnesses[index] = confirming.witnesses[index]
        self._report(child)

    def _report(self, child: Child) -> None:
        outcomes = dict.fromkeys(child.mutant["selected"], NOT_RUN) | child.outcomes
        event = MutantRan(
            child.mutant["id"],
            "fallback" if child.fresh_host else "swap",
            child.fallback,
            child.timed_out,
            child.broken,
            outcomes,
            dict(child.durations),
            dict(child.witnesses),
            child.seconds,
            keepable := self._keepable(child),
            keepable and watching_is_cheap(),
            child.seen if keepable else {},
            {name: seen.to_json() for name, seen in joined_fixtures(child.fixture_events).items()} if keepable else {},
            child.confirmed,
            child.in_order if keepable else [],
            child.in_order_seen if keepable else {},
        )
        self.events.write_line(event_json(event))

    @staticmethod
    def _keepable(child: Child) -> bool:
        """A mutant whose tests ran once, in one process, to the end: what it reached is all it ran
        (the tests whose outcomes its confirmation settled are named apart, and never kept)."""
        return child.finished and len(child.sequences) == 1 and not (child.timed_out or child.crashed or child.broken)

    def mutants(self) -> None:
        self.pending = pending = list(self.plan.mutants)
        running: dict[int, Child] = {}
        selector = selectors.DefaultSelector()
        queue = self.controls.queue

        def track(child: Child | None) -> None:
            if child is not None:
                running[child.read_fd] = child
                selector.register(child.read_fd, selectors.EVENT_READ)

        # confirmations in the suite's order, started like any mutant as a worker frees up: many
        # mutants of one function are released together, and each confirmation may be a fresh host
        confirming: list[tuple[Child, list[int]]] = []

        def finish(fd: int, timed_out: bool) -> None:
            selector.unregister(fd)
            track(self._finish(running.pop(fd), timed_out))
            confirming.extend(self._release(running))

        while pending or running or queue or confirming:
            while (confirming or queue or pending) and len(running) < self.spec.jobs:
                if confirming:  # first: their mutants have finished and wait only for them
                    track(self._in_suite_order(*confirming.pop(0)))
                elif queue:  # next, so that finished mutants do not wait long
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


def _leaves_alone(seen: Seen, path: str) -> bool:
    """Nothing `seen` reads `path` (a real path) other than by importing it or through `linecache`, writes
    it, or starts a process."""
    return "subprocess" not in seen.unfollowed and not seen.wrote(path) and not seen.opened_itself(path)
