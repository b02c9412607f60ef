"""Python processes that a test starts (a CLI test's `sys.executable -m pkg.cli`, a `multiprocessing`
pool's forked workers): the environment that makes them import the run's copy too (through
`boot/sitecustomize.py`, the way coverage.py follows subprocesses), and in the baseline the target
code each one ran, counted for the test that started it.

A swap lives in one process's memory, so a mutant whose code a test reaches in a subprocess runs on
the fallback path, where the mutated file is what every process imports.
"""

import atexit
import json
import os
import signal
from pathlib import Path

from mutcheck.core.atomic_write import write_atomically
from mutcheck.host.reach import Reach
from mutcheck.host.wire import HostSpec, SubprocessSpec
from mutcheck.sandbox.imports import redirect_imports

BOOT = str(Path(__file__).resolve().parent / "boot")
_SPEC = "MUTCHECK_SUBPROCESS"
_TEST = "MUTCHECK_TEST"


def follow_subprocesses(spec: HostSpec) -> Path:
    """In a host, after its own imports are redirected: every Python process started from now on
    (by its tests, in its children) imports from the host's copy. Returns the folder where
    subprocesses leave what they reached."""
    folder = Path(spec.scratch) / "subprocesses"
    folder.mkdir(exist_ok=True)
    path = folder / "spec.json"
    SubprocessSpec(spec.project_roots, spec.project, spec.removed, spec.target_files, str(folder)).write(path)
    os.environ[_SPEC] = str(path)
    entries = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry and entry != BOOT]
    os.environ["PYTHONPATH"] = os.pathsep.join([BOOT, *entries])
    return folder


# the baseline test running in this process: what it reached so far, the folder, its index (see `_forked`)
_RUNNING: tuple[Reach, Path, int] | None = None
_FORKED = "fork-"  # how the records of forked processes start
_FOLLOWING_FORKS = False


class SubprocessReach:
    """In a baseline child: which target functions the subprocesses of each test ran (those that
    ended before the test did; one still running is not waited for), the processes it forked
    (a `multiprocessing` pool's workers) among them."""

    def __init__(self, folder: Path, reach: Reach) -> None:
        global _FOLLOWING_FORKS
        self.folder = folder
        self.reach = reach
        if not _FOLLOWING_FORKS:  # a hook stays for the process's life: one, that reads `_RUNNING`
            os.register_at_fork(after_in_child=_forked)
            _FOLLOWING_FORKS = True

    def start_test(self, index: int) -> None:
        global _RUNNING
        os.environ[_TEST] = str(index)
        _RUNNING = (self.reach, self.folder, index)

    def stop_test(self, index: int) -> tuple[list[str], list[str]]:
        """What the test's subprocesses ran, and what the processes it forked ran (they run the host's
        code as it was when forked, a mutant's swap included)."""
        global _RUNNING
        _RUNNING = None
        os.environ.pop(_TEST, None)
        reached: set[str] = set()
        forked: set[str] = set()
        ending = f"-{index}.json"
        # a listing, not a glob: a glob compiles a pattern per test, a tenth of a large suite's baseline
        try:
            names = os.listdir(self.folder)
        except FileNotFoundError:  # removed by a test: nothing is left to read
            names = []
        for path in [self.folder / name for name in names if name.endswith(ending)]:
            try:
                (forked if path.name.startswith(_FORKED) else reached).update(
                    json.loads(path.read_text(encoding="utf-8"))
                )
                path.unlink()
            except (OSError, ValueError):  # being written by a process that is still ending
                continue
        return sorted(reached), sorted(forked)


def _forked() -> None:
    """In a process a baseline test forked: it runs on with the test's watch (monitoring and trace
    functions are inherited), so what it reached is written when it ends, for that test: at
    `os._exit`, the way a `multiprocessing` worker ends, at exit, or at the SIGTERM a pool's
    `terminate()` sends (where the project set no handler of its own)."""
    if _RUNNING is None:
        return
    reach, folder, index = _RUNNING
    record = folder / f"{_FORKED}{os.getpid()}-{index}.json"
    end = os._exit

    def write() -> None:
        write_atomically(record, json.dumps(sorted(reach.current)).encode("utf-8"))

    def exit_after_writing(code: int) -> None:
        try:
            write()
        finally:
            end(code)

    def end_on_signal(signum: int, _frame: object) -> None:
        write()
        signal.signal(signum, signal.SIG_DFL)  # then end as the signal would have ended it
        os.kill(os.getpid(), signum)

    os._exit = exit_after_writing
    atexit.register(write)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:  # a pool's `terminate()`, as its `with` ends
        signal.signal(signal.SIGTERM, end_on_signal)


def start_in_subprocess(spec_path: str) -> None:
    """In a Python process a test started (from `boot/sitecustomize.py`): imports from the copy, and
    in the baseline a record of the target code it runs, written when it exits."""
    spec = SubprocessSpec.read(Path(spec_path))
    redirect_imports([Path(root) for root in spec.roots], Path(spec.project), spec.removed)
    test = os.environ.get(_TEST)
    if test is None or not spec.target_files:
        return
    reach = Reach(set(spec.target_files))
    reach.start_test()
    record = Path(spec.reached) / f"{os.getpid()}-{test}.json"

    def write() -> None:
        write_atomically(record, json.dumps(reach.stop_test().covered).encode("utf-8"))  # read only once whole

    atexit.register(write)
