"""The processes of a run: each child in a process group of its own and tied to its parent's life,
each group killed when its leader ends, and every process of the run (its session) killed at the end.

The engine starts the host in a new session; every child of the host (a forked test process or a
fallback host) leads a process group in that session, and whatever a test starts (a `sleep 300`)
joins its group. A group is killed once its leader has exited, and the session once the host has,
so nothing of a run outlives it. A test that starts a session of its own (`setsid`,
`start_new_session=True`) leaves that session, but not the host's environment: every process
that still carries the host's tag is killed with the host's session. One that clears its
environment too is still the host's descendant: the host adopts every orphan among them (a child
subreaper, Linux) and ends its adopted children before it reports the run done.
"""

import contextlib
import ctypes
import functools
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path

_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_PR_SET_CHILD_SUBREAPER = 36
SESSION_TAG = "MUTCHECK_SESSION_TAG"  # in the host's environment, so in that of all it starts
_KILL_ROUNDS = 200  # of 10 ms: a process forking while it is being killed needs another round
_GRACE_ROUNDS = 200  # of 10 ms: how long a session's leader is given to end what it leaves


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


def adopt_orphans() -> None:
    """Become the parent of every descendant whose own parent ends (Linux), wherever it went."""
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_CHILD_SUBREAPER, 1)


def end_children() -> None:
    """SIGKILL and reap every child of this process, the orphans it adopted among them, until none
    is left (an adopted process's own children are adopted in turn when it ends)."""
    for _round in range(_KILL_ROUNDS):
        children = _processes(lambda _state, parent, _session: parent == os.getpid())
        if not children:
            return
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        time.sleep(0.01)


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


def _stat(entry: Path) -> str:
    """A process's /proc stat line; its name (in parentheses) may be any bytes, not UTF-8."""
    return entry.joinpath("stat").read_bytes().decode("latin-1")


def _processes(chosen: Callable[[str, int, int], bool]) -> list[int]:
    """Processes other than this one, from /proc (none found without it), that `chosen` picks by
    their state, parent and session."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            state, parent, _group, session = _stat(entry).rsplit(")", 1)[1].split()[:4]
        except (OSError, IndexError):  # ended meanwhile
            continue
        if chosen(state, int(parent), int(session)) and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


def _session_members(session: int) -> list[int]:
    """Live processes of `session` other than this one."""
    return _processes(lambda state, _parent, their_session: their_session == session and state != "Z")


def new_session_tag() -> str:
    return uuid.uuid4().hex


def _tagged(tag: str) -> list[int]:
    """Live processes other than this one whose environment holds `tag`, from /proc."""
    needle = f"{SESSION_TAG}={tag}".encode()
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if needle in entry.joinpath("environ").read_bytes().split(b"\0") and int(entry.name) != os.getpid():
                state = _stat(entry).rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(entry.name))
        except (OSError, IndexError):  # ended meanwhile, or not ours to read
            continue
    return found


def kill_session(session: int, tag: str | None = None) -> None:
    """SIGKILL every process of `session` but this one, and every process tagged `tag` wherever
    it went, until none is left."""
    for _round in range(_KILL_ROUNDS):
        members = _session_members(session) + (_tagged(tag) if tag else [])
        if not members:
            return
        for pid in members:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def stop_session_leader(process: subprocess.Popen, tag: str | None = None) -> None:
    """Stop a process started with `start_new_session` and everything in its session or carrying
    its `tag`, then reap it. It is asked first (SIGTERM: a run's host then ends what it adopted, see
    `end_children`), and killed if it has not ended within a moment."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGTERM)
        for _round in range(_GRACE_ROUNDS):
            if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                break
            time.sleep(0.01)
        kill_group(process.pid)
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
        kill_session(process.pid, tag)
    elif tag:  # it ended by itself: what left its session may still run
        kill_session(process.pid, tag)
    process.wait()
