"""`mutcheck comment`: check what is about to be posted, then post it with the GitHub publisher."""

import os
from typing import Any

from mutcheck.core.change_labels import WHOLE_CHANGE
from mutcheck.core.texts import known_languages
from mutcheck.publish import github
from mutcheck.publish.github import PublishError
from mutcheck.publish.inline import InlineFinding, InlinePlan, inline_marker
from mutcheck.report.markdown import render_inline_finding, render_markdown, render_not_run, render_sentence
from mutcheck.results.artifact import NotRun
from mutcheck.results.model import MutantEntry, Results

__all__ = ["PublishError", "publish"]


def is_inline_finding(mutant: MutantEntry) -> bool:
    """A survivor that fails its expectation (generic ones only under --strict-generic), or a hunk
    of the change that no test guards (the whole change's finding is the comment's, not a line's)."""
    kinds = {problem.kind for problem in mutant.problems}
    if "unguarded-change" in kinds:
        return mutant.id != WHOLE_CHANGE
    return mutant.verdict == "survived" and "unexpected-survivor" in kinds


def _findings(results: Results) -> list[InlineFinding]:
    return [
        InlineFinding(
            mutant.id,
            mutant.file,
            mutant.span.start_line,
            inline_marker(mutant.id) + "\n" + render_inline_finding(results, mutant.id),
        )
        for mutant in results.mutants
        if is_inline_finding(mutant)
    ]


def publish(
    results: Results | NotRun,
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
        made_at = results.run.head_sha
        findings = _findings(results) if inline else None  # known gaps survive as catalogued: not findings
        languages = results.languages
    step = "connecting to GitHub"
    try:
        client = client or github.connect(token, api_url)
        step = "reading the pull request"
        pull = client.get_repo(repository).get_pull(pr_number)
        github.check_host(pull, api_url)
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
            plan = github.sync_inline_findings(
                pull,
                made_at,
                findings,
                author,
                review_body=lambda count: render_sentence(languages, "inline_review", count=count),
                resolved_text=render_sentence(languages, "inline_resolved", sha=made_at),
                judged={mutant.id for mutant in results.mutants},
            )
            outcome += _inline_account(plan, made_at)
    except PublishError as error:  # one of our refusals
        raise PublishError(f"{step}: {error}") from error
    except Exception as error:  # PyGithub meets a malformed answer with whatever error reading it raises
        raise github.explain(error, step, token) from error
    return outcome


def _check_head(made_at: str | None, actual: object, expected: str | None, number: int) -> None:
    """The results must describe the pull request's current head (and with `expected`, the commit the event
    names): their inline findings are placed on that commit's diff, and GitHub rejects a line outside it."""
    if expected is not None and made_at != expected:
        raise PublishError(f"refusing to post: the results were made at {made_at}, not at {expected}")
    if made_at is None:
        raise PublishError(
            f"refusing to post: the results name no commit (made outside git), not pull request #{number}'s head"
        )
    if actual != made_at:
        raise PublishError(f"refusing to post: pull request #{number} is at {github.quoted(actual)}, not at {made_at}")


def _inline_account(plan: InlinePlan, sha: str) -> str:
    """The counts on the first line, then one line for each finding not posted because its line is not in the diff."""
    counts = [f"{count} {kind}" for kind, count in plan.counts.items()] + [f"{len(plan.outside_diff)} outside the diff"]
    dropped = [
        f"\nnot posted inline: {github.quoted(finding.mutant_id)} at {github.quoted(finding.path)}:{finding.line}"
        f", not in the diff at {sha}"
        for finding in plan.outside_diff
    ]
    refused = ""
    if plan.threads_refused:
        reasons = "; ".join(dict.fromkeys(plan.threads_refused))
        threads = f"{len(plan.threads_refused)} review thread" + ("s" * (len(plan.threads_refused) != 1))
        refused = (
            f"\n{threads} left as they were: GitHub refused ({reasons});"
            " resolving review threads needs the token's contents: write"
        )
    return "; inline: " + ", ".join(counts) + "".join(dropped) + refused
