"""What each request asks GitHub for, and how a refusal names the permission the failing endpoint needs."""

import json

import pytest

from mutcheck.core.escape import MARKER
from mutcheck.publish import github
from mutcheck.publish.publish import PublishError, publish
from tests.mutcheck.fake_github import NAME, NUMBER, OWNER, Failure, FakeGitHub, refused_for_lack_of
from tests.mutcheck.paths import GOLDEN
from tests.mutcheck.results_docs import typed

RESULTS = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))
HEAD = RESULTS["run"]["head_sha"]


def post(fake: FakeGitHub, inline: bool = True) -> str:
    client = github.connect("token", fake.base, retries=1, backoff=0.01, throttle=False)
    return publish(typed(RESULTS), f"{OWNER}/{NAME}", NUMBER, "token", fake.base, None, None, inline, client=client)


def refusal(fake: FakeGitHub) -> str:
    with pytest.raises(PublishError) as raised:
        post(fake)
    message = str(raised.value)
    assert "\n" not in message and "403 Resource not accessible by integration" in message
    return message


def test_every_request_names_the_api_version_and_media_type(fake):
    fake.add_comment(MARKER + "\nan earlier run", "mutcheck-bot")
    post(fake)  # pages, edits, reads a commit and posts a review
    methods = {method for method, _, _ in fake.requests}
    assert {"GET", "POST", "PATCH"} <= methods
    for headers in fake.request_headers:
        assert headers.get("X-GitHub-Api-Version") == "2022-11-28", headers
        assert headers.get("Accept") == "application/vnd.github+json", headers


def test_a_private_repository_without_contents_read_is_told_so(fake):
    fake.failures.append(refused_for_lack_of("GET", rf".*/commits/{HEAD}", "contents=read"))
    message = refusal(fake)
    assert message.startswith("posting inline findings: GitHub refused")
    assert "the token lacks `contents: read`; grant it in the job's `permissions:`" in message
    assert "pull-requests" not in message and "workflow_run" not in message  # not the fork advice


def test_a_token_that_cannot_comment_is_told_which_write_permission(fake):
    failure = refused_for_lack_of("POST", rf".*/issues/{NUMBER}/comments", "issues=write; pull_requests=write")
    fake.failures.append(failure)
    message = refusal(fake)
    assert message.startswith("posting the comment: GitHub refused")
    assert "the token lacks `issues: write` or `pull-requests: write`" in message
    assert "workflow_run" in message  # a read-only token: the fork advice


def test_without_the_header_the_step_says_what_it_needs(fake):
    fake.failures.append(Failure("GET", rf".*/commits/{HEAD}", 403, 1, "Resource not accessible by integration"))
    message = refusal(fake)
    assert "the token lacks `pull-requests: write` and `contents: read`" in message
