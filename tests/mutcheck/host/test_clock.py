"""Charged time: wall time less the time the thread waited for a CPU, read from its own schedstat."""

import os
import subprocess
import sys
import threading
import time

import pytest

from mutcheck.host.clock import Stopwatch, cpu_wait

HOGS = 3  # busy processes sharing the child's one CPU: it runs about a quarter of the time


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _waited_in_a_loaded_child() -> float:
    """Seconds a forked child, busy for half a second on one CPU it shares with HOGS busy
    processes, says it waited for that CPU."""
    cpu = min(os.sched_getaffinity(0))
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        hogs = []
        try:
            os.sched_setaffinity(0, {cpu})
            hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(HOGS)]
            for hog in hogs:
                os.sched_setaffinity(hog.pid, {cpu})
            stopwatch = Stopwatch()
            _busy(0.5)
            os.write(write_fd, str(stopwatch.wall_elapsed() - stopwatch.elapsed()).encode())
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd) as answer:
        waited = float(answer.read() or "nan")
    os.waitpid(pid, 0)
    return waited


@pytest.mark.skipif(not os.path.exists("/proc/thread-self/schedstat"), reason="needs Linux schedstat")
def test_a_forked_child_charges_its_own_wait_not_its_parents():
    """The parent has read its own wait (its file is kept open) and then sleeps on a pipe: a child
    reading the parent's file would see no wait at all."""
    cpu_wait()
    assert _waited_in_a_loaded_child() > 0.15


@pytest.mark.skipif(not os.path.exists("/proc/thread-self/schedstat"), reason="needs Linux schedstat")
def test_a_forked_child_keeps_none_of_its_parents_files_open():
    cpu_wait()
    parent_file = f"/proc/{os.getpid()}/task/{threading.get_native_id()}/schedstat"
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            links = []
            for name in os.listdir("/proc/self/fd"):
                try:
                    links.append(os.readlink(f"/proc/self/fd/{name}"))
                except OSError:  # the listing's own descriptor, closed by now
                    continue
            os.write(write_fd, str(links.count(parent_file)).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd) as answer:
        count = answer.read()
    os.waitpid(pid, 0)
    assert count == "0"
