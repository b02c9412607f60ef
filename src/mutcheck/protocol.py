"""Running one collected pytest item: an outcome, a duration and, on demand, a witness line.

This mirrors pytest's `runtestprotocol` (setup, call, teardown through the item's hooks, with a
report per phase so that plugins such as tmp_path see what they expect) but logs nothing. A
failing call is the one exception: building its report (traceback, assertion introspection)
costs far more than most tests, so unless the item is marked xfail (whose outcome pytest's
report decides) it is recorded from the exception alone; the witness is its first line.
"""

import time
from dataclasses import dataclass

import pytest
from pytest import CallInfo, TestReport

from mutcheck.pytest_compat import release_request, renew_request, reraised_exceptions

PASSED = "passed"
FAILED = "failed"
ERROR = "error"
SKIPPED = "skipped"
TIMEOUT = "timeout"
NOT_RUN = "not-run"

_WITNESS_LIMIT = 300


class TestTimeout(BaseException):
    """Raised inside a test that outlived its time limit (from a SIGALRM handler). A BaseException,
    so that `except Exception` or `pytest.raises(Exception)` in a test cannot swallow it."""


@dataclass(frozen=True)
class TestResult:
    outcome: str
    duration: float
    witness: str | None


def _witness(call: CallInfo) -> str:
    """The exception's first line, as pytest prints it (`AssertionError: assert 1 == 2`)."""
    text = call.excinfo.exconly().strip() if call.excinfo else ""
    first = text.splitlines()[0] if text else "failed"
    return first if len(first) <= _WITNESS_LIMIT else first[: _WITNESS_LIMIT - 1] + "…"


def _phase(item: pytest.Item, when: str, **kwargs: object) -> tuple[CallInfo, TestReport | None]:
    """The phase's call and its report; no report for a plain failing call (see the module doc)."""
    hook = getattr(item.ihook, f"pytest_runtest_{when}")
    call = CallInfo.from_call(lambda: hook(item=item, **kwargs), when=when, reraise=reraised_exceptions(item.config))
    cheap_failure = (
        when == "call"
        and call.excinfo is not None
        and not call.excinfo.errisinstance(pytest.skip.Exception)
        and item.get_closest_marker("xfail") is None
    )
    return call, None if cheap_failure else item.ihook.pytest_runtest_makereport(item=item, call=call)


def run_item(item: pytest.Item, nextitem: pytest.Item | None, want_witness: bool = True) -> TestResult:
    """Setup, call and teardown `item`; `want_witness=False` skips even the failure line."""
    renew_request(item)
    start = time.perf_counter()
    phases = []
    try:
        phases.append(_phase(item, "setup"))
        if phases[0][1] is not None and phases[0][1].passed:
            phases.append(_phase(item, "call"))
        phases.append(_phase(item, "teardown", nextitem=nextitem))
    finally:
        release_request(item)
    duration = time.perf_counter() - start
    failed = next((call for call, report in phases if report is None or report.failed), None)
    if failed is not None:
        if failed.excinfo is not None and failed.excinfo.errisinstance(TestTimeout):
            return TestResult(TIMEOUT, duration, None)
        outcome = FAILED if failed.when == "call" else ERROR
        return TestResult(outcome, duration, _witness(failed) if want_witness else None)
    if any(report.skipped for _, report in phases):
        return TestResult(SKIPPED, duration, None)
    return TestResult(PASSED, duration, None)
