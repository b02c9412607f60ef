"""The artifact's status file: how far the pull-request job got, for the comment job to report.

Standard library only: it runs before mutcheck is installed, so an install that fails is reported too.
Usage: status.py OUT begin STAGE | status.py OUT end STAGE EXIT_STATUS ERRORS_FILE
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

STATUS_FILE = "status.json"
RESULTS_FILE = "results.json"
PR_NUMBER_FILE = "pr-number"
STAGES = ("install", "run", "merge")
ERROR_LINES = 5  # the last lines of mutcheck's errors worth showing
LINE_LIMIT = 300


def _head_sha() -> str | None:
    """The commit checked out, else (a job that checks nothing out, like the shards' merge) the
    pull request's head as the event names it."""
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        sha = _event_head_sha()
    return sha if isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{40}", sha) else None


def _event_head_sha() -> object:
    try:
        event = json.loads(Path(os.environ["GITHUB_EVENT_PATH"]).read_text(encoding="utf-8"))
        return event["pull_request"]["head"]["sha"]
    except (KeyError, OSError, ValueError, TypeError):
        return None


def _errors(path: Path) -> list[str]:
    """mutcheck's `error:` lines (else the last lines it printed), each capped."""
    try:
        lines = [line.strip() for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]
    except OSError:
        return []
    lines = [line for line in lines if line]
    chosen = [line for line in lines if line.startswith("error:")] or lines
    return [line[:LINE_LIMIT] for line in chosen[-ERROR_LINES:]]


def main(arguments: list[str]) -> None:
    out, moment, stage, *rest = arguments
    if moment not in ("begin", "end") or stage not in STAGES:
        sys.exit(f"status.py: unknown moment or stage: {moment} {stage}")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    number = os.environ.get("PR_NUMBER", "")
    if moment == "begin" and re.fullmatch(r"[1-9][0-9]{0,8}", number):
        (folder / PR_NUMBER_FILE).write_text(number + "\n", encoding="ascii")
    status = {"stage": stage, "finished": False, "exit_status": None, "errors": [], "head_sha": _head_sha()}
    if moment == "end":
        exit_status, errors_file = rest
        status.update(
            finished=(folder / RESULTS_FILE).is_file(), exit_status=int(exit_status), errors=_errors(Path(errors_file))
        )
    (folder / STATUS_FILE).write_text(json.dumps(status, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
