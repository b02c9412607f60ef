"""The engine's pytest host: collects the suite once in the run's scratch copy, then hands pytest's
run loop to the `scheduler` (baseline, then every mutant), streaming events back as JSON lines.
A fallback host, started by the run's host in a copy of its own, runs the tests it is given.

Started by `imports.host_command` with a SPEC.json; never imported by the CLI process.
"""

import gc
import os
import signal
import sys
import tempfile
import time
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

import pytest

from mutcheck.core.exit_code import ExitCode
from mutcheck.core.module_scope import is_module_code
from mutcheck.host.batches import run_tests
from mutcheck.host.children import NEEDS_THE_FILE
from mutcheck.host.collection_errors import CollectionError, described, in_one_line, pytest_message
from mutcheck.host.collection_needs import NeedsRecorder
from mutcheck.host.events import EventWriter
from mutcheck.host.failure_reports import short_failure_reports
from mutcheck.host.fork_server import ForkServer, start_fork_server
from mutcheck.host.import_reach import ImportReach
from mutcheck.host.observe import COLLECTION, OBSERVER
from mutcheck.host.project_files import (
    can_change,
    defined_in,
    has_teardown,
    imported_elsewhere,
    imported_modules,
    test_files,
)
from mutcheck.host.protocol import last_error, reports_listener
from mutcheck.host.pytest_compat import rewrite_only_the_suite
from mutcheck.host.pytest_options import (
    keep_running_after_failures,
    silence_terminal,
    switch_off_xdist,
    unusable_option,
)
from mutcheck.host.reach import Reach, watching_is_cheap
from mutcheck.host.scheduler import Scheduler
from mutcheck.host.shared_timer import process_alarm
from mutcheck.host.subprocesses import follow_subprocesses
from mutcheck.host.swap import modules_by_file
from mutcheck.host.warm import warm_caches
from mutcheck.host.watch import Watch, active, start_watching
from mutcheck.host.wire import (
    COLLECT,
    FULL,
    TESTS,
    Collected,
    CollectionFailed,
    HostSpec,
    MutantPlan,
    RunDone,
    UnusableOption,
    event_json,
)
from mutcheck.sandbox.imports import redirect_imports
from mutcheck.sandbox.process import SESSION_TAG, adopt_orphans, die_with_parent, end_children, kill_session

STARTED = time.monotonic()


class HostPlugin:
    """Takes over pytest's run loop once collection is done."""

    def __init__(self, spec: HostSpec, answers: TextIO | None) -> None:
        self.spec = spec
        self.answers = answers  # the engine's stdin, taken before pytest captures it
        self.collection_errors: list[CollectionError] = []
        self.interruption: str | None = None  # `pytest.exit` or KeyboardInterrupt while collecting
        self.reached_run_loop = False
        self.stopped_for_an_option = False
        self.import_reach: ImportReach | None = None  # from the first conftest to the end of collection
        self.import_reached: set[str] = set()
        self.collection_code: set[str] = set()  # the project's code that ran while collecting (see `watched`)
        self.code_watched = False  # whether that is all the project's code that ran then, or the targets' alone
        self.notes: list[str] = []  # what the host changed of the project's options, said once by the engine
        self.collection_started = time.monotonic()
        self.needs: NeedsRecorder | None = None  # what collecting needs installed, when `mutcheck init` asks
        if spec.needs:
            self.needs = NeedsRecorder([spec.project, *spec.project_roots], spec.pytest_args)
        self.fork_server: ForkServer | None = None  # the run's host: fresh hosts for fallback mutants
        self.forked = False  # a fresh host the fork server made

    @pytest.hookimpl(tryfirst=True)
    def pytest_cmdline_main(self, config: pytest.Config) -> int | None:
        """Before any mode of pytest's own (help, debugger, collect-only) can take over."""
        unusable = unusable_option(config, self.spec.pytest_args)
        if unusable is None:
            return None
        event = UnusableOption(unusable.source, unusable.field, unusable.message())
        EventWriter(self.spec.events_fd).write_line(event_json(event))
        self.stopped_for_an_option = True
        return int(pytest.ExitCode.USAGE_ERROR)

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        if switch_off_xdist(config):
            self.notes.append("xdist-off")

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        silence_terminal(session.config)
        keep_running_after_failures(session.config)

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_load_initial_conftests(self) -> Generator[None, None, None]:
        """The project's code can run from here on (conftests, then the test modules collected):
        pytest's own start and its plugins' imports are left out of the trace (a slow trace on 3.11).
        The fork server is made here, before any of that code runs."""
        if self.spec.mode == FULL:
            inherited = [self.spec.events_fd, *([self.answers.fileno()] if self.answers else [])]
            made = start_fork_server(self.spec.target_files, inherited)
            if isinstance(made, HostSpec):  # a fresh host for one fallback mutant, from here on
                self.spec, self.answers, self.forked = made, None, True
            else:
                self.fork_server = made
        if self.spec.mode == FULL:
            self.import_reach = ImportReach(set(self.spec.target_files), os.path.realpath(self.spec.project))
            self.import_reach.start()
        yield

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self) -> None:
        self.collection_started = time.monotonic()

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_finish(self) -> None:
        self.stop_import_reach()

    def stop_import_reach(self) -> None:
        """What the target code did before any test (decorators, tables built at import, parametrize
        lists), and what collecting was seen to depend on."""
        if self.import_reach is not None:
            self.import_reached = {name for name in self.import_reach.stop() if not is_module_code(name)}
            self.collection_code, self.code_watched = set(self.import_reach.code), self.import_reach.watched
            self.import_reach = None

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef: Any) -> Generator[None, None, None]:
        """A fixture shared by several tests is set up inside the first of them: what it does is its own."""
        watch = active()
        if watch is None or fixturedef.scope == "function":
            yield
            return
        own = defined_in(fixturedef.func, os.path.realpath(self.spec.project)) is not None
        teardown = has_teardown(fixturedef)
        with watch.fixture(fixturedef.argname, teardown) as setup:
            yield
            setup.carrier = own and can_change(fixturedef)
        if teardown:  # the last finalizer added runs first: the fixture's own teardown begins
            fixturedef.addfinalizer(lambda: watch.tearing_down(fixturedef.argname))

    def pytest_fixture_post_finalizer(self, fixturedef: Any) -> None:
        """A shared fixture is torn down in the teardown of the last test of its scope: what its
        teardown does (and what its value became) shows in that test's outcome."""
        watch = active()
        if watch is not None and fixturedef.scope != "function":
            watch.finalized(fixturedef.argname)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            lines = [line for line in report.longreprtext.splitlines() if line.strip()]
            message = pytest_message(report.longreprtext, self.spec.project)
            error = last_error(lines) or (lines or ["failed"])[-1]
            self.collection_errors.append(CollectionError(report.nodeid, message, error))

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        """Said only by the terminal reporter, whose output goes nowhere in a host."""
        self.interruption = f"pytest stopped: {excinfo.exconly()}"

    def collection_failure(self, fallback: str) -> CollectionFailed:
        """Why the suite does not collect, error by error; in a mutant's fallback host, why the
        mutant broke its tests' modules, in one line."""
        if not self.collection_errors:
            return CollectionFailed(self.interruption or fallback)
        listed = in_one_line if self.spec.mode == TESTS else described
        return CollectionFailed(listed(self.collection_errors))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        events = EventWriter(self.spec.events_fd)
        self.reached_run_loop = True
        if session.testsfailed or self.collection_errors:
            events.write_line(event_json(self.collection_failure(f"{session.testsfailed} collection error(s)")))
            return True
        if self.spec.mode == TESTS:
            # a fallback mutant's collection: the run's own is what every outcome stands on, but a
            # forked host's collection may have read the file on disk, not the mutant's text
            if NEEDS_THE_FILE.intersection(OBSERVER.end().unfollowed) and self.forked:
                events.write({"needs_the_file": True})
            watch = None
            if self.spec.reported_as is not None:  # what its tests depend on, said as in the run's copy
                project = os.path.realpath(self.spec.project)
                reach = Reach(set(), None, (), project) if watching_is_cheap() else None
                watch = Watch(events, reach, moved=(self.spec.project, self.spec.reported_as))
            items, gone = self._given(session.items)
            if gone:
                message = f"the mutant changed which tests are collected: {len(gone)} no longer are (first: {gone[0]})"
                events.write_line(event_json(CollectionFailed(message)))
                return True
            run_tests(items, list(range(len(items))), events, self.spec.bail, self.spec.limits, watch=watch)
            if self.forked:  # before the session ends (see `fork_server`)
                _leave_forked()
            return True
        tests = [item.nodeid for item in session.items]
        needs = self.needs.found() if self.needs else None
        collected = Collected(tests, self.notes, self.collection_started, time.monotonic(), needs)
        if self.spec.mode == FULL:
            modules = imported_modules(self.spec.project)
            collected = replace(
                collected,
                files=test_files(session.items, self.spec.project),
                modules=list(modules),
                module_names=modules,
                loaded=sorted(sys.modules),
                elsewhere=imported_elsewhere(self.spec.project, self.spec.target_files),
                code_watched=self.code_watched,
            )
        events.write_line(event_json(collected))
        if self.spec.mode == COLLECT:
            return True
        host = Scheduler(self.spec, session, time.monotonic() - STARTED, self.fork_server)
        host.import_reached = self.import_reached
        warm_caches(getattr(item, "obj", None) for item in session.items)  # the baseline's children too
        reports_listener(session.config)
        short_failure_reports(session.config)
        process_alarm(session.config)
        # what collecting, and the host's start around it, was seen to depend on: every process's start
        host.collection = OBSERVER.end()
        host.collection.code = self.collection_code
        host.baseline()
        host.plan = MutantPlan.from_json(self.answers.readline())  # the engine answers with the plan
        # Children inherit the host's heap copy-on-write; a frozen heap is not walked (and so not
        # copied page by page) by each child's garbage collector.
        gc.freeze()
        host.modules = modules_by_file(self.spec.target_files)
        host.mutants()
        end_children()  # what the tests left, having left the session and the tag behind too
        events.write_line(event_json(RunDone({"runs": host.controls.runs, "tests": host.controls.tests})))
        return True

    def _given(self, collected: list[pytest.Item]) -> tuple[list[pytest.Item], list[str]]:
        """A fallback host's tests, in the order given, out of those it collected (all of them, or
        the suite's when it collected the whole suite), and the given ones it did not collect."""
        if not self.spec.test_paths:
            return list(collected), []
        by_id = {item.nodeid: item for item in collected}
        given = self.spec.tests or []
        return [by_id[test] for test in given if test in by_id], [test for test in given if test not in by_id]


def _leave_forked() -> None:
    """A fresh host the fork server made ends here: the run's host's exit handlers are not its to run."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _stop_the_run(_signal: int, _frame: object) -> None:
    """SIGTERM to the host, e.g. from the kernel once the engine has died: nothing of the run may go on."""
    kill_session(os.getsid(0), os.environ.get(SESSION_TAG))
    end_children()
    os._exit(ExitCode.TERMINATED)


def main() -> None:
    spec = HostSpec.read(Path(sys.argv[1]))
    if spec.mode == FULL:  # the run's host, leading its session
        signal.signal(signal.SIGTERM, _stop_the_run)
        die_with_parent(signal.SIGTERM, spec.parent)
        adopt_orphans()
    else:  # a fallback host, in the run's host's session: that host stops what it leaves
        die_with_parent(signal.SIGKILL, spec.parent)
    sys.dont_write_bytecode = True
    # pytest's `pytest-of-<user>` folders (`tmp_path`) and whatever the tests make with `tempfile`
    # go into the run's scratch folder, removed with it.
    temporary = Path(spec.scratch) / "tmp"
    temporary.mkdir(exist_ok=True)
    os.environ["TMPDIR"] = str(temporary)
    tempfile.tempdir = None
    rewrite_only_the_suite()
    redirect_imports([Path(root) for root in spec.project_roots], Path(spec.project), spec.removed)
    spec.subprocesses = str(follow_subprocesses(spec))
    args = [*(spec.test_paths or spec.tests or []), *spec.pytest_args]
    # pytest's cache (`--lf`, `--ff`, `--sw` read it) lives in the run's scratch folder, wherever the
    # project's configuration puts it.
    args += ["-o", f"cache_dir={Path(spec.scratch) / 'pytest-cache'}"]
    answers = os.fdopen(os.dup(0), "r", encoding="utf-8") if spec.mode == FULL else None
    plugin = HostPlugin(spec, answers)
    if spec.mode != COLLECT:  # what pytest's start and collection read, from its options on (see `observe`)
        start_watching()
        OBSERVER.begin(COLLECTION)
    code = pytest.main(args, plugins=[plugin, *([plugin.needs] if plugin.needs else [])])
    plugin.stop_import_reach()
    if not plugin.reached_run_loop and not plugin.stopped_for_an_option:
        # e.g. a test id that no longer collects because its module fails
        stopped = f"pytest stopped before running (exit status {int(code)})"
        EventWriter(plugin.spec.events_fd).write_line(event_json(plugin.collection_failure(stopped)))
    if plugin.forked:
        _leave_forked()
