"""Which target functions each test reaches, in every thread the test's code runs in.

On Python 3.12+ this listens to `sys.monitoring` start and resume events: each code object
reports once per test (its event is disabled after the first and re-enabled at the next test),
so code outside the target files costs one callback per test at most. Where monitoring is not
available (3.11, or our tool id is taken) a call-only trace function is installed in every
thread instead: one set lookup per Python call, no line events.
"""

import sys
import threading
from types import CodeType, FrameType
from typing import Any

# sys.monitoring reserves 0 (debuggers), 1 (coverage.py, pytest-cov), 2 (profilers) and
# 5 (optimizers); Hypothesis takes 3 for its explain phase. 4 is unclaimed.
TOOL_ID = 4
_TOOL_NAME = "mutcheck"


class Reach:
    """The qualified names of target code that starts or resumes between `start_test` and
    `stop_test`, whichever thread runs it. Nothing is held between tests: the monitoring tool id
    is taken at each start and given back at each stop."""

    def __init__(self, target_files: set[str]) -> None:
        self.target_files = target_files
        self.current: set[str] = set()
        self.monitoring = False

    def start_test(self) -> None:
        self.current = set()
        self.monitoring = _claim_tool(self._on_start)
        if self.monitoring:
            sys.monitoring.restart_events()  # code the last test reached reports again
        else:
            _trace_every_thread(self._on_call)

    def stop_test(self) -> list[str]:
        if self.monitoring:
            _release_tool()
        else:
            _trace_every_thread(None)
        return sorted(self.current)

    def _on_start(self, code: CodeType, _offset: int) -> object:
        if code.co_filename in self.target_files:
            self.current.add(code.co_qualname)
        return sys.monitoring.DISABLE

    def _on_call(self, frame: FrameType, _event: str, _arg: Any) -> None:
        if frame.f_code.co_filename in self.target_files:
            self.current.add(frame.f_code.co_qualname)


def _claim_tool(callback: Any) -> bool:
    """Listen with `callback` under our tool id; False without sys.monitoring or if another tool holds the id."""
    if not hasattr(sys, "monitoring") or sys.monitoring.get_tool(TOOL_ID) is not None:
        return False
    events = sys.monitoring.events
    sys.monitoring.use_tool_id(TOOL_ID, _TOOL_NAME)
    # Resumes too, so that a generator or coroutine counts for each test that drives it.
    for event in (events.PY_START, events.PY_RESUME):
        sys.monitoring.register_callback(TOOL_ID, event, callback)
    sys.monitoring.set_events(TOOL_ID, events.PY_START | events.PY_RESUME)
    return True


def _release_tool() -> None:
    events = sys.monitoring.events
    sys.monitoring.set_events(TOOL_ID, 0)
    for event in (events.PY_START, events.PY_RESUME):
        sys.monitoring.register_callback(TOOL_ID, event, None)
    sys.monitoring.free_tool_id(TOOL_ID)


def _trace_every_thread(function: Any) -> None:
    """Install (None: remove) a trace function in this thread and the threads started later, and
    on 3.12+ in the threads already running too."""
    if hasattr(threading, "settrace_all_threads"):
        threading.settrace_all_threads(function)
    else:
        threading.settrace(function)
        sys.settrace(function)
