"""Short failure reports: a failed test phase reported without pytest's traceback formatting.

pytest builds a failure's report from its whole traceback: each entry's source, found by parsing
the entry's file, assertion details, arguments. In a test module of thousands of lines that costs
tens of milliseconds per failure, far more than most tests take, and a mutant that fails hundreds
of tests would spend seconds on reports nobody reads. While switched on (for a test run under a
mutant, or as its control), a failed phase's report says what failed in two lines: the exception's
first line, and where the test's own file raised it. The outcome is pytest's own, since only the
long text differs; so is a skip's report, and the reports of the baseline.

Most failing calls need no report at all (see `protocol`); this is for those that do: a unittest
test case's (pytest hands its exception to the call in the report hook), a marked xfail's, and a
failed setup or teardown's.

Hypothesis's report wrapper adds one more report nobody reads: for a failing property test it
writes the `@example(...)` patch that its terminal summary offers, parsing the test's file with
LibCST (about 0.4 s a failure, several times the test's own time). While switched on, the test's
request for that patch is dropped before the wrapper reads it; the outcome is decided before.
"""

from types import TracebackType

import pytest
from pytest import CallInfo, TestReport

_NAME = "mutcheck-short-failure-reports"
# Where Hypothesis leaves a failing test's examples for its report wrapper to turn into a patch.
_HYPOTHESIS_PATCH_REQUEST = "_hypothesis_failing_examples"


class ShortFailureReports:
    """The report of a failed phase while `on`, in place of pytest's own (and of any plugin's registered
    before it: pytest asks the implementations of this hook from the last registered on, and takes
    the first report; wrappers such as the one that decides xfails still see it)."""

    def __init__(self) -> None:
        self.on = False

    def pytest_runtest_makereport(self, item: pytest.Item, call: CallInfo[None]) -> TestReport | None:
        if self.on and call.when == "teardown":
            item.__dict__.pop(_HYPOTHESIS_PATCH_REQUEST, None)
        excinfo = call.excinfo
        if not self.on or not isinstance(excinfo, pytest.ExceptionInfo) or excinfo.errisinstance(pytest.skip.Exception):
            return None
        return TestReport(
            item.nodeid,
            item.location,
            dict.fromkeys(item.keywords, 1),
            "failed",
            failure_text(item, excinfo),
            call.when,
            duration=call.duration,
            start=call.start,
            stop=call.stop,
            user_properties=item.user_properties,
        )


def short_failure_reports(config: pytest.Config) -> ShortFailureReports:
    """The plugin, registered at its first use: a host registers it before it forks (see
    `protocol.reports_listener`)."""
    plugin = config.pluginmanager.get_plugin(_NAME)
    if plugin is None:
        plugin = ShortFailureReports()
        config.pluginmanager.register(plugin, _NAME)
    return plugin


def _innermost_in(path: str, tb: TracebackType | None) -> int | None:
    """The line of the innermost traceback entry in the file at `path`."""
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def failure_text(item: pytest.Item, excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    """The exception's first line, and `file:line` where the test's own file raised it, if it did."""
    lines = excinfo.exconly().strip().splitlines()
    first = lines[0] if lines else excinfo.typename
    line = _innermost_in(str(item.path), excinfo.tb)
    return first if line is None else f"{first}\n{item.location[0]}:{line}"
