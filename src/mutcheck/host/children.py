"""The host's test processes: a forked child per mutant, baseline chunk or control run, or a fresh
host in a copy of its own for a fallback mutant; what each says over its pipe; how each ends.

Each leads a process group of its own, killed once it ends (see `process`).
"""

import json
import os
import select
import selectors
import shutil
import signal
import subprocess
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mutcheck.core.outcome import FAILED, TIMEOUT
from mutcheck.host.clock import Stopwatch
from mutcheck.host.events import EventWriter
from mutcheck.host.fork_server import ForkServer
from mutcheck.host.observe import DISK_SOURCE, DISK_SOURCE_MARK
from mutcheck.host.protocol import last_error
from mutcheck.host.swap import Swap
from mutcheck.host.wire import TESTS, HostSpec
from mutcheck.sandbox.imports import Relocation, host_command
from mutcheck.sandbox.logs import log_tail
from mutcheck.sandbox.process import end_group, kill_group, lead_own_group, place_in_own_group
from mutcheck.sandbox.scratch import remove_bytecode

NEEDS_THE_FILE = {"subprocess", DISK_SOURCE}  # what a sink did that a forked fresh host cannot serve


@dataclass
class Child:
    """One running mutant (a forked child or a fallback subprocess) or control run, and what it
    has said so far."""

    mutant: dict[str, Any] | None  # None: a control run, the same tests unmutated
    selected: list[int]  # the tests this process runs, in order (a continuation runs fewer)
    pid: int
    read_fd: int
    budget: float  # charged seconds it may take (see `clock`) before it is stopped
    stopwatch: Stopwatch
    started: float
    process: subprocess.Popen | None = None  # a fallback host started in a copy
    scratch: str | None = None  # a fallback host's folder (its spec and log)
    fresh_host: bool = False  # a fallback host (started in a copy, or by the fork server): it numbers its own tests
    # a test, a shared fixture or (in a forked host) collecting did what only a copy serves (`_needs_the_file`)
    needs_the_file: bool = False
    buffer: bytes = b""
    outcomes: dict[int, str] = field(default_factory=dict)
    durations: dict[int, float] = field(default_factory=dict)
    witnesses: dict[int, str] = field(default_factory=dict)
    running: int | None = None
    broken: str | None = None
    finished: bool = False
    timed_out: bool = False
    crashed: bool = False  # its process died from a signal while a test ran: that test failed
    ran: dict[int, bool] = field(default_factory=dict)  # per test of a swapped mutant: the mutated code started
    swap: Swap | None = None  # a forked mutant's swap; None on the fallback path and for controls
    fallback: dict[str, str | None] | None = None  # why a mutant runs in a copy: {"reason", "test"}
    confirms: "Child | None" = None  # run in the suite's order for this mutant's order-dependent tests
    doubtful: list[int] = field(default_factory=list)  # those tests
    resumes: int = 0
    sequences: list[list[int]] = field(default_factory=list)  # what each of its processes ran, in order
    seconds: float = 0.0  # from its start to its last process's end
    seen: dict[int, dict[str, list[str]]] = field(default_factory=dict)  # per test: see `watch`
    fixture_events: list[dict[str, Any]] = field(default_factory=list)  # each shared fixture's setup: see `watch`
    confirmed: list[int] = field(default_factory=list)  # tests whose outcomes a run in the suite's order settled
    # that run's tests, in order, and what each was seen to depend on there (when it can be kept)
    in_order: list[int] = field(default_factory=list)
    in_order_seen: dict[int, dict[str, list[str]]] = field(default_factory=dict)

    def overdue(self) -> float:
        """Charged seconds past its budget (negative while within it). Until the wall clock
        passes the budget the charged time cannot have, and the cheap wall figure is enough."""
        wall = self.stopwatch.wall_elapsed() - self.budget
        return wall if wall < 0 else self.stopwatch.elapsed() - self.budget


def fork(body: Callable[[EventWriter], None]) -> tuple[int, int]:
    """A forked child running `body` with a writer to its pipe; its pid and the pipe's read end."""
    read_fd, write_fd = os.pipe()
    host = os.getpid()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        code = 0
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the host's handler would kill the whole run
            lead_own_group(host)
            body(EventWriter(write_fd))
        except BaseException:  # report anything, then leave without running parent cleanup
            EventWriter(write_fd).write({"broken": traceback.format_exc().strip().splitlines()[-1]})
            code = 1
        finally:
            os._exit(code)
    place_in_own_group(pid)
    os.close(write_fd)
    return pid, read_fd


def read_all(children: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Every event of the given children, read as they arrive so no child blocks on a full pipe."""
    chunks: dict[int, list[bytes]] = {read_fd: [] for _, read_fd in children}
    with selectors.DefaultSelector() as selector:
        for _, read_fd in children:
            selector.register(read_fd, selectors.EVENT_READ)
        while selector.get_map():
            for key, _mask in selector.select():
                if chunk := os.read(key.fd, 65536):
                    chunks[key.fd].append(chunk)
                else:
                    selector.unregister(key.fd)
                    os.close(key.fd)
    for pid, _ in children:
        end_group(pid)
        os.waitpid(pid, 0)
    data = b"".join(b"".join(parts) + b"\n" for parts in chunks.values())
    return [json.loads(line) for line in data.splitlines() if line.strip()]


def read_ready(fd: int) -> bytes:
    """Whatever is already waiting in a pipe, without blocking."""
    ready, _, _ = select.select([fd], [], [], 0)
    return os.read(fd, 65536) if ready else b""


def own_path(copy: Path, path: str) -> Path:
    """`path` in the copy, its folders made real: a folder the project has as a symbolic link is
    replaced by a copy of what it leads to, so that nothing written there lands outside the copy."""
    folder = copy
    for part in Path(path).parts[:-1]:
        folder = folder / part
        if folder.is_symlink():
            linked = folder.resolve()
            folder.unlink()
            if linked.is_dir():
                shutil.copytree(linked, folder, symlinks=True)
        folder.mkdir(exist_ok=True)
    return folder / Path(path).name


def _writes(sources: dict[str, str], mutant: dict[str, Any]) -> list[list[Any]]:
    """The files a fallback mutant writes: path, text (None: removed), encoding and link target."""
    if mutant["edit"] is None:
        return mutant["writes"]
    start, end, replacement = mutant["edit"]
    source = sources[mutant["file"]]
    return [[mutant["file"], source[:start] + replacement + source[end:], mutant["encoding"], None]]


def start_fallback(
    spec: HostSpec,
    sources: dict[str, str],
    mutant: dict[str, Any],
    tests: list[str],
    limits: list[float],
    collect_all: bool = False,
) -> tuple[subprocess.Popen, int, str]:
    """A scratch copy of the scratch copy with the mutant's files written (or removed), where a fresh host runs
    `tests` (node ids) under their `limits`, having collected only them or, with `collect_all`, the
    whole suite as the run's host did: the process, its pipe's read end and the copy's folder.
    The copy lives in the run's folder, under a name that says nothing of the mutant."""
    scratch = tempfile.mkdtemp(prefix="fallback-", dir=spec.scratch)  # removed with the run's folder
    project = Path(scratch) / "project"
    # The project's folder, not the working directory: a conftest may have changed directory.
    shutil.copytree(spec.project, project, symlinks=True)
    for path, text, encoding, link in _writes(sources, mutant):
        target = own_path(project, path)
        if target.is_symlink() or (target.exists() and (text is None or link is not None)):
            target.unlink()  # a link is replaced, never written through
        if link is not None:
            target.symlink_to(link)
        elif text is not None:
            target.write_text(text, encoding=encoding)
        remove_bytecode(target)
    roots = [*map(Path, spec.project_roots), Path(spec.project)]  # its imports move on to its own copy
    read_fd, write_fd = os.pipe()
    fallback_spec = _fallback_spec(spec, tests, limits, collect_all, write_fd, scratch)
    fallback_spec.project, fallback_spec.project_roots = str(project), [str(root) for root in roots]
    fallback_spec.removed = [path for path, text, _, _ in _writes(sources, mutant) if text is None]  # nor in the roots
    spec_path = Path(scratch) / "spec.json"
    fallback_spec.write(spec_path)
    with (Path(scratch) / "host.log").open("w", encoding="utf-8") as log:
        process = subprocess.Popen(
            host_command(spec_path),
            cwd=project,
            pass_fds=[write_fd],
            stdout=log,
            stderr=subprocess.STDOUT,
            process_group=0,
            env={**Relocation(roots, project).environment(os.environ), "PYTHONDONTWRITEBYTECODE": "1"},
        )
    os.close(write_fd)
    return process, read_fd, scratch


def start_forked_fallback(
    server: ForkServer,
    spec: HostSpec,
    sources: dict[str, str],
    mutant: dict[str, Any],
    tests: list[str],
    limits: list[float],
) -> tuple[int, int, str]:
    """A fresh host from the fork server, in the run's own copy, importing the mutant's file from its
    mutated text and running `tests` among the whole suite it collects: its pid, its pipe's read end
    and its folder (its spec and log)."""
    scratch = tempfile.mkdtemp(prefix="fallback-", dir=spec.scratch)
    read_fd, write_fd = os.pipe()
    fresh_spec = _fallback_spec(spec, tests, limits, True, write_fd, scratch)
    ((_, text, _, _),) = _writes(sources, mutant)
    fresh_spec.replaced = {mutant["path"]: text}
    spec_path = Path(scratch) / "spec.json"
    fresh_spec.write(spec_path)
    try:
        pid = server.fresh_host(spec_path, write_fd)
    except (OSError, ValueError):
        os.close(read_fd)
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    finally:
        os.close(write_fd)
    place_in_own_group(pid)
    return pid, read_fd, scratch


def _fallback_spec(
    spec: HostSpec, tests: list[str], limits: list[float], collect_all: bool, events_fd: int, scratch: str
) -> HostSpec:
    """A fallback host's spec, in the run's copy until moved."""
    return HostSpec(
        mode=TESTS,
        events_fd=events_fd,
        project=spec.project,
        scratch=scratch,
        pytest_args=spec.pytest_args,
        project_roots=spec.project_roots,
        parent=os.getpid(),
        bail=spec.bail,
        tests=tests,
        test_paths=spec.test_paths if collect_all else [],
        limits=limits,
        reported_as=spec.project,
    )


def absorb(child: Child, data: bytes) -> None:
    """Take in what a child said: whole lines are read, the rest waits for the next chunk."""
    child.buffer += data
    *lines, child.buffer = child.buffer.split(b"\n")
    for line in lines:
        if not line.strip():
            continue
        event = json.loads(line)
        if "broken" in event:
            child.broken = event["broken"]
        elif "fixture" in event:
            child.fixture_events.append(event)
            child.needs_the_file = child.needs_the_file or _needs_the_file(event["seen"])
        elif event.get("needs_the_file"):
            child.needs_the_file = True
        elif event.get("done"):
            child.finished = True
        elif event.get("running"):
            index = event["test"]
            child.running = child.selected[index] if child.fresh_host else index
        elif "outcome" in event:
            index = event.get("test")
            if child.fresh_host:
                index = child.selected[index]
            child.outcomes[index] = event["outcome"]
            child.durations[index] = event["duration"]
            if event.get("witness"):
                child.witnesses[index] = event["witness"]
            if "ran" in event:
                child.ran[index] = event["ran"]
            if "seen" in event:
                child.seen[index] = event["seen"]
                child.needs_the_file = child.needs_the_file or _needs_the_file(event["seen"])
            child.running = None


def _needs_the_file(seen: dict[str, list[str]]) -> bool:
    """Whether what a sink did needs the mutated file on disk: a process it started imports the file
    there, and a loader that opened the file itself read the original (see `replaced_source`)."""
    return bool(NEEDS_THE_FILE.intersection(seen.get("unfollowed", ())))


def _log_lines(log: Path) -> list[str]:
    return log_tail(log).splitlines()


def _died_in_a_test(child: Child, status: int) -> bool:
    """A process that a signal ended while it ran a test (a segfault, an abort): that test failed, as
    a plain pytest run would have died in it. Its witness names the signal."""
    if child.running is None or child.finished:
        return False
    number = -status if child.process is not None else (os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0)
    if number <= 0:
        return False
    name = signal.Signals(number).name if number in signal.valid_signals() else f"signal {number}"
    child.outcomes[child.running] = FAILED
    child.durations.setdefault(child.running, 0.0)
    child.witnesses[child.running] = f"{name} ({signal.strsignal(number)}): the test process died in this test"
    child.running = None
    child.crashed = True
    return True


def reap(child: Child, timed_out: bool) -> None:
    """Stop (if it timed out) and wait for a child, and kill what is left of its group; note how it ended."""
    if timed_out:
        kill_group(child.pid)
        child.timed_out = True
        # Hung in a test, or between two (then the one it was about to run is blamed): either
        # way a test's outcome says so, and the matrix never has a time-out without a test.
        pending = [index for index in child.selected if index not in child.outcomes]
        blamed = child.running if child.running is not None else next(iter(pending), None)
        if blamed is not None:
            child.outcomes[blamed] = TIMEOUT
    os.close(child.read_fd)
    end_group(child.pid)
    status = child.process.wait() if child.process is not None else os.waitpid(child.pid, 0)[1]
    if not (timed_out or child.finished or child.broken or _died_in_a_test(child, status)):
        said = last_error(_log_lines(Path(child.scratch) / "host.log")) if child.scratch else None
        ended = (
            f"test process exited with {status}"
            if child.process
            else f"test process ended early (wait status {status})"
        )
        child.broken = said or ended
    if child.scratch is not None:
        # a process a fresh host's test forked needed the file on disk where no sink's end said so (killed, crashed)
        child.needs_the_file = child.needs_the_file or (Path(child.scratch) / DISK_SOURCE_MARK).exists()
        shutil.rmtree(child.scratch, ignore_errors=True)
