"""Rate limits as GitHub documents them, against the fake GitHub: every wait is recorded, none is slept."""

import json
import time
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.publish import github
from mutcheck.publish.publish import PublishError, publish
from tests.mutcheck.fake_github import NAME, NUMBER, OWNER, Failure, FakeGitHub
from tests.mutcheck.paths import GOLDEN
from tests.mutcheck.results_docs import typed

RESULTS = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))
COMMENTS = rf".*/issues/{NUMBER}/comments"
PRIMARY = "API rate limit exceeded for installation ID 1."
SECONDARY = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."


def post(fake: FakeGitHub, waits: list[float], cap: float = 120.0, retries: int = 4) -> str:
    client = github.connect("token", fake.base, retries, 0.01, throttle=False, rate_limit_cap=cap, sleep=waits.append)
    return publish(typed(RESULTS), f"{OWNER}/{NAME}", NUMBER, "token", fake.base, None, None, False, client=client)


def comment_gets(fake: FakeGitHub) -> int:
    return len([1 for method, path, _ in fake.requests if method == "GET" and path.endswith(f"/{NUMBER}/comments")])


def limited(status: int, message: str, headers: dict[str, str], times: int = 1) -> Failure:
    return Failure("GET", COMMENTS, status, times, message, headers)


@pytest.mark.parametrize("status", [403, 429])
def test_a_primary_limit_waits_until_its_reset(fake, status):
    reset = int(time.time()) + 30
    fake.failures.append(limited(status, PRIMARY, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)}))
    waits: list[float] = []
    assert post(fake, waits) == "comment created"
    (wait,) = waits
    assert 20 < wait <= 30  # until the reset, however long the request took
    assert comment_gets(fake) == 2


def test_a_primary_limit_that_resets_after_the_cap_fails_at_once_with_the_reset_time(fake, tmp_path):
    reset = int(time.time()) + 3600
    fake.failures.append(limited(429, PRIMARY, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)}))
    results = tmp_path / "results.json"
    results.write_text(json.dumps(RESULTS), encoding="utf-8")
    arguments = ["comment", "--repo", f"{OWNER}/{NAME}", "--pr", "7", "--results", str(results), "--api-url", fake.base]
    outcome = CliRunner(env={"GITHUB_TOKEN": "token", "GITHUB_ACTIONS": None}).invoke(main, arguments)
    assert outcome.exit_code == ExitCode.PUBLISH_FAILED, outcome.output
    (line,) = outcome.output.splitlines()
    resets = datetime.fromtimestamp(reset, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    assert line.startswith("error: posting the comment: GitHub's rate limit") and resets in line
    assert "longer than the 120 s mutcheck waits" in line and "run the job again" in line
    assert comment_gets(fake) == 1 and fake.writes() == []


@pytest.mark.parametrize("status", [403, 429])
def test_a_secondary_limit_waits_its_retry_after(fake, status):
    fake.failures.append(limited(status, SECONDARY, {"Retry-After": "7"}))
    waits: list[float] = []
    assert post(fake, waits) == "comment created"
    assert waits == [7.0]


def test_a_retry_after_longer_than_the_cap_is_not_obeyed(fake):
    fake.failures.append(limited(429, SECONDARY, {"Retry-After": "5"}))
    waits: list[float] = []
    with pytest.raises(PublishError, match=r"in 5 s, longer than the 2 s mutcheck waits") as raised:
        post(fake, waits, cap=2)
    assert "\n" not in str(raised.value)
    assert waits == [] and comment_gets(fake) == 1


def test_a_server_error_with_a_long_retry_after_is_not_obeyed_either(fake):
    fake.failures.append(Failure("GET", COMMENTS, 503, 1, "Unavailable", {"Retry-After": "5"}))
    waits: list[float] = []
    with pytest.raises(PublishError, match="longer than the 2 s"):
        post(fake, waits, cap=2)
    assert waits == []


@pytest.mark.parametrize(("status", "message"), [(429, "Too Many Requests"), (403, SECONDARY)])
def test_a_limit_without_headers_waits_a_minute_then_longer_each_time(fake, status, message):
    fake.failures.append(limited(status, message, {}, times=2))
    waits: list[float] = []
    assert post(fake, waits, cap=300) == "comment created"
    assert waits == [60.0, 120.0]
    assert comment_gets(fake) == 3


def test_a_limit_without_headers_fails_at_once_under_a_cap_below_a_minute(fake):
    fake.failures.append(limited(429, "Too Many Requests", {}))
    waits: list[float] = []
    with pytest.raises(PublishError, match="in 60 s, longer than the 30 s mutcheck waits"):
        post(fake, waits, cap=30)
    assert waits == []


def test_a_limit_that_persists_fails_after_the_retries(fake):
    fake.failures.append(limited(429, SECONDARY, {"Retry-After": "1"}, times=10))
    waits: list[float] = []
    with pytest.raises(PublishError, match="kept failing"):
        post(fake, waits, retries=2)
    assert waits == [1.0, 1.0] and comment_gets(fake) == 3


def test_a_refusal_that_is_no_rate_limit_is_neither_waited_for_nor_retried(fake):
    fake.failures.append(Failure("GET", COMMENTS, 403, 1, "Resource not accessible by integration"))
    waits: list[float] = []
    with pytest.raises(PublishError, match="403 Resource not accessible by integration"):
        post(fake, waits)
    assert waits == [] and comment_gets(fake) == 1
