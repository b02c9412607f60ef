"""One test's phases and its outcome (host/protocol.py), run here on tests collected here."""

import pytest

from mutcheck.core.outcome import SKIPPED, TIMEOUT
from mutcheck.host.protocol import run_item

pytest_plugins = ["pytester"]

# On Python 3.11 a time-out's traceback may hold a frame with no line number (a loop's backward
# jump), and formatting it raises this TypeError; a unittest item builds its report even for a
# failure. This conftest makes every failed call's report fail so, wherever the time-out lands.
UNPRINTABLE_FAILURES = """
import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.when == "call" and call.excinfo is not None:
        raise TypeError("unsupported operand type(s) for -: 'NoneType' and 'int'")
    return report
"""

CUT_UNITTEST = """
import unittest

from mutcheck.host.timeouts import TestTimeout as Cut


class CapTest(unittest.TestCase):
    def test_capped(self):
        raise Cut  # as the SIGALRM handler raises it when the test outlives its limit
"""

FAILING_UNITTEST = """
import unittest


class CapTest(unittest.TestCase):
    def test_fails(self):
        assert False
"""


def test_a_time_out_whose_report_pytest_cannot_build_is_still_a_time_out(pytester):
    pytester.makeconftest(UNPRINTABLE_FAILURES)
    (item,) = pytester.getitems(CUT_UNITTEST)
    assert run_item(item, None).outcome == TIMEOUT


def test_any_other_error_while_building_a_report_is_not_hidden(pytester):
    pytester.makeconftest(UNPRINTABLE_FAILURES)
    (item,) = pytester.getitems(FAILING_UNITTEST)
    with pytest.raises(TypeError, match="NoneType"):
        run_item(item, None)


def test_a_test_that_calls_pytest_xfail_is_xfailed_as_pytest_reports_it_not_failed(pytester):
    (item,) = pytester.getitems('import pytest\n\n\ndef test_later():\n    pytest.xfail("later")\n')
    assert run_item(item, None).outcome == SKIPPED


# Every kind of test phase whose outcome pytest decides in its report.
REPORTED_SHAPES = """
import unittest

import pytest


@pytest.fixture
def broken_setup():
    raise RuntimeError("setup broke")


@pytest.fixture
def broken_teardown():
    yield
    raise RuntimeError("teardown broke")


def test_setup_error(broken_setup):
    pass


def test_teardown_error(broken_teardown):
    pass


@pytest.mark.xfail(reason="known")
def test_xfail_that_fails():
    assert 1 == 2


@pytest.mark.xfail(reason="known", strict=True)
def test_strict_xfail_that_passes():
    pass


@pytest.mark.xfail(raises=KeyError)
def test_xfail_that_raises_another_error():
    raise ValueError("not the expected one")


def test_imperative_xfail():
    pytest.xfail("later")


def test_plain_failure():
    assert 1 == 2


class Cases(unittest.TestCase):
    def test_fails(self):
        self.assertEqual(1, 2)

    def test_errors(self):
        raise KeyError("missing")

    def test_skips(self):
        self.skipTest("not here")

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)

    @unittest.expectedFailure
    def test_unexpected_success(self):
        pass
"""

KEEP_REPORTS = """
import pytest

REPORTS = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    REPORTS.append(report)
    return report
"""


def _results(items: list[pytest.Item], full_reports: bool) -> dict[str, tuple[str, str | None]]:
    """Each test's outcome and witness, by name."""
    results = {}
    for position, item in enumerate(items):
        nextitem = items[position + 1] if position + 1 < len(items) else None
        result = run_item(item, nextitem, full_reports=full_reports)
        results[item.name] = (result.outcome, result.witness)
    return results


def test_short_failure_reports_leave_every_outcome_and_witness_as_pytest_s_full_reports_have_them(pytester):
    items = pytester.getitems(REPORTED_SHAPES)
    full = _results(items, full_reports=True)
    assert {name: outcome for name, (outcome, _) in full.items()} == {
        "test_setup_error": "error",
        "test_teardown_error": "error",
        "test_xfail_that_fails": "skipped",
        "test_strict_xfail_that_passes": "failed",
        "test_xfail_that_raises_another_error": "failed",
        "test_imperative_xfail": "skipped",
        "test_plain_failure": "failed",
        "test_fails": "failed",
        "test_errors": "failed",
        "test_skips": "skipped",
        "test_expected_failure": "skipped",
        "test_unexpected_success": "failed",
    }
    assert _results(items, full_reports=False) == full


def test_a_short_failure_report_is_the_exception_s_first_line_and_where_the_test_s_file_raised_it(pytester):
    pytester.makeconftest(KEEP_REPORTS)
    (item,) = pytester.getitems(FAILING_UNITTEST)
    reports = item.config.pluginmanager.get_plugin(str(pytester.path / "conftest.py")).REPORTS
    run_item(item, None, full_reports=False)
    (call,) = [report for report in reports if report.when == "call"]
    line = item.path.read_text().splitlines().index("        assert False") + 1
    assert call.failed and call.longrepr == f"AssertionError: assert False\n{item.location[0]}:{line}"
    reports.clear()
    run_item(item, None)  # the baseline's: pytest's own, with the source of each entry
    (call,) = [report for report in reports if report.when == "call"]
    assert call.failed and "def test_fails(self):" in str(call.longrepr)


TIMED_OUT_TEARDOWN = """
import pytest

from mutcheck.host.timeouts import TestTimeout as Cut


@pytest.fixture
def slow_to_close():
    yield
    raise Cut  # as the SIGALRM handler raises it, after the call had failed


def test_fails_then_times_out(slow_to_close):
    assert 1 == 2
"""


def test_a_time_out_in_teardown_does_not_hide_the_failure_before_it(pytester):
    (item,) = pytester.getitems(TIMED_OUT_TEARDOWN)
    result = run_item(item, None)
    assert (result.outcome, result.witness) == ("failed", "AssertionError: assert 1 == 2")


FAILING_PROPERTY = """
from hypothesis import given, settings, strategies


@settings(database=None, derandomize=True)
@given(strategies.integers())
def test_small(number):
    assert number < 10
"""


def test_under_short_reports_a_failing_property_test_fails_without_hypothesis_writing_its_example_patch(pytester):
    pytester.makeconftest(KEEP_REPORTS)
    (item,) = pytester.getitems(FAILING_PROPERTY)
    reports = item.config.pluginmanager.get_plugin(str(pytester.path / "conftest.py")).REPORTS
    patches = []
    for full_reports in (True, False):
        reports.clear()
        assert run_item(item, None, full_reports=full_reports).outcome == "failed"
        (teardown,) = [report for report in reports if report.when == "teardown"]
        patches.append(teardown.__dict__.get("_hypothesis_failing_examples"))
    full, short = patches
    assert full is not None and "@example(" in full  # the baseline's, as in a plain run
    assert short is None
