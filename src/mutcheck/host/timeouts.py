"""Time limits: each from its baseline duration, and inside a child SIGALRM once a test has been
charged its limit (see `clock`)."""

import math
import signal
import time
from collections.abc import Callable

from mutcheck.host.clock import Stopwatch


class TestTimeout(BaseException):
    """Raised inside a test that outlived its time limit (from a SIGALRM handler). A BaseException,
    so that `except Exception` or `pytest.raises(Exception)` in a test cannot swallow it."""


class Alarm:
    """Interrupts the running test once it has been charged its limit (see `clock`): SIGALRM fires
    at the limit by the wall clock and, if the test was kept waiting for a CPU meanwhile, is set
    again for what it is still owed. Armed only while a test's phases run, and its handler installed
    again each time: pytest-timeout sets SIGALRM's handler back to the default after each test it
    times, which would end the process at this limit's signal.

    A process has one SIGALRM timer, so a plugin's own limit for the test (see `shared_timer`) is
    timed here too: whichever comes first acts, the plugin's through the plugin's own handler.
    """

    def __init__(self) -> None:
        self.limit: float | None = None
        self.stopwatch = Stopwatch()
        self._plugin_deadline: float | None = None  # by the monotonic clock, as the plugin's timer is wall time
        self._plugin_expires: Callable[[], None] = lambda: None

    def arm(self, limit: float) -> None:
        self._plugin_deadline = None
        self.stopwatch, self.limit = Stopwatch(), limit
        signal.signal(signal.SIGALRM, self)
        signal.setitimer(signal.ITIMER_REAL, limit)

    def disarm(self) -> None:
        self.limit = self._plugin_deadline = None
        signal.setitimer(signal.ITIMER_REAL, 0)

    def share(self, seconds: float, expires: Callable[[], None]) -> None:
        """Time a plugin's own limit of `seconds` from now as well, calling `expires` if it comes first."""
        self._plugin_deadline, self._plugin_expires = time.monotonic() + seconds, expires
        signal.signal(signal.SIGALRM, self)
        self._set_next()

    def unshare(self) -> None:
        """The plugin's limit is over (its test phase ended): only this one's is left."""
        self._plugin_deadline = None
        if self.limit is not None and self._owed() > 0:  # else this one has fired, and is set to fire again
            self._set_next()

    def _owed(self) -> float:
        assert self.limit is not None
        return self.limit - self.stopwatch.elapsed()

    def _set_next(self) -> None:
        wait = self._owed()
        if self._plugin_deadline is not None:
            wait = min(wait, self._plugin_deadline - time.monotonic())
        signal.setitimer(signal.ITIMER_REAL, max(wait, 0.001))  # 0 would disarm it

    def __call__(self, _signal: int, _frame: object) -> None:
        if self.limit is None:
            return
        if self._plugin_deadline is not None and self._plugin_deadline - time.monotonic() <= 0.01:
            self._plugin_deadline = None
            self._set_next()
            self._plugin_expires()  # raises, as the plugin's own handler does
            return
        if self._owed() > 0.01:
            self._set_next()
            return
        signal.setitimer(signal.ITIMER_REAL, 0.25)  # again, should the test swallow this one
        raise TestTimeout("the test outlived its time limit under this mutant")


def test_limit(duration: float, factor: float, constant: float) -> float:
    """One test's time limit under a mutant, from its baseline duration, rounded up to two
    significant figures: a baseline a millisecond slower gives the same limit, so that a time-out
    kept for reuse still stands on a later run (see `reuse.decide`)."""
    return _two_figures_up(factor * duration + constant)


def _two_figures_up(seconds: float) -> float:
    if not math.isfinite(seconds) or seconds <= 0:
        return seconds
    step = 10.0 ** (math.floor(math.log10(seconds)) - 1)
    # the slack absorbs the division's own error (1.5 / 0.1 is 15.000000000000002); the format, the product's
    steps = math.ceil(seconds / step - 1e-12)
    return max(float(f"{steps * step:.2g}"), seconds)


def time_limit(selected: list[int], durations: list[float], factor: float, constant: float) -> float:
    """A whole mutant's limit: every selected test's own, plus one more constant of slack."""
    return sum(test_limit(durations[index], factor, constant) for index in selected) + constant
