"""The artifact an untrusted pull-request run uploads: bounded, validated, never executed."""

import re
from pathlib import Path
from typing import Any

from mutcheck.problems import InputError, Problem
from mutcheck.results import load_results

RESULTS_FILE = "results.json"
PR_NUMBER_FILE = "pr-number"
RESULTS_LIMIT = 20 * 1024 * 1024
_PR_NUMBER = re.compile(r"^[1-9][0-9]{0,8}$")  # no 0, no leading zeros


def read_artifact(directory: Path) -> tuple[dict[str, Any], int]:
    """(results, pull request number) from a downloaded artifact directory."""
    results_path = directory / RESULTS_FILE
    number_path = directory / PR_NUMBER_FILE
    for path in (results_path, number_path):
        if not path.is_file() or path.is_symlink():
            raise InputError([Problem(str(path), "", "", "missing from the artifact (or not a regular file)")])
    size = results_path.stat().st_size
    if size > RESULTS_LIMIT:
        raise InputError([Problem(str(results_path), "", "", f"{size} bytes, over the {RESULTS_LIMIT}-byte limit")])
    text = number_path.read_text(encoding="ascii", errors="replace").strip() if number_path.stat().st_size < 64 else ""
    if not _PR_NUMBER.match(text):
        raise InputError([Problem(str(number_path), "", "", "not a pull request number (digits only)")])
    return load_results(results_path), int(text)
