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

from mutcheck.host.protocol import TestTimeout as Cut


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
