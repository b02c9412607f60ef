"""The time charged to a test or a child: wall time less the time it waited for a CPU.

A loaded machine (other workers, other jobs) makes a test take longer by the wall clock while it
sits runnable but not running; Linux counts that wait per thread in `schedstat`. Charging only
the rest keeps time limits, and so the matrix, the same under load, while a test that sleeps or
blocks is still charged in full (waiting on a lock or a socket is not waiting for a CPU).
Without `schedstat` (not Linux) the charged time is the wall time.
"""

import time
from pathlib import Path


def _read_wait(path: str) -> float:
    try:
        return int(Path(path).read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def cpu_wait(pid: int | None = None) -> float:
    """Seconds the process's main thread (this one when `pid` is None) spent waiting for a CPU."""
    return _read_wait("/proc/thread-self/schedstat" if pid is None else f"/proc/{pid}/schedstat")


class Stopwatch:
    """Charged seconds since it was made, for this thread or for the main thread of `pid`."""

    def __init__(self, pid: int | None = None) -> None:
        self.pid = pid
        self.wall = time.perf_counter()
        self.wait = cpu_wait(pid)

    def elapsed(self) -> float:
        wall = time.perf_counter() - self.wall
        return max(0.0, wall - (cpu_wait(self.pid) - self.wait))
