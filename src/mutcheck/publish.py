"""`mutcheck comment`: check what is about to be posted, then post it with the GitHub publisher."""

import os
from typing import Any

from mutcheck import github
from mutcheck.artifact import NotRun
from mutcheck.github import PublishError
from mutcheck.report.markdown import render_inline_finding, render_markdown, render_not_run, render_sentence
from mutcheck.report.texts import known_languages, run_languages

__all__ = ["PublishError", "publish"]


def is_finding_survivor(mutant: dict[str, Any]) -> bool:
    """A survivor that fails its expectation (generic ones only under --strict-generic)."""
    return mutant["verdict"] == "survived" and any(p["kind"] == "unexpected-survivor" for p in mutant["problems"])


def _findings(results: dict[str, Any]) -> list[github.InlineFinding]:
    return [
        github.InlineFinding(
            mutant["id"],
            mutant["file"],
            mutant["span"]["start_line"],
            github.inline_marker(mutant["id"]) + "\n" + render_inline_finding(results, mutant["id"]),
        )
        for mutant in results["mutants"]
        if is_finding_survivor(mutant)
    ]


def publish(
    results: dict[str, Any] | NotRun,
    repository: str,
    pr_number: int,
    token: str,
    api_url: str,
    author: str | None,
    expected_head: str | None,
    inline: bool,
    client: Any = None,
) -> str:
    """Post (or update) the comment, and inline findings if asked; returns a one-line account.

    A run that wrote no results gets a comment saying why, and leaves earlier inline findings alone."""
    # Rendered first: a defect of ours is not reported as GitHub's.
    if isinstance(results, NotRun):
        body = render_not_run(results, known_languages())  # no results name the run's languages
        made_at, findings, languages = results.head_sha, None, ()
    else:
        body = render_markdown(results)
        made_at = results["run"]["head_sha"]
        findings = _findings(results) if inline else None  # known gaps survive as catalogued: not findings
        languages = run_languages(results)
    step = "connecting to GitHub"
    try:
        client = client or github.connect(token, api_url)
        step = "reading the pull request"
        pull = client.get_repo(repository).get_pull(pr_number)
        github.check_host(pull, api_url)
        if expected_head is not None:
            _check_head(made_at, pull.head.sha, expected_head, pr_number)
        if author is None:
            step = "finding the token's login"
            author = github.ACTIONS_BOT if os.environ.get("GITHUB_ACTIONS") == "true" else client.get_user().login
            if not isinstance(author, str) or not author:
                raise PublishError("GitHub's answer names no login")
        step = "posting the comment"
        outcome = f"comment {github.upsert_comment(pull, body, author)}"
        if findings is not None:
            step = "posting inline findings"
            sha = made_at or pull.head.sha
            counts = github.sync_inline_findings(
                pull,
                sha,
                findings,
                author,
                review_body=render_sentence(languages, "inline_review", count=len(findings)),
                resolved_body=render_sentence(languages, "inline_resolved", sha=sha),
            )
            outcome += "; inline: " + ", ".join(f"{count} {kind}" for kind, count in counts.items())
    except PublishError as error:  # one of our refusals
        raise PublishError(f"{step}: {error}") from error
    except Exception as error:  # PyGithub meets a malformed answer with whatever error reading it raises
        raise github.explain(error, step, token) from error
    return outcome


def _check_head(made_at: str | None, actual: object, expected: str, number: int) -> None:
    """The artifact must describe the commit the event names, and the PR must still point at it."""
    if made_at != expected:
        raise PublishError(f"refusing to post: the results were made at {made_at}, not at {expected}")
    if actual != expected:
        raise PublishError(f"refusing to post: pull request #{number} is at {github.quoted(actual)}, not at {expected}")
