"""The artifact an untrusted pull-request run uploads: bounded, validated, never executed.

It holds the PR number, a status file (how far the run got) and, when mutcheck finished, its
results; a run that failed before writing results is reported from the status file alone.
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mutcheck.core.problems import InputError, Problem
from mutcheck.results.model import Results
from mutcheck.results.results import load_results

RESULTS_FILE = "results.json"
PR_NUMBER_FILE = "pr-number"
STATUS_FILE = "status.json"
RESULTS_LIMIT = 20 * 1024 * 1024
STATUS_LIMIT = 64 * 1024
STAGES = ("install", "run", "merge")  # as .github/actions/run/status.py writes them
ERROR_LINES = 5
_PR_NUMBER = re.compile(r"^[1-9][0-9]{0,8}$")  # no 0, no leading zeros
_SHA = re.compile(r"^[0-9a-f]{40}$")


@dataclass(frozen=True)
class NotRun:
    """A run that wrote no results: the stage it failed in, its exit status and its error lines (untrusted)."""

    stage: str
    exit_status: int | None
    errors: tuple[str, ...]
    head_sha: str | None


def read_artifact(directory: Path) -> tuple[Results | NotRun, int]:
    """(results, or why there are none; pull request number) from a downloaded artifact directory."""
    results_path = directory / RESULTS_FILE
    number_path = directory / PR_NUMBER_FILE
    status_path = directory / STATUS_FILE
    _check_regular(number_path)
    text = number_path.read_text(encoding="ascii", errors="replace").strip() if number_path.stat().st_size < 64 else ""
    if not _PR_NUMBER.match(text):
        raise InputError([Problem(str(number_path), "", "", "not a pull request number (digits only)")])
    if not results_path.exists() and status_path.exists():
        return _read_status(status_path), int(text)
    _check_regular(results_path)
    size = results_path.stat().st_size
    if size > RESULTS_LIMIT:
        raise InputError([Problem(str(results_path), "", "", f"{size} bytes, over the {RESULTS_LIMIT}-byte limit")])
    return load_results(results_path), int(text)


def _check_regular(path: Path) -> None:
    if not path.is_file() or path.is_symlink():
        raise InputError([Problem(str(path), "", "", "missing from the artifact (or not a regular file)")])


def _read_status(path: Path) -> NotRun:
    _check_regular(path)
    if path.stat().st_size > STATUS_LIMIT:
        raise InputError([Problem(str(path), "", "", f"over the {STATUS_LIMIT}-byte limit")])
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise InputError([Problem(str(path), "", "", f"not JSON ({type(error).__name__})")]) from error

    def field(name: str, valid: Any) -> Any:
        value = data.get(name) if isinstance(data, dict) else None
        if not valid(value):
            raise InputError([Problem(str(path), "", name, "missing or of the wrong type")])
        return value

    if field("finished", lambda value: isinstance(value, bool)):
        raise InputError([Problem(str(path), "", "finished", f"says the run finished, but {RESULTS_FILE} is missing")])
    stage = field("stage", lambda value: value in STAGES)
    exit_status = field("exit_status", lambda value: value is None or (type(value) is int and 0 <= value < 256))
    errors = field("errors", lambda value: isinstance(value, list) and all(isinstance(line, str) for line in value))
    head_sha = field("head_sha", lambda value: value is None or (isinstance(value, str) and _SHA.match(value)))
    return NotRun(stage, exit_status, tuple(errors[-ERROR_LINES:]), head_sha)
