"""The engine's pytest host: collects the suite once in the run's scratch copy, then hands pytest's
run loop to the `scheduler` (baseline, then every mutant), streaming events back as JSON lines.
A fallback host, started by the run's host in a copy of its own, runs the tests it is given.

Started by `imports.host_command` with a SPEC.json; never imported by the CLI process.
"""

import gc
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import pytest

from mutcheck.batches import run_tests
from mutcheck.events import EventWriter
from mutcheck.exit_code import ExitCode
from mutcheck.imports import redirect_imports
from mutcheck.process import die_with_parent, kill_session
from mutcheck.protocol import last_error, logged_failures
from mutcheck.pytest_compat import rewrite_only_the_suite
from mutcheck.scheduler import Scheduler
from mutcheck.swap import modules_by_file
from mutcheck.warm import warm_caches

STARTED = time.monotonic()


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
            reason = last_error(lines) or (lines or ["failed"])[-1]
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
        host = Scheduler(self.spec, session, time.monotonic() - STARTED)
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
        events.write({"event": "done", "controls": {"runs": host.controls.runs, "tests": host.controls.tests}})
        return True


def _stop_the_run(_signal: int, _frame: object) -> None:
    """SIGTERM to the host, e.g. from the kernel once the engine has died: nothing of the run may go on."""
    kill_session(os.getsid(0))
    os._exit(ExitCode.TERMINATED)


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    if spec["mode"] == "full":  # the run's host, leading its session
        signal.signal(signal.SIGTERM, _stop_the_run)
        die_with_parent(signal.SIGTERM, spec["parent"])
    else:  # a fallback host, in the run's host's session: that host stops what it leaves
        die_with_parent(signal.SIGKILL, spec["parent"])
    sys.dont_write_bytecode = True
    rewrite_only_the_suite()
    redirect_imports([Path(root) for root in spec["project_roots"]], Path.cwd(), spec.get("removed", ()))
    args = [*spec.get("tests", spec.get("test_paths", [])), *spec["pytest_args"]]
    # No terminal reporter: nothing reads it, and plugins skip their summary work without it.
    args += ["-p", "no:cacheprovider", "-p", "no:terminal"]
    answers = os.fdopen(os.dup(0), "r", encoding="utf-8") if spec["mode"] == "full" else None
    plugin = HostPlugin(spec, answers)
    code = pytest.main(args, plugins=[plugin])
    if not plugin.reached_run_loop:  # e.g. a test id that no longer collects because its module fails
        EventWriter(spec["events_fd"]).write(plugin.collection_failure(f"pytest stopped before running: {code!r}"))
