"""A test's time limit inside a child: SIGALRM once the test has been charged its limit (see `clock`)."""

import signal

from mutcheck.clock import Stopwatch
from mutcheck.protocol import TestTimeout


class Alarm:
    """Interrupts the running test once it has been charged its limit (see `clock`): SIGALRM fires
    at the limit by the wall clock and, if the test was kept waiting for a CPU meanwhile, is set
    again for what it is still owed. Armed only while a test's phases run."""

    def __init__(self) -> None:
        self.limit: float | None = None
        self.stopwatch = Stopwatch()

    def arm(self, limit: float) -> None:
        self.stopwatch, self.limit = Stopwatch(), limit
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
