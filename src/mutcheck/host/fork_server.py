"""The fork server: a copy of the run's host made before the project's code first runs, which forks a
fresh host per fallback mutant, so that the mutant's module is imported anew from its mutated text
without a copy of the project, a new interpreter or pytest's start.

The server is forked where pytest is about to load the initial conftests: pytest and its plugins are
imported and configured from the command line, nothing of the project has run. A fresh host goes on
from there as a fallback host started in a copy would (conftests, configuration, the whole suite
collected, the given tests run), with its spec and its own event pipe; the mutated file is imported
from its text (see `replaced_source`). Each fresh host is forked twice over, so that it becomes the
run's host's child (the host adopts orphans): that host waits for it, times it and kills its group
as it does its forked children.
"""

import os
import signal
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from mutcheck.host.observe import DISK_SOURCE_MARK, OBSERVER
from mutcheck.host.replaced_source import replace_sources
from mutcheck.host.wire import HostSpec
from mutcheck.sandbox.process import lead_own_group

_ADOPTION_ROUNDS = 5000  # of 1 ms


@dataclass
class ForkServer:
    """The host's end: asks the server for fresh hosts."""

    pid: int
    channel: socket.socket
    imported: frozenset[str]  # files whose modules were imported before the fork: never imported anew

    def fresh_host(self, spec_path: Path, events_fd: int) -> int:
        """A fresh host running the spec at `spec_path`, writing its events to `events_fd` (the
        caller's end is closed by the caller): its pid, once it is this process's child."""
        socket.send_fds(self.channel, [os.fsencode(spec_path)], [events_fd])
        return int(self.channel.recv(32))


def start_fork_server(target_files: list[str], inherited: list[int]) -> ForkServer | HostSpec:
    """In the run's host: the server, forked now. In a fresh host forked by it later, this returns
    again, with that host's spec. `inherited`: the host's descriptors no fresh host may hold (the
    engine's pipes), pointed at /dev/null in the server, as are its standard streams (a fresh host
    writes its own to its folder's log)."""
    imported = frozenset(
        os.path.realpath(file)
        for module in list(sys.modules.values())
        if isinstance(file := getattr(module, "__file__", None), str)
    ) & {os.path.realpath(path) for path in target_files}
    host_end, server_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    host = os.getpid()
    with OBSERVER.paused():  # the collection's record: a fork of the project's own would stop reuse
        pid = os.fork()
    if pid:
        server_end.close()
        return ForkServer(pid, host_end, imported)
    host_end.close()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the host's handler would end the whole run
    lead_own_group(host)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in {0, 1, 2, *inherited}:  # the host's output too: the engine reads it until the host ends
        os.dup2(null, fd)  # not closed: a file object that owns the number may close it later
    os.close(null)
    return _serve(server_end, host)


def _serve(channel: socket.socket, host: int) -> HostSpec:
    """The server's loop; returns only in a fresh host."""
    while True:
        try:
            message, fds, _flags, _address = socket.recv_fds(channel, 4096, 1)
        except OSError:
            os._exit(0)
        if not message:  # the host is done with us
            os._exit(0)
        events_fd = fds[0]
        ready_read, ready_write = os.pipe()
        with OBSERVER.paused():  # the fresh host's record of collecting starts as the host's did
            middle = os.fork()
            if middle == 0:
                fresh = os.fork()
                if fresh == 0:
                    os.close(ready_read)
                    os.close(ready_write)
                    channel.close()
                    return _become_fresh_host(Path(os.fsdecode(message)), events_fd, host)
                os.write(ready_write, str(fresh).encode())
                os._exit(0)
        os.close(ready_write)
        fresh = int(os.read(ready_read, 32))
        os.close(ready_read)
        os.waitpid(middle, 0)  # the fresh host is the run's host's child from here on
        os.close(events_fd)
        channel.send(str(fresh).encode())


def _become_fresh_host(spec_path: Path, events_fd: int, host: int) -> HostSpec:
    for _ in range(_ADOPTION_ROUNDS):  # adopted once the middle process has ended, at once
        if os.getppid() == host:
            break
        time.sleep(0.001)
    else:  # the host ended meanwhile: nobody will read or wait for this process
        os._exit(1)
    lead_own_group(host)
    spec = HostSpec.read(spec_path)
    spec.events_fd = events_fd
    log = os.open(Path(spec.scratch) / "host.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    replace_sources(spec.replaced)
    OBSERVER.replace(spec.replaced, str(Path(spec.scratch) / DISK_SOURCE_MARK))
    return spec
