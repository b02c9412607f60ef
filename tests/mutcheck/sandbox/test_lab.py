"""Scratch folders of runs killed outright are removed by the next run."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mutcheck.sandbox.lab import make_folder, remove_stale
from tests.mutcheck.engine_project import make_engine_project

MAKE_AND_EXIT = "from mutcheck.sandbox.lab import make_folder; print(make_folder())"


def test_only_folders_of_ended_processes_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    environment = {**os.environ, "TMPDIR": str(tmp_path)}
    ended = Path(
        subprocess.run(
            [sys.executable, "-c", MAKE_AND_EXIT], env=environment, capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    mine = make_folder()
    unmarked = tmp_path / "mutcheck-unmarked"
    unmarked.mkdir()
    assert ended.is_dir()
    assert remove_stale() == [ended]
    assert not ended.exists() and mine.is_dir() and unmarked.is_dir()


def test_a_run_killed_outright_leaves_nothing_once_the_next_run_ends(tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    project = make_engine_project(tmp_path / "project")
    environment = {**os.environ, "TMPDIR": str(temporary), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "mutcheck", "run", "--project", str(project)]
    killed = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    deadline = time.monotonic() + 60
    while not list(temporary.glob("mutcheck-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # into the baseline or the mutants
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    left = list(temporary.glob("mutcheck-*"))
    assert left, "the killed run had made its scratch folder"
    subprocess.run([*command, "--only", "SWAP"], capture_output=True, env=environment, check=False, timeout=120)
    time.sleep(0.5)  # an orphaned host of the killed run notices and stops
    subprocess.run([*command, "--only", "SWAP"], capture_output=True, env=environment, check=False, timeout=120)
    assert list(temporary.glob("mutcheck-*")) == []
