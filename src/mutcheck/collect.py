"""The suite's test ids, as pytest collects them in a separate process, in a scratch copy."""

import os
import subprocess
import sys

from mutcheck.config import Config
from mutcheck.imports import Relocation
from mutcheck.lab import scratch_folder
from mutcheck.problems import InputError, Problem
from mutcheck.scratch import copy_project


def collect_test_ids(config: Config) -> set[str]:
    """Collection imports the project's test modules, which may write files: in a copy, like a run."""
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *config.tests]
    with scratch_folder() as folder:
        copy = folder / "project"
        copy_project(config.root, copy)
        environment = {**Relocation([config.root], copy).environment(os.environ), "PYTHONDONTWRITEBYTECODE": "1"}
        completed = subprocess.run(command, cwd=copy, capture_output=True, text=True, check=False, env=environment)
    ids = {line.strip() for line in completed.stdout.splitlines() if "::" in line and not line.startswith(" ")}
    if completed.returncode != 0 or not ids:
        tail = (completed.stdout + completed.stderr).strip().splitlines()[-5:]
        raise InputError(
            [Problem("pyproject.toml", "", "tool.mutcheck.tests", "collection failed: " + " | ".join(tail))]
        )
    return ids
