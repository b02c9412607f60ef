"""Time limits: each from its baseline duration, and inside a child SIGALRM once a test has been
charged its limit (see `clock`)."""

import math
import signal

from mutcheck.host.clock import Stopwatch


class TestTimeout(BaseException):
    """Raised inside a test that outlived its time limit (from a SIGALRM handler). A BaseException,
    so that `except Exception` or `pytest.raises(Exception)` in a test cannot swallow it."""


class Alarm:
    """Interrupts the running test once it has been charged its limit (see `clock`): SIGALRM fires
    at the limit by the wall clock and, if the test was kept waiting for a CPU meanwhile, is set
    again for what it is still owed. Armed only while a test's phases run, and its handler installed
    again each time: pytest-timeout sets SIGALRM's handler back to the default after each test it
    times, which would end the process at this limit's signal."""

    def __init__(self) -> None:
        self.limit: float | None = None
        self.stopwatch = Stopwatch()

    def arm(self, limit: float) -> None:
        self.stopwatch, self.limit = Stopwatch(), limit
        signal.signal(signal.SIGALRM, self)
        signal.setitimer(signal.ITIMER_REAL, limit)

    def disarm(self) -> None:
        self.limit = None
        signal.setitimer(signal.ITIMER_REAL, 0)

    def __call__(self, _signal: int, _frame: object) -> None:
        if self.limit is None:
            return
        owed = self.limit - self.stopwatch.elapsed()
        if owed > 0.01:
            signal.setitimer(signal.ITIMER_REAL, owed)
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
