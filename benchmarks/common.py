"""Shared pieces of the benchmark scripts: scratch copies of this repository and timed runs."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY / "src"))

from mutcheck.scratch import copy_project  # noqa: E402


def scratch_repository() -> Path:
    return copy_project(REPOSITORY, Path(tempfile.mkdtemp(prefix="mutcheck-bench-")) / "project")


def run_mutcheck(project: Path, *args: str) -> tuple[float, dict]:
    """Wall seconds of a whole `mutcheck run`, and its results document."""
    results = project.parent / f"results-{time.monotonic_ns()}.json"
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mutcheck", "run", "--project", str(project), "--json", str(results), *args],
        check=False,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    return time.perf_counter() - start, json.loads(results.read_text(encoding="utf-8"))


def cleanup(project: Path) -> None:
    shutil.rmtree(project.parent, ignore_errors=True)
