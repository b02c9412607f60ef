"""The suite's test ids, as pytest collects them in a separate process."""

import os
import subprocess
import sys

from mutcheck.config import Config
from mutcheck.problems import InputError, Problem


def collect_test_ids(config: Config) -> set[str]:
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *config.tests]
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    completed = subprocess.run(command, cwd=config.root, capture_output=True, text=True, check=False, env=environment)
    ids = {line.strip() for line in completed.stdout.splitlines() if "::" in line and not line.startswith(" ")}
    if completed.returncode != 0 or not ids:
        tail = (completed.stdout + completed.stderr).strip().splitlines()[-5:]
        raise InputError(
            [Problem("pyproject.toml", "", "tool.mutcheck.tests", "collection failed: " + " | ".join(tail))]
        )
    return ids
