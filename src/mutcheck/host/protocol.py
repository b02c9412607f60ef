"""Running one collected pytest item through pytest's own protocol: an outcome, a duration and, on
demand, a witness line.

Each item runs through `pytest_runtest_protocol`, as in a plain pytest run, so that every wrapper of
that hook applies: warnings filters (ini, `filterwarnings` marks, a module's `pytestmark`, a
plugin's), faulthandler's time-out, and plugins such as pytest-timeout or pytest-rerunfailures. The
terminal reporter writes nowhere (see `pytest_options.silence_terminal`), so nothing is printed; the outcome
is read from the reports the phases make, as they stand once every report wrapper (xfail, reruns)
has seen them. A run under a mutant asks for short failure reports (see `failure_reports`): building
pytest's full report of a failure costs far more than most tests.

Reports that plugins log while the test runs are watched too: subtests (pytest 9's built-in
`subtests` fixture, the pytest-subtests plugin before it) report their failures only that way,
and a test with a failed subtest has failed, as in a plain pytest run.
"""

import re
from collections.abc import Callable, Generator
from dataclasses import dataclass

import pytest
from pytest import CallInfo, TestReport

from mutcheck.core.outcome import ERROR, FAILED, PASSED, SKIPPED, TIMEOUT
from mutcheck.host.clock import Stopwatch
from mutcheck.host.failure_reports import failure_text, short_failure_reports
from mutcheck.host.timeouts import TestTimeout

_WITNESS_LIMIT = 300
_LISTENER = "mutcheck-test-reports"
_ERROR_LINE = re.compile(r"^(?:E\s+)?(\w*(?:Error|Exception)\b.*)$")
_PHASES = ("setup", "call", "teardown")


@dataclass(frozen=True)
class TestResult:
    outcome: str
    duration: float
    witness: str | None


class _TestReports:
    """What the running test's phases reported, and the failures plugins logged beside them.

    A phase's report is the one the runner logs for it, as made by `pytest_runtest_makereport`; a
    plugin that makes reports of its own (subtests) logs other objects, and those count only as
    failures. Each attempt starts with `pytest_runtest_logstart`: a plugin that reruns a failed test
    (pytest-rerunfailures) starts every attempt so, and only the last one decides, as in a plain run.
    """

    def __init__(self) -> None:
        self.made: list[tuple[TestReport, CallInfo[None]]] = []
        self.phases: dict[str, tuple[CallInfo[None], TestReport]] = {}
        self.logged: list[TestReport] = []

    def clear(self) -> None:
        self.made.clear()
        self.phases.clear()
        self.logged.clear()

    def pytest_runtest_logstart(self) -> None:
        self.clear()

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: CallInfo[None]
    ) -> Generator[None, TestReport, TestReport]:
        try:
            report = yield
        except Exception:
            # On Python 3.11 a time-out's traceback can hold a frame with no line number (a loop's
            # backward jump), which pytest's failure formatting cannot print. The time-out is the
            # outcome, as the same test reports it on 3.12.
            if call.excinfo is None or not call.excinfo.errisinstance(TestTimeout):
                raise
            report = _timeout_report(item, call)
        self.made.append((report, call))
        return report

    def pytest_runtest_logreport(self, report: TestReport) -> None:
        call = next((call for made, call in self.made if made is report), None)
        if call is not None:
            self.phases[report.when] = (call, report)
        elif report.failed:
            self.logged.append(report)


def _timeout_report(item: pytest.Item, call: CallInfo[None]) -> TestReport:
    assert call.excinfo is not None
    return TestReport(
        item.nodeid, item.location, {}, "failed", failure_text(item, call.excinfo), call.when, duration=call.duration
    )


def reports_listener(config: pytest.Config) -> _TestReports:
    """The listener, registered at its first use: a host registers it before it forks, because
    registering makes pytest parse the listener for fixtures, a cost every child would repeat."""
    listener = config.pluginmanager.get_plugin(_LISTENER)
    if listener is None:
        listener = _TestReports()
        config.pluginmanager.register(listener, _LISTENER)
    return listener


def last_error(lines: list[str]) -> str | None:
    """The last line that names an error (e.g. `E   NameError: ...` in a pytest report)."""
    errors = [match.group(1) for line in lines if (match := _ERROR_LINE.match(line))]
    return errors[-1] if errors else None


def _first_line(text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else "failed"
    return first if len(first) <= _WITNESS_LIMIT else first[: _WITNESS_LIMIT - 1] + "…"


def _witness(call: CallInfo[None], report: TestReport, logged: list[TestReport]) -> str:
    """The exception's first line, as pytest prints it (`AssertionError: assert 1 == 2`). A failure
    with no exception says what the first failure a plugin logged says (pytest 9 fails a test whose
    subtests failed: "contains 2 failed subtests"), or else what its own report says (a strict xfail
    that passed)."""
    if call.excinfo is not None:
        return _first_line(call.excinfo.exconly())
    return _report_witness(logged[0] if logged else report)


def _report_witness(report: TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    return _first_line(crash.message if crash is not None else str(report.longrepr))


def run_item(
    item: pytest.Item,
    nextitem: pytest.Item | None,
    want_witness: bool = True,
    phases_done: Callable[[], None] = lambda: None,
    full_reports: bool = True,
) -> TestResult:
    """Run `item` as pytest runs it; `want_witness=False` skips even the failure line, and
    `full_reports=False` has a failed phase reported without pytest's traceback formatting.

    The duration is the charged time of the protocol (see `clock`); `phases_done` is called right
    after it, so that the caller's time limit does not cover the witness's formatting.
    """
    reports = reports_listener(item.config)
    reports.clear()
    short_failure_reports(item.config).on = not full_reports
    stopwatch = Stopwatch()
    try:
        item.ihook.pytest_runtest_protocol(item=item, nextitem=nextitem)
    finally:
        duration = stopwatch.elapsed()
        phases_done()
    phases = [reports.phases[when] for when in _PHASES if when in reports.phases]
    # A time-out up to the first failed phase (in it, or in a phase an xfail made a skip) decides;
    # one in a later teardown does not hide the failure before it.
    for call, report in phases:
        if call.excinfo is not None and call.excinfo.errisinstance(TestTimeout):
            return TestResult(TIMEOUT, duration, None)
        if report.failed:
            break
    failed = next(((call, report) for call, report in phases if report.failed), None)
    if failed is not None:
        outcome = FAILED if failed[0].when == "call" else ERROR
        return TestResult(outcome, duration, _witness(*failed, reports.logged) if want_witness else None)
    if reports.logged:
        return TestResult(FAILED, duration, _report_witness(reports.logged[0]) if want_witness else None)
    if any(report.skipped for _, report in phases):
        return TestResult(SKIPPED, duration, None)
    return TestResult(PASSED, duration, None)
