"""Publishing to GitHub with PyGithub: the sticky review comment and inline findings.

The only module that talks to the network. Every failure becomes a PublishError whose message
says what permission or limit was hit.
"""

import json
import logging
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

import requests
from github import Auth, Github, GithubException, RateLimitExceededException, set_log_level
from github.PullRequest import PullRequest
from unidiff import PatchSet

from mutcheck.core.escape import MARKER
from mutcheck.publish.github_retry import GitHubRetry, RateLimitTooLong
from mutcheck.publish.inline import InlineFinding, InlinePlan, PostedComment, marked_mutant, reconcile

GITHUB_BODY_LIMIT = 65_536
ACTIONS_BOT = "github-actions[bot]"
TWO_WORKFLOWS = (
    "Pull requests from forks only get a read-only token: run `mutcheck run` on `pull_request` and post "
    "with `mutcheck comment --from-artifact` from a `workflow_run` workflow (README, 'Use on GitHub')."
)


class PublishError(Exception):
    """A publish step failed; the message names the permission or limit that was hit."""


# What GitHub (or a proxy in front of it) says is shown, but it is its text, not ours: one line, capped.
SERVER_TEXT_LIMIT = 200


def quoted(text: object, secret: str = "") -> str:
    """A server's text as one printable line of at most SERVER_TEXT_LIMIT characters (no terminal escapes),
    with `secret` (the token, should a server echo it) blotted out."""
    line = " ".join("".join(c if c.isprintable() else " " for c in str(text)).split())
    line = line.replace(secret, "<GITHUB_TOKEN>") if secret else line
    return line if len(line) <= SERVER_TEXT_LIMIT else line[: SERVER_TEXT_LIMIT - 1] + "…"


# The REST API version every request names, so that an answer's shape does not change under us.
API_VERSION = "2022-11-28"
MEDIA_TYPE = "application/vnd.github+json"
# The longest mutcheck waits for a rate limit at a time; a longer one fails with the time it resets.
RATE_LIMIT_CAP = 120.0


class VersionedToken(Auth.Token):
    """The token, and the API version and media type on every request (PyGithub's per-request header hook)."""

    def authentication(self, headers: dict) -> None:
        super().authentication(headers)
        headers["X-GitHub-Api-Version"] = API_VERSION
        headers.setdefault("Accept", MEDIA_TYPE)  # a call that asks for another media type keeps it


def connect(
    token: str,
    api_url: str,
    retries: int = 4,
    backoff: float = 1.0,
    throttle: bool = True,
    rate_limit_cap: float = RATE_LIMIT_CAP,
    sleep: Callable[[float], None] = time.sleep,
) -> Github:
    """A client that retries 5xx answers and rate limits `retries` times, waiting as GitHub asks."""
    retry = GitHubRetry(cap=rate_limit_cap, sleep=sleep, total=retries, backoff_factor=backoff)
    set_log_level(logging.WARNING)  # PyGithub logs each refused request to stderr; our one line says what happened
    pacing = {} if throttle else {"seconds_between_requests": None, "seconds_between_writes": None}
    try:
        return Github(auth=VersionedToken(token), base_url=api_url, per_page=100, retry=retry, **pacing)
    except (AssertionError, TypeError, ValueError) as error:  # PyGithub checks its arguments with assertions
        raise PublishError(f"PyGithub cannot use {quoted(api_url, token)}: {_described(error, token)}") from error


def explain(error: Exception, what: str, secret: str) -> PublishError:
    """A PublishError that tells the user what to change, on one line, without `secret` (the token)."""
    return PublishError(f"{what}: {_reason(error, what, secret)}")


def _reason(error: Exception, what: str, secret: str) -> str:
    if isinstance(error, RateLimitTooLong):
        resets = error.resets_at.strftime("%Y-%m-%d %H:%M:%S UTC")
        return (
            f"GitHub's rate limit lets the next request through at {resets}, in {error.wait:.0f} s, longer than "
            f"the {error.cap:.0f} s mutcheck waits; run the job again after that time"
        )
    if isinstance(error, RateLimitExceededException):
        return "GitHub's API rate limit was hit and did not reset within the retries; try later"
    if isinstance(error, requests.exceptions.RetryError):
        return f"GitHub kept failing (server errors or rate limits) after every retry: {quoted(error, secret)}"
    if isinstance(error, requests.exceptions.ConnectionError):
        return f"cannot reach the GitHub API: {quoted(error, secret)}"
    if isinstance(error, requests.exceptions.RequestException):
        return f"the request to GitHub failed: {quoted(error, secret)}"
    if isinstance(error, json.JSONDecodeError):
        return f"GitHub's answer is not valid JSON (cut short?): {quoted(error, secret)}"
    if isinstance(error, GithubException):
        return _refusal(error.status, _server_message(error.data, secret), _needed(error.headers, what))
    # PyGithub checks an answer's shape and the hosts of the URLs in it with assertions, and meets
    # an answer of the wrong shape with whatever error reading it raises.
    unusable = "GitHub's answer cannot be used (a URL on another host, or not the expected data)"
    return f"{unusable}: {_described(error, secret)}"


def _described(error: Exception, secret: str) -> str:
    detail = quoted(error, secret)
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__


def _server_message(data: object, secret: str) -> str:
    """GitHub's own explanation in an error answer; PyGithub wraps a body that is not JSON as {"data": …},
    and raises a GraphQL answer's `errors` (each with a `type` and a `message`) beside its `data`."""
    if isinstance(data, dict) and isinstance(data.get("errors"), list) and "message" not in data:
        reasons = [
            f"{error.get('type')}: {error.get('message')}" if error.get("type") else str(error.get("message"))
            for error in data["errors"]
            if isinstance(error, dict)
        ]
        return quoted("; ".join(reasons), secret) if reasons else "no explanation"
    if isinstance(data, dict) and "message" in data:
        # The message is often only "Unprocessable Entity"; the reason is in `errors`.
        reasons = _error_reasons(data.get("errors"))
        message = quoted(data["message"], secret)
        return f"{message}: {quoted('; '.join(reasons), secret)}" if reasons else message
    if isinstance(data, bytes | str) or (isinstance(data, dict) and "data" in data):
        return "an answer that is not JSON"
    return quoted(data, secret) if data else "no explanation"


def _error_reasons(errors: object) -> list[str]:
    """The reasons in an error answer's `errors`: plain strings, or objects with a `message` (else a `code`)."""
    if not isinstance(errors, list):
        return []
    reasons = []
    for error in errors:
        if isinstance(error, dict):
            error = error.get("message") or " ".join(
                str(error[key]) for key in ("resource", "field", "code") if key in error
            )
        if error:
            reasons.append(str(error))
    return reasons


# What each step needs when GitHub's answer does not say (no x-accepted-github-permissions header).
STEP_PERMISSIONS = {
    "reading the pull request": [["pull-requests: read"]],
    "posting the comment": [["pull-requests: write"]],
    "posting inline findings": [["pull-requests: write", "contents: read"]],
}


def _needed(headers: object, step: str) -> list[list[str]]:
    """The permissions, named as in a workflow's `permissions:`, that GitHub accepts for the refused endpoint.

    GitHub's header lists alternative sets separated by `;`, each of `name=level` items joined by `,`."""
    accepted = headers.get("x-accepted-github-permissions") if isinstance(headers, dict) else None
    if not isinstance(accepted, str) or "=" not in accepted:
        return STEP_PERMISSIONS.get(step, [])
    return [
        [f"{quoted(name).replace('_', '-')}: {quoted(level)}" for name, _, level in (i.partition("=") for i in items)]
        for alternative in accepted.split(";")
        if (items := [item.strip() for item in alternative.split(",") if "=" in item])
    ]


def _refusal(status: int, message: str, needed: list[list[str]]) -> str:
    if status == 401:
        return f"GitHub rejected the token (401 {message}); check the token in the GITHUB_TOKEN environment variable"
    if status == 403:
        if not needed:
            return f"GitHub refused (403 {message}): the token lacks a permission this step needs"
        lacking = " or ".join(" and ".join(f"`{permission}`" for permission in group) for group in needed)
        forks = any(permission.endswith(": write") for group in needed for permission in group)
        advice = f" {TWO_WORKFLOWS}" if forks else ""
        grant = "grant it in the job's `permissions:`"
        return f"GitHub refused (403 {message}): the token lacks {lacking}; {grant}.{advice}"
    if status == 404:
        return "not found (404): the repository or pull request, or the token cannot see it"
    if status == 422:
        return f"GitHub rejected the request as invalid (422 {message})"
    return f"GitHub answered {status} ({message})"


def check_host(pull: PullRequest, api_url: str) -> None:
    """The pull request's URLs, which PyGithub follows with the token, must point at the API's own host."""
    expected = urlsplit(api_url).netloc
    base_repo = pull.base.repo if pull.base else None
    for url in (pull.url, pull.issue_url, base_repo.url if base_repo else None):
        if not isinstance(url, str):
            raise PublishError("GitHub's answer is not a pull request (a URL is missing)")
        if (host := urlsplit(url).netloc) != expected:
            raise PublishError(
                f"refusing to follow the pull request's URLs: they point at {quoted(host)}, not at {expected}"
            )


def upsert_comment(pull: PullRequest, body: str, author: str) -> str:
    """Create, edit or leave our one sticky comment; delete older duplicates. Returns what it did."""
    if len(body) > GITHUB_BODY_LIMIT:
        raise PublishError(f"the comment is {len(body)} characters, over GitHub's {GITHUB_BODY_LIMIT}; not sent")
    ours = [
        comment
        for comment in pull.get_issue_comments()
        if comment.user.login == author and comment.body.startswith(MARKER)
    ]
    ours.sort(key=lambda comment: (comment.created_at, comment.id))
    for stale in ours[:-1]:
        stale.delete()
    if not ours:
        pull.create_issue_comment(body)
        return "created"
    newest = ours[-1]
    if newest.body == body:
        return "unchanged"
    newest.edit(body)
    return "updated"


def diff_lines(pull: PullRequest) -> dict[str, set[int]]:
    """Lines of each changed file that the pull request's diff shows on the new side."""
    lines: dict[str, set[int]] = {}
    for changed in pull.get_files():
        if not changed.patch:
            continue
        patch = PatchSet(f"--- a/{changed.filename}\n+++ b/{changed.filename}\n{changed.patch}\n")
        lines[changed.filename] = {
            line.target_line_no for hunk in patch[0] for line in hunk if line.target_line_no is not None
        }
    return lines


# The thread of each review comment, for resolving it: REST does not say, GraphQL does.
_REVIEW_THREADS = """
query($owner: String!, $name: String!, $number: Int!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: $first, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id isResolved comments(first: 1) { nodes { databaseId } } }
      }
    }
  }
}
"""
THREADS_PER_PAGE = 100


def review_threads(pull: PullRequest) -> dict[int, tuple[str, bool]]:
    """Each review thread's id and whether it is resolved, by the id of the comment that opened it."""
    repo = pull.base.repo
    variables = {"owner": repo.owner.login, "name": repo.name, "number": pull.number, "first": THREADS_PER_PAGE}
    threads = {}
    while True:
        _, data = pull.requester.graphql_query(_REVIEW_THREADS, variables)
        page = data["data"]["repository"]["pullRequest"]["reviewThreads"]
        for thread in page["nodes"]:
            for opening in thread["comments"]["nodes"]:
                threads[opening["databaseId"]] = (thread["id"], thread["isResolved"])
        if not page["pageInfo"]["hasNextPage"]:
            return threads
        variables["after"] = page["pageInfo"]["endCursor"]


def _set_threads_resolved(pull: PullRequest, plan: InlinePlan) -> None:
    """Resolve and reopen the plan's threads; one GitHub refuses is left as it was, and why goes into the plan:
    GitHub gates these mutations on the token's `contents: write`, which a comment job may not grant."""
    for thread_ids, mutation in ((plan.resolve, "resolveReviewThread"), (plan.unresolve, "unresolveReviewThread")):
        for thread_id in thread_ids:
            try:
                pull.requester.graphql_named_mutation(mutation, {"threadId": thread_id}, "thread { id isResolved }")
            except GithubException as error:
                plan.threads_refused.append(_server_message(error.data, ""))


def sync_inline_findings(
    pull: PullRequest,
    head_sha: str,
    findings: Iterable[InlineFinding],
    author: str,
    review_body: Callable[[int], str],
    resolved_text: str,
    judged: set[str],
) -> InlinePlan:
    """Make the pull request's inline comments match `findings` (see `inline.reconcile`); returns what was done.

    New and moved findings go into one review at `head_sha`, the commit whose diff `pull` shows, whose body
    `review_body` words for the number of comments it carries; threads are resolved after it."""
    in_diff = diff_lines(pull)
    ours = {}
    for comment in pull.get_review_comments():
        if comment.user.login == author and (mutant_id := marked_mutant(comment.body)) is not None:
            ours[comment.id] = (mutant_id, comment)
    threads = review_threads(pull) if ours else {}
    posted = [
        PostedComment(
            comment.id,
            mutant_id,
            comment.path,
            comment.line,
            comment.body,
            comment.created_at,
            *threads.get(comment.id, (None, False)),
        )
        for mutant_id, comment in ours.values()
    ]
    plan = reconcile(findings, posted, in_diff, resolved_text, judged)
    for comment_id in plan.deletions:
        ours[comment_id][1].delete()
    for comment_id, body in plan.edits:
        ours[comment_id][1].edit(body)
    if plan.post:
        new = [{"path": f.path, "line": f.line, "side": "RIGHT", "body": f.body} for f in plan.post]
        commit = pull.base.repo.get_commit(head_sha)
        pull.create_review(commit=commit, body=review_body(len(new)), event="COMMENT", comments=new)
    _set_threads_resolved(pull, plan)
    return plan
