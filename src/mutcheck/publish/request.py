"""What `mutcheck comment` needs before it may talk to GitHub: one results source, the pull request
(given, from the artifact, or from Actions' GITHUB_REF), the repository and a token."""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mutcheck.core.problems import InputError, Problem
from mutcheck.results.artifact import NotRun, read_artifact
from mutcheck.results.model import Results
from mutcheck.results.results import load_results

_PULL_REF = re.compile(r"refs/pull/([0-9]+)/(?:merge|head)")


@dataclass(frozen=True)
class CommentRequest:
    results: "Results | NotRun"
    repository: str
    pr_number: int
    token: str


def comment_request(
    repository: str | None,
    pr_number: int | None,
    results_path: Path | None,
    artifact: Path | None,
    head_sha: str | None,
    environ: Mapping[str, str],
) -> CommentRequest:
    """The request, or every missing or contradicting input at once as InputError."""
    if (results_path is None) == (artifact is None):
        raise InputError([Problem("comment", "", "--results", "give exactly one of --results or --from-artifact")])
    if artifact is not None:
        results, artifact_number = read_artifact(artifact)
        if head_sha is None:
            raise InputError([Problem("comment", "", "--head-sha", "required with --from-artifact")])
        if pr_number is not None and pr_number != artifact_number:
            raise InputError([Problem(str(artifact), "", "pr-number", f"says #{artifact_number}, not #{pr_number}")])
        pr_number = artifact_number
    else:
        results = load_results(results_path)
    if pr_number is None and (match := _PULL_REF.fullmatch(environ.get("GITHUB_REF", ""))):
        pr_number = int(match.group(1))  # inside Actions, on a pull_request event
    token = environ.get("GITHUB_TOKEN")
    missing = [
        name for name, value in (("--repo", repository), ("--pr", pr_number), ("GITHUB_TOKEN", token)) if not value
    ]
    if missing:
        raise InputError([Problem("comment", "", name, "required") for name in missing])
    return CommentRequest(results, repository, pr_number, token)
