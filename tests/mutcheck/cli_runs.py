"""mutcheck's commands run on a fixture project, and what tests read of their results."""

import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from mutcheck.cli import main
from tests.mutcheck.results_docs import document


def run(project: Path, *args: str) -> tuple[int, str, dict]:
    """`mutcheck run` in this process: exit status, output, and the results it wrote ({} if none)."""
    results_path = project.parent / f"results-{time.monotonic_ns()}.json"
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--json", str(results_path), *args])
    data = document(results_path) if results_path.exists() else {}
    return result.exit_code, result.output, data


def mutant(data: dict, mutant_id: str) -> dict:
    return next(entry for entry in data["mutants"] if entry["id"] == mutant_id)


def outcome(data: dict, entry: dict, test_name: str) -> str:
    index = next(i for i, test in enumerate(data["tests"]) if test.endswith("::" + test_name))
    return entry["outcomes"].get(str(index), "unselected")


def mutcheck(project: Path, *args: str) -> subprocess.CompletedProcess:
    """mutcheck as a user runs it: its own process, in the project's folder."""
    return subprocess.run(
        [sys.executable, "-m", "mutcheck", *args], cwd=project, capture_output=True, text=True, timeout=300
    )
