"""The suite's test ids, as pytest collects them in a separate process in a scratch copy, and whose
fault a failed collection is."""

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from mutcheck.config import Config
from mutcheck.imports import Relocation
from mutcheck.lab import scratch_folder
from mutcheck.problems import InputError, Problem
from mutcheck.scratch import copy_project


def _collect(cwd: Path, arguments: list[str], environment: Mapping[str, str]) -> tuple[set[str], str | None]:
    """The collected ids, and the end of pytest's output when collection failed (None when it did not)."""
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *arguments]
    completed = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, errors="replace", check=False, env=dict(environment)
    )
    ids = {line.strip() for line in completed.stdout.splitlines() if "::" in line and not line.startswith(" ")}
    if completed.returncode != 0 or not ids:
        return ids, " | ".join((completed.stdout + completed.stderr).strip().splitlines()[-5:])
    return ids, None


def pytest_args_problem(config: Config, cwd: Path, environment: Mapping[str, str], failure: str) -> Problem | None:
    """After pytest failed (`failure`: what it said) with the configured arguments: a problem naming
    `pytest_args` when the suite collects without them, else None (the suite itself is at fault)."""
    if not config.pytest_args or _collect(cwd, list(config.tests), environment)[1] is not None:
        return None
    return Problem("pyproject.toml", "", "tool.mutcheck.pytest_args", f"pytest refuses them: {failure}")


def collect_test_ids(config: Config) -> set[str]:
    """The ids pytest collects with the configured test paths and arguments, or InputError naming
    the key at fault. Collection imports the project's test modules, which may write files: it
    runs in a copy, like a run."""
    with scratch_folder() as folder:
        copy = folder / "project"
        copy_project(config.root, copy)
        environment = {**Relocation([config.root], copy).environment(os.environ), "PYTHONDONTWRITEBYTECODE": "1"}
        ids, failure = _collect(copy, [*config.tests, *config.pytest_args], environment)
        if failure is None:
            return ids
        problem = pytest_args_problem(config, copy, environment, failure)
    raise InputError([problem or Problem("pyproject.toml", "", "tool.mutcheck.tests", f"collection failed: {failure}")])
