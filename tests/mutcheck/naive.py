"""The naive answer mutcheck must equal: per mutant, a scratch copy of the project with the mutant's
files written and one fresh pytest over the whole suite, with the project's own configuration, every
test run even where that configuration stops at the first failure (`-x`, `--maxfail`). The
tests that failed are read from a small plugin's record (the test a crashed process was running
counts as failed, as it does in a run), never from pytest's printed output."""

import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from mutcheck.catalog.catalog import load_catalog
from mutcheck.mutation.mutate import apply_mutant

_PLUGIN = """\
import ctypes
import os
import signal

_RECORD = os.environ["MUTCHECK_NAIVE_RECORD"]
# a test worker killed outright takes this run with it (a mutant that loops would run on), done here
# and not by importing mutcheck, so that the plain run loads nothing of mutcheck's (Linux: prctl)
_prctl = getattr(ctypes.CDLL(None), "prctl", None)
if _prctl is not None:
    _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
if os.getppid() != int(os.environ["MUTCHECK_NAIVE_PARENT"]):
    os._exit(1)


def _write(line):
    with open(_RECORD, "a", encoding="utf-8") as record:
        record.write(line + "\\n")


def pytest_runtest_logstart(nodeid, location):
    _write("start " + nodeid)


def pytest_runtest_logreport(report):
    _write("took %r %s" % (report.duration, report.nodeid))
    if report.failed:
        _write("failed " + report.nodeid)


def pytest_runtest_logfinish(nodeid, location):
    _write("finish " + nodeid)
"""


@dataclass(frozen=True)
class NaiveRun:
    failed: set[str]  # node ids
    status: int  # pytest's exit status (negative: the signal that ended it; None: it outlived the limit)
    seconds: float
    started: frozenset[str] = frozenset()  # the tests it got to (all of them, unless it was stopped)
    durations: dict[str, float] = field(default_factory=dict)  # per test, its phases' seconds together

    @property
    def broken(self) -> bool:
        """No test could run: the suite does not collect (or pytest refused to start)."""
        return not self.failed and self.status not in (0, 1, 5)


@functools.cache
def _path_entries() -> tuple[str, ...]:
    """This interpreter's import path as a fresh process has it (site-packages' `.pth` files read)."""
    command = [sys.executable, "-c", "import json, sys; print(json.dumps(sys.path))"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    return tuple(entry for entry in json.loads(done.stdout) if entry)


def _within(entry: str, project: Path) -> bool:
    try:
        Path(entry).resolve().relative_to(project.resolve())
    except ValueError:
        return False
    return True


def naive_failures(project: Path, writes: list[tuple[str, str | None, str]], tests: list[str]) -> set[str]:
    """The node ids that fail when `writes` ((path, text or None to remove, encoding)) are applied to
    a copy of `project` and pytest runs `tests` there once."""
    return naive_run(project, writes, tests).failed


def naive_run(
    project: Path, writes: list[tuple[str, str | None, str]], tests: list[str], limit: float | None = None
) -> NaiveRun:
    """`naive_failures`, with pytest's exit status and the run's seconds; a run that outlives `limit`
    seconds is stopped (status None) with the failures recorded until then."""
    with tempfile.TemporaryDirectory(prefix="mutcheck-naive-") as folder:
        copy = Path(folder) / "project"
        shutil.copytree(project, copy, symlinks=True, ignore=shutil.ignore_patterns(".git", "__pycache__"))
        for path, text, encoding in writes:
            if text is None:
                (copy / path).unlink()
            else:
                (copy / path).write_text(text, encoding=encoding)
        (Path(folder) / "mutcheck_naive_record.py").write_text(_PLUGIN, encoding="utf-8")
        record = Path(folder) / "record.txt"
        record.touch()
        # An editable install's path entry leads into the project: the copy's counterpart goes first.
        inside = [
            copy / Path(entry).resolve().relative_to(project.resolve())
            for entry in _path_entries()
            if _within(entry, project)
        ]
        environment = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([folder, *map(str, inside), os.environ.get("PYTHONPATH", "")]),
            "MUTCHECK_NAIVE_RECORD": str(record),
            "MUTCHECK_NAIVE_PARENT": str(os.getpid()),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        # after the project's addopts, so it wins over a `-x` there: the matrix is every test's outcome
        # (mutcheck's runs do not stop at a failure either; a verdict is the same either way)
        command = [sys.executable, "-m", "pytest", "-p", "mutcheck_naive_record", "-p", "no:cacheprovider"]
        command += ["--maxfail=0", *tests]
        started_at = time.monotonic()
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        process = subprocess.Popen(command, cwd=copy, env=environment, start_new_session=True, **quiet)
        try:
            status = process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            status = None
        finally:
            with contextlib.suppress(ProcessLookupError):  # whatever the suite started goes with it
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        failed, started, running, durations = set(), set(), None, {}
        for line in record.read_text(encoding="utf-8").splitlines():
            kind, _, nodeid = line.partition(" ")
            if kind == "took":
                seconds, _, nodeid = nodeid.partition(" ")
                durations[nodeid] = durations.get(nodeid, 0.0) + float(seconds)
            elif kind == "start":
                running = nodeid
                started.add(nodeid)
            elif kind == "failed":
                failed.add(nodeid)
            elif kind == "finish":
                running = None
        if running is not None:  # the process died in this test, or outlived the limit in it
            failed.add(running)
        return NaiveRun(failed, status, time.monotonic() - started_at, frozenset(started), durations)


def naive_run_of(project: Path, mutant_id: str, tests: list[str], limit: float | None = None) -> NaiveRun:
    """`naive_run` under the catalog entry `mutant_id` of the project's `mutants/` catalog."""
    (entry,) = [
        entry for entry in load_catalog(project / "mutants", project, ("en", "zh")).mutants if entry.id == mutant_id
    ]
    writes = [(edit.path, edit.text, edit.encoding) for edit in apply_mutant(entry, project).files_written()]
    return naive_run(project, writes, tests, limit)
