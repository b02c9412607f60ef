"""Every way GitHub can answer badly ends in exit 4 and one line that says what happened."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.publish import github
from mutcheck.publish.publish import PublishError, publish
from tests.mutcheck.fake_github import NAME, NUMBER, OWNER, Failure, FakeGitHub
from tests.mutcheck.results_docs import typed

RESULTS = json.loads((Path(__file__).parents[1] / "golden" / "results.json").read_text(encoding="utf-8"))
TOKEN = "ghs_secretTOKENvalue123"
HTML = {"Content-Type": "text/html; charset=utf-8"}
PAGE = b"<html><head><title>Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1></body></html>"


def comment(fake: FakeGitHub, tmp_path: Path):
    results = tmp_path / "results.json"
    results.write_text(json.dumps(RESULTS), encoding="utf-8")
    arguments = ["comment", "--repo", f"{OWNER}/{NAME}", "--pr", "7", "--results", str(results), "--api-url", fake.base]
    return CliRunner(env={"GITHUB_TOKEN": TOKEN, "GITHUB_ACTIONS": None}).invoke(main, arguments)


def assert_one_line_failure(outcome, *words: str) -> str:
    assert outcome.exit_code == ExitCode.PUBLISH_FAILED, outcome.output
    assert isinstance(outcome.exception, SystemExit), repr(outcome.exception)
    assert "Traceback" not in outcome.output and TOKEN not in outcome.output
    (line,) = outcome.output.splitlines()
    assert line.startswith("error: ")
    for word in words:
        assert word in line
    return line


# Answers none of which PyGithub retries: each is one request and one answer.
PULL_ANSWERS = {
    "truncated JSON": (200, b'{"id": 77, "number": 7, "head": {"sha": "', {}),
    "an HTML page with status 200": (200, PAGE, HTML),
    "plain text with status 200": (200, b"upstream connect error", {"Content-Type": "text/plain"}),
    "a JSON list instead of an object": (200, b"[1, 2, 3]", {}),
    "JSON null": (200, b"null", {}),
    "bytes that are not UTF-8": (200, b"\xff\xfe{", {}),
    "an HTML page with status 400": (400, PAGE, HTML),
    "an HTML page with status 403": (403, PAGE, HTML),
    "truncated JSON with status 404": (404, b'{"mess', {}),
    "a message that is not a string": (422, b'{"message": {"nested": [1, 2]}}', {}),
}


@pytest.mark.parametrize("answer", PULL_ANSWERS, ids=list(PULL_ANSWERS))
def test_a_malformed_answer_for_the_pull_request_exits_4(fake, tmp_path, answer):
    status, raw, headers = PULL_ANSWERS[answer]
    fake.failures.append(Failure("GET", rf".*/pulls/{NUMBER}", status, 1, headers=headers, raw=raw))
    assert_one_line_failure(comment(fake, tmp_path), "reading the pull request")
    assert fake.writes() == []


COMMENT_LIST_ANSWERS = {
    "truncated JSON": b'[{"id": 1, "bo',
    "a number": b"42",
    "a list of strings": b'["a", "b"]',
    "comments of the wrong types": b'[{"id": "x", "body": 5, "user": 3, "created_at": "no"}]',
}


@pytest.mark.parametrize("answer", COMMENT_LIST_ANSWERS, ids=list(COMMENT_LIST_ANSWERS))
def test_a_malformed_list_of_comments_exits_4(fake, tmp_path, answer):
    raw = COMMENT_LIST_ANSWERS[answer]
    fake.failures.append(Failure("GET", rf".*/issues/{NUMBER}/comments", 200, 1, raw=raw))
    assert_one_line_failure(comment(fake, tmp_path), "posting the comment")
    assert fake.writes() == []


def test_a_login_that_is_not_a_string_is_refused(fake, tmp_path):
    fake.failures.append(Failure("GET", "/user", 200, 1, raw=b'"mutcheck-bot"'))
    assert_one_line_failure(comment(fake, tmp_path), "finding the token's login", "no login")
    assert fake.writes() == []


def test_an_html_error_page_that_persists_is_one_line_after_the_retries(fake):
    fake.failures.append(Failure("POST", rf".*/issues/{NUMBER}/comments", 502, 10, headers=HTML, raw=PAGE))
    client = github.connect(TOKEN, fake.base, retries=2, backoff=0.01, throttle=False)
    with pytest.raises(PublishError) as raised:
        publish(typed(RESULTS), f"{OWNER}/{NAME}", NUMBER, TOKEN, fake.base, None, None, False, client=client)
    message = str(raised.value)
    assert message.startswith("posting the comment: GitHub kept failing") and "\n" not in message


def test_a_pull_request_whose_urls_point_at_another_host_is_refused(fake, tmp_path):
    fake.links = "http://127.0.0.2:9"  # nothing listens there; the token must not be sent there either
    line = assert_one_line_failure(comment(fake, tmp_path), "refusing to follow", "127.0.0.2:9")
    assert line.endswith(f"not at {fake.base.removeprefix('http://')}")
    assert fake.writes() == []


def test_the_401_advice_names_the_environment_variable(fake, tmp_path):
    fake.failures.append(Failure("GET", rf".*/pulls/{NUMBER}", 401, 1, "Bad credentials"))
    outcome = comment(fake, tmp_path)
    assert_one_line_failure(outcome, "401 Bad credentials", "GITHUB_TOKEN environment variable")
    assert "--token" not in outcome.output


def test_a_server_that_echoes_the_token_does_not_get_it_printed(fake, tmp_path):
    echo = f"token {TOKEN} is\nnot valid \x1b[2J here"
    fake.failures.append(Failure("GET", rf".*/pulls/{NUMBER}", 422, 1, echo))
    line = assert_one_line_failure(comment(fake, tmp_path), "422 token <GITHUB_TOKEN> is not valid [2J here")
    assert "\x1b" not in line


def test_an_api_url_pygithub_cannot_use_is_one_line_before_any_request(fake, tmp_path):
    results = tmp_path / "results.json"
    results.write_text(json.dumps(RESULTS), encoding="utf-8")
    arguments = ["comment", "--repo", f"{OWNER}/{NAME}", "--pr", "7", "--results", str(results)]
    outcome = CliRunner(env={"GITHUB_TOKEN": TOKEN, "GITHUB_ACTIONS": None}).invoke(
        main, [*arguments, "--api-url", "ftp://127.0.0.1/api"]
    )
    line = assert_one_line_failure(outcome, "connecting to GitHub: PyGithub cannot use ftp://127.0.0.1/api")
    assert line.endswith("AssertionError: Unknown URL scheme")
    assert fake.requests == []
