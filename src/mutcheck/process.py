"""The processes of a run: each child in a process group of its own and tied to its parent's life,
each group killed when its leader ends, and every process of the run (its session) killed at the end.

The engine starts the host in a new session; every child of the host (a forked test process or a
fallback host) leads a process group in that session, and whatever a test starts (a `sleep 300`)
joins its group. A group is killed once its leader has exited, and the session once the host has,
so nothing of a run outlives it; a test that starts a session of its own is beyond reach.
"""

import contextlib
import ctypes
import functools
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_KILL_ROUNDS = 200  # of 10 ms: a process forking while it is being killed needs another round


@functools.cache
def _prctl() -> Callable[..., int] | None:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux
        return None


def die_with_parent(signum: int, parent: int) -> None:
    """Have the kernel send `signum` to this process when `parent` ends (Linux); leave at once if it
    has ended already. Without it, the engine killed outright would leave its host running."""
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signum)
    if os.getppid() != parent:
        os._exit(1)


def lead_own_group(parent: int) -> None:
    """In a child right after fork: a process group of its own, killed with the parent."""
    os.setpgid(0, 0)
    die_with_parent(signal.SIGKILL, parent)


def place_in_own_group(pid: int) -> None:
    """In the parent right after fork, as the child does too: whichever runs first, the group exists
    before the parent may kill it."""
    with contextlib.suppress(OSError):  # the child did it first, or has exited already
        os.setpgid(pid, pid)


def kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def end_group(pid: int) -> None:
    """Once the group's leader `pid` has exited, kill what is left of its group (what its tests
    started). The leader is not reaped yet, so its id, and the group's, cannot have been reused."""
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    kill_group(pid)


def _session_members(session: int) -> list[int]:
    """Live processes of `session` other than this one, from /proc (none found without it)."""
    members = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            state, _parent, _group, their_session = entry.joinpath("stat").read_text().rsplit(")", 1)[1].split()[:4]
        except (OSError, IndexError):  # ended meanwhile
            continue
        if int(their_session) == session and state != "Z" and int(entry.name) != os.getpid():
            members.append(int(entry.name))
    return members


def kill_session(session: int) -> None:
    """SIGKILL every process of `session` but this one, until none is left."""
    for _round in range(_KILL_ROUNDS):
        members = _session_members(session)
        if not members:
            return
        for pid in members:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def stop_session_leader(process: subprocess.Popen) -> None:
    """Kill a process started with `start_new_session` and everything in its session, then reap it."""
    if process.returncode is None:
        kill_group(process.pid)
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
        kill_session(process.pid)
    process.wait()
