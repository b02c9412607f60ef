"""`mutcheck comment`: PyGithub, unmodified, against a fake GitHub REST server on 127.0.0.1."""

import copy
import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from github import GithubException

from mutcheck.cli import main
from mutcheck.core.escape import MARKER
from mutcheck.core.exit_code import ExitCode
from mutcheck.publish import github
from mutcheck.publish.publish import PublishError, publish
from tests.mutcheck.fake_github import NAME, NUMBER, OWNER, Failure, FakeGitHub
from tests.mutcheck.paths import GOLDEN
from tests.mutcheck.results_docs import typed

RESULTS = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))
REPOSITORY = f"{OWNER}/{NAME}"
HEAD = RESULTS["run"]["head_sha"]


def post(fake: FakeGitHub, results=RESULTS, **options) -> str:
    client = github.connect("token", fake.base, retries=3, backoff=0.01, throttle=False)
    arguments = {"author": None, "expected_head": None, "inline": False, **options}
    return publish(typed(results), REPOSITORY, NUMBER, "token", fake.base, client=client, **arguments)


def changed(results: dict) -> dict:
    edited = copy.deepcopy(results)
    edited["run"]["seconds"] = 99.0
    return edited


def test_first_run_creates_the_comment(fake):
    assert post(fake) == "comment created"
    assert [(method, path) for method, path, _ in fake.writes()] == [
        ("POST", f"/repos/{OWNER}/{NAME}/issues/7/comments")
    ]
    assert fake.comments[0]["body"].startswith(MARKER)
    assert fake.comments[0]["user"]["login"] == "mutcheck-bot"


def test_second_run_edits_and_third_identical_run_writes_nothing(fake):
    post(fake)
    assert post(fake, changed(RESULTS)) == "comment updated"
    assert [method for method, _, _ in fake.writes()] == ["POST", "PATCH"]
    assert len(fake.comments) == 1 and "99.0 s" in fake.comments[0]["body"]
    before = len(fake.writes())
    assert post(fake, changed(RESULTS)) == "comment unchanged"
    assert len(fake.writes()) == before


def test_stale_duplicates_are_deleted_and_others_left_alone(fake):
    older = fake.add_comment(MARKER + "\nold one", "mutcheck-bot")
    middle = fake.add_comment(MARKER + "\nold two", "mutcheck-bot")
    newest = fake.add_comment(MARKER + "\nold three", "mutcheck-bot")
    impostor = fake.add_comment(MARKER + "\nfrom someone else", "mallory")
    plain = fake.add_comment("a normal remark", "mutcheck-bot")
    assert post(fake) == "comment updated"
    deleted = sorted(path for method, path, _ in fake.writes() if method == "DELETE")
    assert deleted == sorted(f"/repos/{OWNER}/{NAME}/issues/comments/{c['id']}" for c in (older, middle))
    assert {c["id"] for c in fake.comments} == {newest["id"], impostor["id"], plain["id"]}
    assert impostor["body"].endswith("from someone else")


def test_marker_must_start_the_body(fake):
    fake.add_comment("quoting you: " + MARKER, "mutcheck-bot")
    assert post(fake) == "comment created"


def test_our_comment_is_found_past_the_first_hundred(fake):
    for number in range(130):
        fake.add_comment(f"comment {number}", "someone")
    ours = fake.add_comment(MARKER + "\nearlier run", "mutcheck-bot")
    for number in range(40):
        fake.add_comment(f"later {number}", "someone")
    assert post(fake) == "comment updated"
    pages = [body for method, path, body in fake.requests if path.endswith("/issues/7/comments") and method == "GET"]
    assert len(pages) == 2
    assert [method for method, _, _ in fake.writes()] == ["PATCH"]
    assert ours["body"].startswith(MARKER) and "earlier run" not in ours["body"]


def test_read_only_token_names_the_missing_permission(fake):
    fake.failures.append(Failure("POST", r".*/issues/7/comments", 403, 1, "Resource not accessible by integration"))
    with pytest.raises(PublishError) as raised:
        post(fake)
    assert "403" in str(raised.value) and "`pull-requests: write`" in str(raised.value)
    assert "workflow_run" in str(raised.value)
    assert len([1 for method, _, _ in fake.requests if method == "POST"]) == 1  # not retried


@pytest.mark.parametrize(
    ("status", "expected"),
    [(401, "rejected the token (401"), (404, "not found (404)"), (422, "rejected the request as invalid (422")],
)
def test_other_refusals_are_explained(fake, status, expected):
    fake.failures.append(Failure("POST", r".*/issues/7/comments", status, 1, "nope"))
    with pytest.raises(PublishError) as raised:
        post(fake)
    assert expected in str(raised.value)


def test_a_rejected_review_says_why_not_only_unprocessable_entity(fake):
    reason = "Pull request review thread line must be part of the diff"
    fake.failures.append(Failure("POST", r".*/pulls/7/reviews", 422, 1, "Unprocessable Entity", errors=[reason]))
    with pytest.raises(PublishError) as raised:
        post(fake, inline=True)
    assert f"(422 Unprocessable Entity: {reason})" in str(raised.value)


def test_the_reasons_of_a_validation_failure_are_each_shown(fake):
    errors = [
        {"resource": "IssueComment", "field": "body", "code": "custom", "message": "body is too long"},
        {"resource": "IssueComment", "field": "body", "code": "missing_field"},
    ]
    fake.failures.append(Failure("POST", r".*/issues/7/comments", 422, 1, "Validation Failed", errors=errors))
    with pytest.raises(PublishError) as raised:
        post(fake)
    assert "(422 Validation Failed: body is too long; IssueComment body missing_field)" in str(raised.value)


def test_server_errors_are_retried_then_succeed(fake):
    fake.failures.append(Failure("POST", r".*/issues/7/comments", 502, 2, "Bad Gateway"))
    assert post(fake) == "comment created"
    assert [method for method, _, _ in fake.writes()] == ["POST", "POST", "POST"]


def test_server_errors_that_persist_fail_after_bounded_retries(fake):
    fake.failures.append(Failure("POST", r".*/issues/7/comments", 503, 50, "Unavailable"))
    with pytest.raises(PublishError, match="kept failing"):
        post(fake)
    assert len(fake.writes()) == 4  # the first try and three retries


def test_rate_limit_is_waited_out_then_succeeds(fake):
    reset = str(int(time.time()))
    limit = Failure(
        "GET",
        r".*/issues/7/comments",
        403,
        1,
        "API rate limit exceeded for installation ID 1.",
        {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset},
    )
    fake.failures.append(limit)
    assert post(fake) == "comment created"
    gets = [path for method, path, _ in fake.requests if method == "GET" and path.endswith("/issues/7/comments")]
    assert len(gets) == 2


def test_an_over_long_body_is_never_sent(fake):
    huge = copy.deepcopy(RESULTS)
    template = huge["mutants"][0]
    huge["mutants"] = [dict(copy.deepcopy(template), id=f"M{n}") for n in range(3000)]
    post(fake, huge)
    ((_, _, body),) = fake.writes()
    assert len(body["body"]) <= 60_000
    with pytest.raises(PublishError, match="over GitHub's 65536"):
        github.upsert_comment(None, "x" * 70_000, "anyone")


def test_inline_findings_are_posted_once_then_updated_then_resolved(fake):
    outcome = post(fake, inline=True)
    assert outcome.endswith(
        "inline: 1 created, 0 updated, 0 resolved, 0 unresolved, 0 deleted, 0 unchanged, 0 outside the diff"
    )
    (review,) = fake.reviews
    assert review["commit_id"] == HEAD and "1 guard mutant survives" in review["body"]
    (comment,) = fake.review_comments
    assert (comment["path"], comment["line"], comment["side"]) == ("src/tiny.py", 7, "RIGHT")
    assert comment["body"].startswith("<!-- mutcheck:inline SURVIVOR -->") and "中文说明" in comment["body"]

    assert post(fake, inline=True).endswith(
        "inline: 0 created, 0 updated, 0 resolved, 0 unresolved, 0 deleted, 1 unchanged, 0 outside the diff"
    )
    assert len(fake.reviews) == 1 and len(fake.review_comments) == 1

    killed = copy.deepcopy(RESULTS)
    survivor = next(m for m in killed["mutants"] if m["id"] == "SURVIVOR")
    survivor.update(verdict="killed", expectation_met=True, problems=[])
    assert post(fake, killed, inline=True).endswith(
        "0 created, 0 updated, 1 resolved, 0 unresolved, 0 deleted, 0 unchanged, 0 outside the diff"
    )
    assert "Resolved at" in fake.review_comments[0]["body"] and fake.thread_resolved(fake.review_comments[0])


def test_survivors_outside_the_diff_get_no_inline_comment(fake):
    fake.files = [{"filename": "src/other.py", "patch": "@@ -1,1 +1,1 @@\n-a\n+b"}]
    outcome = post(fake, inline=True)
    assert outcome.endswith(
        "inline: 0 created, 0 updated, 0 resolved, 0 unresolved, 0 deleted, 0 unchanged, 1 outside the diff\n"
        f"not posted inline: SURVIVOR at src/tiny.py:7, not in the diff at {HEAD}"
    )
    assert fake.reviews == []


def artifact(tmp_path: Path, number: str, results=RESULTS) -> Path:
    directory = tmp_path / "artifact"
    directory.mkdir()
    (directory / "results.json").write_text(json.dumps(results), encoding="utf-8")
    (directory / "pr-number").write_text(number, encoding="ascii")
    return directory


def comment_cli(fake: FakeGitHub, *args: str):
    return CliRunner(env={"GITHUB_TOKEN": "token", "GITHUB_ACTIONS": None}).invoke(
        main, ["comment", "--repo", REPOSITORY, "--api-url", fake.base, *args]
    )


def test_from_artifact_posts_when_everything_matches(fake, tmp_path):
    result = comment_cli(fake, "--from-artifact", str(artifact(tmp_path, "7\n")), "--head-sha", HEAD)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "comment created"


def test_from_artifact_refuses_a_tampered_pr_number(fake, tmp_path):
    result = comment_cli(fake, "--from-artifact", str(artifact(tmp_path, "7; curl evil")), "--head-sha", HEAD)
    assert result.exit_code == ExitCode.USAGE
    assert "pr-number: not a pull request number (digits only)" in result.output
    assert fake.requests == []


def test_from_artifact_refuses_another_pull_requests_head(fake, tmp_path):
    fake.head_sha = "c" * 40  # the PR the artifact names is at another commit
    result = comment_cli(fake, "--from-artifact", str(artifact(tmp_path, "7")), "--head-sha", HEAD)
    assert result.exit_code == ExitCode.PUBLISH_FAILED
    assert f"pull request #7 is at {'c' * 40}, not at {HEAD}" in result.output
    assert fake.writes() == []


def test_from_artifact_refuses_results_of_another_commit(fake, tmp_path):
    result = comment_cli(fake, "--from-artifact", str(artifact(tmp_path, "7")), "--head-sha", "d" * 40)
    assert result.exit_code == ExitCode.PUBLISH_FAILED
    assert "the results were made at" in result.output
    assert fake.writes() == []


def test_from_artifact_refuses_invalid_results(fake, tmp_path):
    broken = copy.deepcopy(RESULTS)
    broken["mutants"][0]["verdict"] = "pwned"
    result = comment_cli(fake, "--from-artifact", str(artifact(tmp_path, "7", broken)), "--head-sha", HEAD)
    assert result.exit_code == ExitCode.USAGE
    assert "does not match the results schema" in result.output
    assert fake.requests == []


def test_cli_exit_code_4_on_a_read_only_token(fake, tmp_path):
    fake.failures.append(Failure("POST", r".*/issues/7/comments", 403, 1, "Resource not accessible by integration"))
    results = tmp_path / "results.json"
    results.write_text(json.dumps(RESULTS), encoding="utf-8")
    result = comment_cli(fake, "--pr", "7", "--results", str(results))
    assert result.exit_code == ExitCode.PUBLISH_FAILED
    assert "pull-requests: write" in result.output


def test_cli_requires_a_token(fake, tmp_path):
    results = tmp_path / "results.json"
    results.write_text(json.dumps(RESULTS), encoding="utf-8")
    outcome = CliRunner(env={"GITHUB_TOKEN": None}).invoke(
        main, ["comment", "--repo", REPOSITORY, "--pr", "7", "--results", str(results), "--api-url", fake.base]
    )
    assert outcome.exit_code == ExitCode.USAGE
    assert "comment: GITHUB_TOKEN: required" in outcome.output


def test_cli_takes_the_pull_request_from_github_ref_in_actions(fake, tmp_path):
    results = tmp_path / "results.json"
    results.write_text(json.dumps(RESULTS), encoding="utf-8")
    outcome = CliRunner(
        env={"GITHUB_TOKEN": "token", "GITHUB_REF": "refs/pull/7/merge", "GITHUB_ACTIONS": None}
    ).invoke(main, ["comment", "--repo", REPOSITORY, "--results", str(results), "--api-url", fake.base])
    assert outcome.exit_code == 0, outcome.output
    assert fake.comments and fake.comments[0]["issue_url"].endswith("/issues/7")


def test_informational_generic_survivors_get_no_inline_comment(fake):
    results = copy.deepcopy(RESULTS)
    survivor = next(m for m in results["mutants"] if m["id"] == "SURVIVOR")
    generic = dict(copy.deepcopy(survivor), id="tiny.x_clamp__mutmut_1", generic=True, operator="comparison")
    generic["problems"] = []
    results["mutants"].append(generic)
    assert post(fake, results, inline=True).endswith(
        "inline: 1 created, 0 updated, 0 resolved, 0 unresolved, 0 deleted, 0 unchanged, 0 outside the diff"
    )
    assert [c["body"].split(" -->")[0] for c in fake.review_comments] == ["<!-- mutcheck:inline SURVIVOR"]


def test_a_refused_graphql_call_says_githubs_reasons():
    """PyGithub raises a GraphQL answer's errors as a 400 whose data holds them beside `data`."""
    refused = {"data": {"resolveReviewThread": None}, "errors": [
        {"type": "FORBIDDEN", "message": "Resource not accessible by integration"}
    ]}  # fmt: skip
    error = github.explain(GithubException(400, refused, {}), "posting inline findings", "token")
    assert "FORBIDDEN: Resource not accessible by integration" in str(error)
    assert "not JSON" not in str(error)
