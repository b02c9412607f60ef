"""An install line proven as CI will use it: a fresh virtual environment, built from the line in a
scratch copy of the project, collects the tests."""

import subprocess
import sys
from pathlib import Path

from mutcheck.catalog.config import Config
from mutcheck.sandbox.lab import scratch_folder
from mutcheck.sandbox.scratch import copy_project

_STEP_LIMIT = 1800.0  # seconds for one step (an install may download much); then it counts as failed


def install_problem(config: Config, line: str) -> str | None:
    """Why the environment pip builds from `line` (its arguments, split on spaces as the workflow
    splits them; pytest added, as mutcheck brings it) does not collect the suite; None when it does."""
    with scratch_folder() as folder:
        copy = folder / "project"
        copy_project(config.root, copy)
        python = folder / "venv" / "bin" / "python"
        made = _step([sys.executable, "-m", "venv", str(folder / "venv")], copy)
        if made.returncode != 0:
            return f"no virtual environment could be made here: {_last_line(made)}"
        pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "pytest", *line.split()]
        installed = _step(pip, copy)
        if installed.returncode != 0:
            return f"pip could not install it: {_last_line(installed)}"
        collect = [str(python), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        collected = _step([*collect, *config.pytest_args, *config.tests], copy)
        if collected.returncode != 0:
            return f"collecting {', '.join(config.tests)} there fails: {_first_error(collected)}"
    return None


def _step(command: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=_STEP_LIMIT)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, 1, "", f"did not finish in {_STEP_LIMIT:.0f} s")


def _last_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR")]
    return (errors or lines or [f"exit status {done.returncode}"])[-1]


def _first_error(done: subprocess.CompletedProcess[str]) -> str:
    """The first exception pytest reports (`E   ModuleNotFoundError: …`), else its last line."""
    for line in done.stdout.splitlines():
        if line.startswith("E ") and "Error" in line:
            return line[1:].strip()
    return _last_line(done)
