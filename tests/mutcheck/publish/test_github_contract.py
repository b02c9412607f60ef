"""The fake GitHub is held to GitHub's OpenAPI description: a malformed request or answer fails the test."""

import json

import pytest
import requests

from mutcheck.publish import github
from tests.mutcheck import github_contract
from tests.mutcheck.fake_github import NAME, NUMBER, OWNER, Failure, FakeGitHub

REPO = f"/repos/{OWNER}/{NAME}"


def pull_request(fake: FakeGitHub):
    client = github.connect("token", fake.base, retries=0, throttle=False)
    return client.get_repo(f"{OWNER}/{NAME}").get_pull(NUMBER)


def test_a_request_with_a_body_field_of_the_wrong_kind_fails_the_test():
    with pytest.raises(AssertionError) as raised, FakeGitHub() as fake:
        comment = {"path": "src/tiny.py", "line": "7", "side": "RIGHT", "body": "x"}  # a line is a number
        pull_request(fake).create_review(body="review", event="COMMENT", comments=[comment])
    where = f"POST {REPO}/pulls/{NUMBER}/reviews (pulls/create-review) request comments/0/line"
    assert f"{where}: '7' is not of type 'integer'" in str(raised.value)


def test_an_answer_without_a_required_field_fails_the_test():
    with pytest.raises(AssertionError) as raised, FakeGitHub() as fake:
        comment = fake.add_review_comment("src/tiny.py", 7, "a finding", "mutcheck-bot")
        del comment["diff_hunk"]
        list(pull_request(fake).get_review_comments())
    where = f"GET {REPO}/pulls/{NUMBER}/comments (pulls/list-review-comments) answer 200 0"
    assert f"{where}: 'diff_hunk' is a required property" in str(raised.value)


def test_the_checker_names_the_operation_field_and_reason():
    assert github_contract.request_violations("GET", f"{REPO}/pulls/x/files", {}, b"") == [
        f"GET {REPO}/pulls/x/files (pulls/list-files) request path parameter pull_number: "
        "CastError(value='x', type='integer')"
    ]
    unnamed = github_contract.request_violations("PATCH", f"{REPO}/issues/comments/1", {}, b'{"text": "x"}')
    assert unnamed == [
        f"PATCH {REPO}/issues/comments/1 (issues/update-comment) request (the whole body): "
        "'body' is a required property"
    ]
    assert github_contract.request_violations("GET", "/not/github", {}, b"") == [
        "GET /not/github: no operation in GitHub's REST API has this method and path"
    ]
    pull = f"{REPO}/pulls/{NUMBER}"
    moved = github_contract.response_violations("GET", pull, 302, "application/json", b"{}", {}, injected=True)
    assert moved == [f"GET {pull} (pulls/get) answered 302, which the operation does not document"]
    error = github_contract.response_violations("GET", pull, 502, "application/json", b"[]", {}, injected=True)
    assert error == [f"GET {pull} (pulls/get) answer 502 (the whole body): [] is not of type 'object'"]
    # Only an injected failure may answer a status the operation does not document; the fake's own may not.
    own = github_contract.response_violations("GET", pull, 502, "application/json", b"{}", {}, injected=False)
    assert own == [f"GET {pull} (pulls/get) answered 502, which the operation does not document"]


def test_outdated_review_comments_may_have_no_line():
    comment = github_contract.example("pull-request-review-comment-items") | {"line": None, "position": None}
    body = json.dumps([comment]).encode()
    path = f"{REPO}/pulls/{NUMBER}/comments"
    assert github_contract.response_violations("GET", path, 200, "application/json", body, {}, injected=False) == []
    assert github_contract.response_violations(
        "GET", path, 200, "application/json", body.replace(b'"line": null', b'"line": "2"'), {}, injected=False
    )


def test_the_answers_carry_the_fields_real_github_returns():
    with FakeGitHub() as fake:
        fake.add_review_comment("src/tiny.py", 7, "a finding", "mutcheck-bot")
        (comment,) = pull_request(fake).get_review_comments()
        assert comment.node_id and comment.diff_hunk.startswith("@@") and len(comment.commit_id) == 40
        assert comment.pull_request_review_id is not None and comment.user.type == "Bot"


def test_a_rate_limit_answer_sends_each_header_once():
    limited = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1"}
    with FakeGitHub() as fake:
        fake.failures.append(Failure("GET", f"{REPO}/pulls/{NUMBER}", 403, 1, "API rate limit exceeded", limited))
        answer = requests.get(f"{fake.base}{REPO}/pulls/{NUMBER}", timeout=10)
    assert answer.headers["X-RateLimit-Remaining"] == "0"  # sent twice, requests joins them as "4999, 0"
    assert answer.json() == {"message": "API rate limit exceeded", "documentation_url": "https://docs.github.com/rest"}


THREADS = (
    "query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) "
    "{ pullRequest(number: $number) { reviewThreads(first: 10) { nodes { id isResolved } } } } }"
)


def _graphql(query: str, **variables) -> bytes:
    return json.dumps({"query": query, "variables": variables}).encode()


def test_graphql_requests_are_checked_against_githubs_graphql_schema():
    good = _graphql(THREADS, owner=OWNER, name=NAME, number=NUMBER)
    assert github_contract.request_violations("POST", "/graphql", {}, good) == []
    unknown_field = _graphql(THREADS.replace("isResolved", "isSolved"), owner=OWNER, name=NAME, number=NUMBER)
    assert github_contract.request_violations("POST", "/graphql", {}, unknown_field) == [
        "POST /graphql request: Cannot query field 'isSolved' on type 'PullRequestReviewThread'."
        " Did you mean 'isResolved' or 'resolvedBy'?"
    ]
    wrong_variable = _graphql(THREADS, owner=OWNER, name=NAME, number="seven")
    (violation,) = github_contract.request_violations("POST", "/graphql", {}, wrong_variable)
    assert violation == (
        "POST /graphql request: Variable '$number' has invalid value: Int cannot represent non-integer value: 'seven'"
    )


def test_graphql_answers_are_checked_against_the_query_and_the_schema():
    request = _graphql(THREADS, owner=OWNER, name=NAME, number=NUMBER)

    def answer(thread: dict) -> bytes:
        nodes = {"nodes": [thread]}
        return json.dumps({"data": {"repository": {"pullRequest": {"reviewThreads": nodes}}}}).encode()

    assert github_contract.graphql_response_violations(request, 200, answer({"id": "T", "isResolved": False})) == []
    (missing,) = github_contract.graphql_response_violations(request, 200, answer({"id": "T"}))
    assert missing == (
        "POST /graphql answer: Cannot return null for non-nullable field PullRequestReviewThread.isResolved."
    )
    (extra,) = github_contract.graphql_response_violations(
        request, 200, answer({"id": "T", "isResolved": True, "x": 1})
    )
    assert extra == "POST /graphql answer: the data has fields the query did not ask for"
