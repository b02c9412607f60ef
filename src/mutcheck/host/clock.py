"""The time charged to a test or a child: wall time less the time it waited for a CPU.

A loaded machine (other workers, other jobs) makes a test take longer by the wall clock while it
sits runnable but not running; Linux counts that wait per thread in `schedstat`. Charging only
the rest keeps time limits, and so the matrix, the same under load, while a test that sleeps or
blocks is still charged in full (waiting on a lock or a socket is not waiting for a CPU).
Without `schedstat` (not Linux) the charged time is the wall time.
"""

import os
import threading
import time

# This process's threads' schedstat files, kept open: every test reads its own twice or more, and
# a read of an open file costs a twentieth of an open.
_open_files: dict[int, int] = {}  # native thread id -> file descriptor


def _forget_open_files() -> None:
    """In a forked child, whose threads have ids of their own: the parent's files would only stay
    open in every child, under the tests it runs."""
    for descriptor in _open_files.values():
        os.close(descriptor)
    _open_files.clear()


os.register_at_fork(after_in_child=_forget_open_files)


def _parse_wait(data: bytes) -> float:
    try:
        return int(data.split()[1]) / 1e9
    except (IndexError, ValueError):
        return 0.0


def _own_wait() -> float:
    thread = threading.get_native_id()
    for _attempt in range(2):  # a kept file may belong to an ended thread whose id was reused
        descriptor = _open_files.get(thread)
        try:
            if descriptor is None:
                descriptor = _open_files[thread] = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
            return _parse_wait(os.pread(descriptor, 128, 0))
        except OSError:
            if descriptor is not None:
                os.close(descriptor)
            _open_files.pop(thread, None)
    return 0.0


def cpu_wait(pid: int | None = None) -> float:
    """Seconds the process's main thread (this thread when `pid` is None) spent waiting for a CPU."""
    if pid is None:
        return _own_wait()
    try:
        descriptor = os.open(f"/proc/{pid}/schedstat", os.O_RDONLY)
    except OSError:
        return 0.0
    try:
        return _parse_wait(os.read(descriptor, 128))
    except OSError:
        return 0.0
    finally:
        os.close(descriptor)


class Stopwatch:
    """Charged seconds since it was made, for this thread or for the main thread of `pid`."""

    def __init__(self, pid: int | None = None) -> None:
        self.pid = pid
        self.wall = time.perf_counter()
        self.wait = cpu_wait(pid)

    def wall_elapsed(self) -> float:
        """Wall seconds since it was made: never less than the charged ones, and free to read."""
        return time.perf_counter() - self.wall

    def elapsed(self) -> float:
        wall = time.perf_counter() - self.wall
        return max(0.0, wall - (cpu_wait(self.pid) - self.wait))
