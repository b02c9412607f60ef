"""The naive answer mutcheck must equal: per mutant, a scratch copy of the project with the mutant's
files written and one fresh pytest over the whole suite, with the project's own configuration. The
tests that failed are read from a small plugin's record (the test a crashed process was running
counts as failed, as it does in a run), never from pytest's printed output."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_PLUGIN = """\
import os

_RECORD = os.environ["MUTCHECK_NAIVE_RECORD"]


def _write(line):
    with open(_RECORD, "a", encoding="utf-8") as record:
        record.write(line + "\\n")


def pytest_runtest_logstart(nodeid, location):
    _write("start " + nodeid)


def pytest_runtest_logreport(report):
    if report.failed:
        _write("failed " + report.nodeid)


def pytest_runtest_logfinish(nodeid, location):
    _write("finish " + nodeid)
"""


def naive_failures(project: Path, writes: list[tuple[str, str | None, str]], tests: list[str]) -> set[str]:
    """The node ids that fail when `writes` ((path, text or None to remove, encoding)) are applied to
    a copy of `project` and pytest runs `tests` there once."""
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
        environment = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([folder, os.environ.get("PYTHONPATH", "")]),
            "MUTCHECK_NAIVE_RECORD": str(record),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        command = [sys.executable, "-m", "pytest", "-p", "mutcheck_naive_record", "-p", "no:cacheprovider", *tests]
        subprocess.run(command, cwd=copy, env=environment, capture_output=True, check=False)
        failed, running = set(), None
        for line in record.read_text(encoding="utf-8").splitlines():
            kind, _, nodeid = line.partition(" ")
            if kind == "start":
                running = nodeid
            elif kind == "failed":
                failed.add(nodeid)
            elif kind == "finish":
                running = None
        if running is not None:  # the process died in this test
            failed.add(running)
        return failed
