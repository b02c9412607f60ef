"""Inline findings follow the code on a fake GitHub: moved, outdated, resolved, reopened, duplicated, one commit."""

import copy
import json

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.publish import github
from mutcheck.publish.publish import PublishError, publish
from tests.mutcheck.fake_github import NAME, NUMBER, OWNER, FakeGitHub
from tests.mutcheck.paths import GOLDEN
from tests.mutcheck.results_docs import typed

RESULTS = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))
REPOSITORY = f"{OWNER}/{NAME}"
HEAD = RESULTS["run"]["head_sha"]
MARKER = "<!-- mutcheck:inline SURVIVOR -->"


def post(fake: FakeGitHub, results=RESULTS) -> str:
    client = github.connect("token", fake.base, retries=3, backoff=0.01, throttle=False)
    return publish(typed(results), REPOSITORY, NUMBER, "token", fake.base, None, None, True, client=client)


def inline_counts(outcome: str) -> dict[str, int]:
    first_line = outcome.splitlines()[0]
    pairs = (item.split(" ", 1) for item in first_line.split("; inline: ")[1].split(", "))
    return {kind: int(count) for count, kind in pairs if int(count)}


def survivor_at(line: int, results=RESULTS) -> dict:
    moved = copy.deepcopy(results)
    survivor = next(m for m in moved["mutants"] if m["id"] == "SURVIVOR")
    survivor["span"]["start_line"] = line
    return moved


def killed(results=RESULTS) -> dict:
    gone = copy.deepcopy(results)
    survivor = next(m for m in gone["mutants"] if m["id"] == "SURVIVOR")
    survivor.update(verdict="killed", expectation_met=True, problems=[])
    return gone


def test_a_finding_whose_line_moved_is_posted_on_its_new_line_and_the_old_thread_resolved(fake):
    post(fake)
    (old,) = fake.review_comments
    assert inline_counts(post(fake, survivor_at(8))) == {"created": 1, "resolved": 1}
    assert [(c["line"], fake.thread_resolved(c)) for c in fake.review_comments] == [(7, True), (8, False)]
    assert old["body"].startswith(MARKER) and "Resolved at" not in old["body"]  # the finding, where it was
    assert fake.reviews[-1]["commit_id"] == HEAD
    assert inline_counts(post(fake, survivor_at(8))) == {"unchanged": 1}


def test_a_finding_whose_comment_github_marked_outdated_is_posted_again(fake):
    post(fake)
    (old,) = fake.review_comments
    fake.mark_outdated(old)  # a push changed line 7 since; the survivor is still on it
    assert inline_counts(post(fake)) == {"created": 1, "resolved": 1}
    new = fake.review_comments[1]
    assert (new["path"], new["line"], new["body"]) == ("src/tiny.py", 7, old["body"])
    assert fake.thread_resolved(old) and not fake.thread_resolved(new)
    assert len(fake.reviews) == 2
    assert inline_counts(post(fake)) == {"unchanged": 1}


def test_a_gone_survivor_resolves_its_thread_and_one_that_comes_back_reopens_it(fake):
    post(fake)
    (comment,) = fake.review_comments
    finding = comment["body"]
    assert inline_counts(post(fake, killed())) == {"resolved": 1}
    assert fake.thread_resolved(comment) and "Resolved at" in comment["body"]
    assert inline_counts(post(fake, killed())) == {}  # already resolved: nothing written
    assert inline_counts(post(fake)) == {"unresolved": 1}
    assert not fake.thread_resolved(comment) and comment["body"] == finding
    assert len(fake.review_comments) == 1 and len(fake.reviews) == 1


def test_a_token_that_may_not_resolve_threads_still_posts_and_says_what_it_left(fake):
    """GitHub refuses resolveReviewThread without `contents: write`: the findings are posted all the same."""
    post(fake)
    (old,) = fake.review_comments
    fake.may_resolve_threads = False
    outcome = post(fake, survivor_at(8))
    assert inline_counts(outcome) == {"created": 1, "resolved": 1}
    assert [c["line"] for c in fake.review_comments] == [7, 8] and not fake.thread_resolved(old)
    assert outcome.splitlines()[-1] == (
        "1 review thread left as they were: GitHub refused (FORBIDDEN: Resource not accessible by"
        " integration); resolving review threads needs the token's contents: write"
    )


def test_a_thread_a_reviewer_resolved_stays_resolved(fake):
    post(fake)
    (comment,) = fake.review_comments
    fake.resolved_threads.add(fake.thread_id(comment))  # "won't fix", by hand
    assert inline_counts(post(fake)) == {"unchanged": 1}
    assert fake.thread_resolved(comment)


def test_the_review_counts_the_comments_it_carries(fake):
    """Not the findings: one is outside the diff, so the review carries one comment and says one."""
    results = copy.deepcopy(RESULTS)
    survivor = next(m for m in results["mutants"] if m["id"] == "SURVIVOR")
    results["mutants"].append(
        {**copy.deepcopy(survivor), "id": "ELSEWHERE", "span": {**survivor["span"], "start_line": 30}}
    )
    outcome = post(fake, results)
    assert inline_counts(outcome) == {"created": 1, "outside the diff": 1}
    assert len(fake.reviews) == 1 and fake.reviews[0]["body"].startswith("mutcheck: 1 guard mutant survives")


def test_duplicates_of_a_finding_keep_the_newest_and_delete_the_rest(fake):
    post(fake)
    (first,) = fake.review_comments
    retried = fake.add_review_comment("src/tiny.py", 7, first["body"], "mutcheck-bot")  # a retried POST's copy
    newest = fake.add_review_comment("src/tiny.py", 7, MARKER + "\nan earlier run's text", "mutcheck-bot")
    first["created_at"], retried["created_at"], newest["created_at"] = (
        "2026-11-29T12:00:01Z",
        "2026-11-29T12:00:02Z",
        "2026-11-29T12:00:03Z",
    )
    foreign = fake.add_review_comment("src/tiny.py", 7, first["body"], "mallory")
    assert inline_counts(post(fake)) == {"deleted": 2, "updated": 1}
    deleted = sorted(path for method, path, _ in fake.writes() if method == "DELETE")
    assert deleted == sorted(f"/repos/{OWNER}/{NAME}/pulls/comments/{c['id']}" for c in (first, retried))
    assert [c["id"] for c in fake.review_comments] == [newest["id"], foreign["id"]]
    assert newest["body"] == first["body"] and len(fake.reviews) == 1


def test_threads_past_the_first_page_are_found(fake):
    for number in range(120):
        fake.add_review_comment("src/tiny.py", 5, f"remark {number}", "someone")
    post(fake)
    assert inline_counts(post(fake, killed())) == {"resolved": 1}
    assert fake.thread_resolved(fake.review_comments[-1])
    thread_queries = [
        body for method, path, body in fake.requests if path == "/graphql" and "reviewThreads" in body["query"]
    ]
    assert [query["variables"].get("after") for query in thread_queries[-2:]] == [None, "100"]


def test_a_finding_outside_the_diff_is_left_out_and_listed_and_the_rest_posted(fake, tmp_path):
    results = copy.deepcopy(RESULTS)
    survivor = next(m for m in results["mutants"] if m["id"] == "SURVIVOR")
    results["mutants"].append(
        dict(copy.deepcopy(survivor), id="FAR", span=dict(survivor["span"], start_line=40, end_line=40))
    )
    results["sources"]["src/tiny.py"] += "# more of the file, past the pull request's diff\n" * 10
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results), encoding="utf-8")
    result = comment_cli(fake, "--pr", "7", "--results", str(path), "--inline")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:] == [f"not posted inline: FAR at src/tiny.py:40, not in the diff at {HEAD}"]
    assert inline_counts(result.output) == {"created": 1, "outside the diff": 1}
    assert [(c["line"], c["body"].split(" -->")[0]) for c in fake.review_comments] == [
        (7, "<!-- mutcheck:inline SURVIVOR")
    ]


def comment_cli(fake: FakeGitHub, *args: str):
    return CliRunner(env={"GITHUB_TOKEN": "token", "GITHUB_ACTIONS": None}).invoke(
        main, ["comment", "--repo", REPOSITORY, "--api-url", fake.base, *args]
    )


def test_results_of_another_commit_than_the_pull_requests_head_are_refused(fake, tmp_path):
    fake.head_sha = "c" * 40  # pushed to since the run
    path = tmp_path / "results.json"
    path.write_text(json.dumps(RESULTS), encoding="utf-8")
    result = comment_cli(fake, "--pr", "7", "--results", str(path), "--inline")
    assert result.exit_code == ExitCode.PUBLISH_FAILED
    assert result.output.strip() == (
        f"error: reading the pull request: refusing to post: pull request #7 is at {'c' * 40}, not at {HEAD}"
    )
    assert fake.writes() == []


def test_results_made_outside_git_are_refused(fake):
    outside = copy.deepcopy(RESULTS)
    outside["run"]["head_sha"] = None
    with pytest.raises(PublishError, match="the results name no commit"):
        post(fake, outside)
    assert fake.writes() == []
