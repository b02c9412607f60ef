"""Which target functions each test reaches, in every thread the test's code runs in: the code that
starts or resumes, the cached functions whose cache answers a call, and the code that starts from a
code object the host did not hold (a reloaded module, source run with `exec`). Also which target
functions ran before any test, while pytest imported the project. In the baseline, also the lines of
the target files each test ran (see `selection.line_reach`).

On Python 3.12+ this listens to `sys.monitoring` start and resume events: each code object
reports once per test (its event is disabled after the first and re-enabled at the next test),
so code outside the target files costs one callback per test at most; line events are enabled only
on the target files' code objects, each line location reporting once per test. Where monitoring is
not available (3.11, or our tool id is taken) a call trace function is installed in every thread
instead: one set lookup per Python call, and line events only in the target files' frames.
"""

import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import CodeType, FrameType
from typing import Any

from mutcheck.core.module_scope import reach_name
from mutcheck.host.project_files import relative_path

# sys.monitoring reserves 0 (debuggers), 1 (coverage.py, pytest-cov), 2 (profilers) and
# 5 (optimizers); Hypothesis takes 3 for its explain phase. 4 is unclaimed.
TOOL_ID = 4
_TOOL_NAME = "mutcheck"


@dataclass
class Reached:
    """What one test reached: each a sorted list of reach names (see `module_scope.reach_name`)."""

    covered: list[str]
    fresh: list[str] = field(default_factory=list)  # started from a code object the host did not hold
    cached: list[str] = field(default_factory=list)  # answered from a functools cache
    code: list[str] = field(default_factory=list)  # with a `project`: all of its code that ran, as "PATH::NAME"
    lines: dict[str, list[int]] = field(default_factory=dict)  # with `lines`: per target file, the lines that ran


class Reach:
    """The qualified names of target code that starts or resumes between `start_test` and
    `stop_test`, whichever thread runs it; with a `project`, also every code object of the project's
    files that ran, kept apart for each fixture set up inside the test (`enter`, `leave`). Nothing is
    held between tests: the monitoring tool id is taken at each start and given back at each stop."""

    def __init__(
        self,
        target_files: set[str],
        known_codes: set[int] | None = None,
        caches: Iterable[tuple[str, Any]] = (),  # (reach name, functools cache wrapper)
        project: str | None = None,
        lines: bool = False,
    ) -> None:
        self.target_files = target_files
        self.lines = lines  # also note the lines of the target files that run
        self.project = project  # also note the code of the project's files (see `relative_path`)
        self.paths: dict[str, str | None] = {}  # a code object's file -> its path in the project, or None
        self.code: list[set[str]] = [set()]  # the innermost sink's last: the test's, then each fixture's
        self.shared: list[set[str]] = []  # per shared fixture being set up, the target functions started in it
        self.setup_hits: list[list[int]] = []  # per shared fixture being set up, its caches' hits before it
        self.known_codes = known_codes  # None: every code object counts as held
        self.caches = list(caches)
        self.current: set[str] = set()
        self.fresh: set[str] = set()
        self.hits: list[int] = []
        self.ran: set[tuple[str, int]] = set()  # with `lines`: (target file, line) of this test
        self.line_events: dict[int, CodeType] = {}  # the code objects whose line events are on (held: ids stay theirs)
        self.monitoring = False

    def _hits(self) -> list[int]:
        return [wrapper.cache_info().hits for _, wrapper in self.caches]

    def start_test(self) -> None:
        self.current, self.fresh, self.code, self.ran, self.shared = set(), set(), [set()], set(), []
        self.setup_hits = []
        self.line_events = {}  # each test's first start turns them on again (3.14 drops them with the tool id)
        self.hits = self._hits()
        self.monitoring = _claim_tool(self._on_start, self._on_line if self.lines else None)
        if self.monitoring:
            sys.monitoring.restart_events()  # code the last test reached reports again
        else:
            trace_every_thread(self.on_call)

    def stop_test(self) -> Reached:
        if self.monitoring:
            _release_tool()
        else:
            trace_every_thread(None)
        cached = [
            name
            for (name, wrapper), before in zip(self.caches, self.hits, strict=True)
            if wrapper.cache_info().hits > before
        ]
        lines: dict[str, set[int]] = {}
        for filename, line in self.ran:
            lines.setdefault(filename, set()).add(line)
        ran = {filename: sorted(numbers) for filename, numbers in sorted(lines.items())}
        return Reached(sorted(self.current), sorted(self.fresh), sorted(set(cached)), sorted(self.code[0]), ran)

    def enter(self) -> None:
        """A fixture's setup begins: the code it runs is its own (code the test ran already reports again)."""
        self.code.append(set())
        self.shared.append(set())
        self.setup_hits.append(self._hits())
        if self.monitoring:
            sys.monitoring.restart_events()

    def leave(self) -> tuple[list[str], list[str]]:
        """The fixture's setup is over: the project's code it ran, and the target functions that started
        in it (every test that uses the fixture's value reaches them); the test's code reports again."""
        code, started = self.code.pop(), self.shared.pop()
        before = self.setup_hits.pop()  # a cache's answer in the setup counts as its function's start
        started |= {name for (name, _), was, now in zip(self.caches, before, self._hits(), strict=True) if now > was}
        if self.monitoring:
            sys.monitoring.restart_events()
        return sorted(code), sorted(started)

    def also_into(self, started: set[str]) -> None:
        """From now on the target functions that start are added to `started` too (a shared fixture's
        teardown); code the test ran already reports again."""
        self.shared.append(started)
        if self.monitoring:
            sys.monitoring.restart_events()

    def no_longer_into(self, started: set[str]) -> None:
        self.shared = [sink for sink in self.shared if sink is not started]

    def _seen(self, code: CodeType) -> None:
        filename = code.co_filename
        if filename in self.target_files:
            name = reach_name(filename, code.co_qualname)
            self.current.add(name)
            for started in self.shared:  # an inner fixture's setup is part of the outer one's
                started.add(name)
            if self.known_codes is not None and id(code) not in self.known_codes:
                self.fresh.add(name)
        if self.project is not None:
            if filename not in self.paths:
                self.paths[filename] = relative_path(filename, self.project)
            if path := self.paths[filename]:
                self.code[-1].add(f"{path}::{code.co_qualname}")

    def _on_start(self, code: CodeType, _offset: int) -> object:
        self._seen(code)
        if self.lines and code.co_filename in self.target_files and id(code) not in self.line_events:
            # Takes effect in this very call.
            sys.monitoring.set_local_events(TOOL_ID, code, sys.monitoring.events.LINE)
            self.line_events[id(code)] = code
        return sys.monitoring.DISABLE

    def _on_line(self, code: CodeType, line: int) -> object:
        self.ran.add((code.co_filename, line))
        return sys.monitoring.DISABLE  # this location reports again at the next test

    def on_call(self, frame: FrameType, _event: str, _arg: Any) -> Callable[..., Any] | None:
        self._seen(frame.f_code)
        if self.lines and frame.f_code.co_filename in self.target_files:
            return self._on_traced_line
        return None

    def _on_traced_line(self, frame: FrameType, event: str, _arg: Any) -> Callable[..., Any]:
        if event == "line":
            self.ran.add((frame.f_code.co_filename, frame.f_lineno))
        return self._on_traced_line


def watching_is_cheap() -> bool:
    """Whether a `Reach` would listen to `sys.monitoring` (3.12+, our tool id free), not trace calls."""
    return hasattr(sys, "monitoring") and sys.monitoring.get_tool(TOOL_ID) is None


def _claim_tool(on_start: Callable[[CodeType, int], object], on_line: Callable[[CodeType, int], object] | None) -> bool:
    """Listen with `on_start` (and `on_line`, for the code objects whose line events are on) under our
    tool id; False without sys.monitoring or if another tool holds the id."""
    if not watching_is_cheap():
        return False
    events = sys.monitoring.events
    sys.monitoring.use_tool_id(TOOL_ID, _TOOL_NAME)
    # Resumes too, so that a generator or coroutine counts for each test that drives it.
    for event in (events.PY_START, events.PY_RESUME):
        sys.monitoring.register_callback(TOOL_ID, event, on_start)
    sys.monitoring.register_callback(TOOL_ID, events.LINE, on_line)
    sys.monitoring.set_events(TOOL_ID, events.PY_START | events.PY_RESUME)
    return True


def _release_tool() -> None:
    events = sys.monitoring.events
    sys.monitoring.set_events(TOOL_ID, 0)
    for event in (events.PY_START, events.PY_RESUME, events.LINE):
        sys.monitoring.register_callback(TOOL_ID, event, None)
    sys.monitoring.free_tool_id(TOOL_ID)


def trace_every_thread(function: Any) -> None:
    """Install (None: remove) a trace function in this thread and the threads started later, and
    on 3.12+ in the threads already running too."""
    if hasattr(threading, "settrace_all_threads"):
        threading.settrace_all_threads(function)
    else:
        threading.settrace(function)
        sys.settrace(function)
