"""Running one collected pytest item: an outcome, a duration and, on demand, a witness line.

This mirrors pytest's `runtestprotocol` (setup, call, teardown through the item's hooks, with a
report per phase so that plugins such as tmp_path see what they expect) but logs nothing. A
failing call is the one exception: building its report (traceback, assertion introspection)
costs far more than most tests, so unless the item is marked xfail or calls `pytest.xfail` (whose
outcome pytest's report decides) it is recorded from the exception alone; the witness is its first
line. Where a report is needed, a run under a mutant asks for a short one (see `failure_reports`).

Reports that plugins log while the test runs are watched instead: subtests (pytest 9's built-in
`subtests` fixture, the pytest-subtests plugin before it) report their failures only that way,
and a test with a failed subtest has failed, as in a plain pytest run.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from pytest import CallInfo, TestReport

from mutcheck.core.outcome import ERROR, FAILED, PASSED, SKIPPED, TIMEOUT
from mutcheck.host.clock import Stopwatch
from mutcheck.host.failure_reports import short_failure_reports
from mutcheck.host.pytest_compat import release_request, renew_request, reraised_exceptions
from mutcheck.host.timeouts import TestTimeout

_WITNESS_LIMIT = 300
_LISTENER = "mutcheck-logged-failures"
_ERROR_LINE = re.compile(r"^(?:E\s+)?(\w*(?:Error|Exception)\b.*)$")


@dataclass(frozen=True)
class TestResult:
    outcome: str
    duration: float
    witness: str | None


class _LoggedFailures:
    """The failed reports logged (by plugins: this protocol logs none) since the test started."""

    def __init__(self) -> None:
        self.reports: list[TestReport] = []

    def pytest_runtest_logreport(self, report: TestReport) -> None:
        if report.failed:
            self.reports.append(report)


def logged_failures(config: pytest.Config) -> _LoggedFailures:
    """The listener, registered at its first use: a host registers it before it forks, because
    registering makes pytest parse the listener for fixtures, a cost every child would repeat."""
    listener = config.pluginmanager.get_plugin(_LISTENER)
    if listener is None:
        listener = _LoggedFailures()
        config.pluginmanager.register(listener, _LISTENER)
    return listener


def last_error(lines: list[str]) -> str | None:
    """The last line that names an error (e.g. `E   NameError: ...` in a pytest report)."""
    errors = [match.group(1) for line in lines if (match := _ERROR_LINE.match(line))]
    return errors[-1] if errors else None


def _first_line(text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else "failed"
    return first if len(first) <= _WITNESS_LIMIT else first[: _WITNESS_LIMIT - 1] + "…"


def _witness(call: CallInfo) -> str:
    """The exception's first line, as pytest prints it (`AssertionError: assert 1 == 2`)."""
    return _first_line(call.excinfo.exconly() if call.excinfo else "")


def _report_witness(report: TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    return _first_line(crash.message if crash is not None else str(report.longrepr))


def _phase(item: pytest.Item, when: str, **kwargs: object) -> tuple[CallInfo, TestReport | None]:
    """The phase's call and its report; no report for a plain failing call (see the module doc)."""
    hook = getattr(item.ihook, f"pytest_runtest_{when}")
    call = CallInfo.from_call(lambda: hook(item=item, **kwargs), when=when, reraise=reraised_exceptions(item.config))
    cheap_failure = (
        when == "call"
        and call.excinfo is not None
        and not call.excinfo.errisinstance((pytest.skip.Exception, pytest.xfail.Exception))
        and item.get_closest_marker("xfail") is None
    )
    if cheap_failure:
        return call, None
    try:
        return call, item.ihook.pytest_runtest_makereport(item=item, call=call)
    except Exception:
        # On Python 3.11 a time-out's traceback can hold a frame with no line number (a loop's
        # backward jump), which pytest's failure formatting cannot print; a unittest item builds
        # its report even then, its exception handed to the call by the report hook. The time-out
        # is the outcome, as the same test reports it on 3.12.
        if call.excinfo is not None and call.excinfo.errisinstance(TestTimeout):
            return call, None
        raise


def run_item(
    item: pytest.Item,
    nextitem: pytest.Item | None,
    want_witness: bool = True,
    phases_done: Callable[[], None] = lambda: None,
    full_reports: bool = True,
) -> TestResult:
    """Setup, call and teardown `item`; `want_witness=False` skips even the failure line, and
    `full_reports=False` has a failed phase reported without pytest's traceback formatting.

    The duration is the charged time of the three phases (see `clock`); `phases_done` is called
    right after them, so that the caller's time limit does not cover the witness's formatting.
    """
    renew_request(item)
    logged = logged_failures(item.config)
    logged.reports.clear()
    short_failure_reports(item.config).on = not full_reports
    stopwatch = Stopwatch()
    phases = []
    try:
        phases.append(_phase(item, "setup"))
        if phases[0][1] is not None and phases[0][1].passed:
            phases.append(_phase(item, "call"))
        phases.append(_phase(item, "teardown", nextitem=nextitem))
    finally:
        duration = stopwatch.elapsed()
        phases_done()
        release_request(item)
    failed = next((call for call, report in phases if report is None or report.failed), None)
    if failed is not None:
        if failed.excinfo is not None and failed.excinfo.errisinstance(TestTimeout):
            return TestResult(TIMEOUT, duration, None)
        outcome = FAILED if failed.when == "call" else ERROR
        return TestResult(outcome, duration, _witness(failed) if want_witness else None)
    if logged.reports:
        return TestResult(FAILED, duration, _report_witness(logged.reports[0]) if want_witness else None)
    if any(report.skipped for _, report in phases):
        return TestResult(SKIPPED, duration, None)
    return TestResult(PASSED, duration, None)
