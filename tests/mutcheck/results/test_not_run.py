"""An artifact without results: its status file is validated, and the comment says why mutcheck did not run."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.escape import MARKER
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.problems import InputError
from mutcheck.report.markdown import render_not_run
from mutcheck.results.artifact import NotRun, read_artifact
from tests.mutcheck.fake_github import HEAD_SHA, NAME, OWNER, FakeGitHub

STATUS = {"stage": "run", "finished": False, "exit_status": 2, "errors": ["error: x"], "head_sha": HEAD_SHA}


def artifact(tmp_path: Path, status: object) -> Path:
    directory = tmp_path / "artifact"
    directory.mkdir()
    (directory / "pr-number").write_text("7\n", encoding="ascii")
    text = status if isinstance(status, str) else json.dumps(status)
    (directory / "status.json").write_text(text, encoding="utf-8")
    return directory


def test_a_status_file_alone_reads_as_a_run_that_did_not_finish(tmp_path):
    not_run, number = read_artifact(artifact(tmp_path, STATUS))
    assert number == 7 and not_run == NotRun("run", 2, ("error: x",), HEAD_SHA)


@pytest.mark.parametrize(
    ("status", "field"),
    [
        ({**STATUS, "finished": True}, "finished: says the run finished, but results.json is missing"),
        ({**STATUS, "stage": "deploy"}, "stage: missing or of the wrong type"),
        ({**STATUS, "exit_status": "2"}, "exit_status: missing or of the wrong type"),
        ({**STATUS, "exit_status": True}, "exit_status: missing or of the wrong type"),
        ({**STATUS, "errors": [1]}, "errors: missing or of the wrong type"),
        ({**STATUS, "head_sha": "HEAD"}, "head_sha: missing or of the wrong type"),
        ([STATUS], "finished: missing or of the wrong type"),
        ("{not json", "not JSON (JSONDecodeError)"),
    ],
)
def test_a_status_file_that_lies_is_refused_with_its_field(tmp_path, status, field):
    directory = artifact(tmp_path, status)
    with pytest.raises(InputError) as raised:
        read_artifact(directory)
    (problem,) = raised.value.problems
    assert str(problem) == f"{directory / 'status.json'}: {field}"


def test_the_comment_neutralises_what_the_failed_run_printed():
    hostile = "error: ```\n@maintainer see #1 <!-- mutcheck --> </details> https://evil.example \u202e"
    body = render_not_run(NotRun("run", 2, tuple(hostile.split("\n")), HEAD_SHA), ("en", "zh"))
    assert body.startswith(MARKER + "\n")
    assert "**mutcheck did not run: mutcheck run exited with status 2 without writing results.**" in body
    assert "mutcheck 没有运行：mutcheck run 以退出状态 2 结束，没有写出结果。" in body
    fence = "````"  # longer than the run of backticks inside, so nothing closes it early
    assert f"{fence}\nerror: ```\n@maintainer" in body and "<U+202E>" in body
    outside_code = "".join(body.split(fence)[0::2])  # the hostile text is only ever inside the code blocks
    assert outside_code.count(MARKER) == 1 and outside_code.count("</details>") == 1
    assert "@maintainer" not in outside_code and "evil.example" not in outside_code


def test_install_failure_and_unfinished_runs_have_their_own_reason():
    install = render_not_run(NotRun("install", None, (), None), ("en",))
    assert "installing mutcheck or the project under test failed" in install and "head commit unknown" in install
    merge = render_not_run(NotRun("merge", None, (), HEAD_SHA), ("zh",))
    assert "mutcheck merge 没有运行完（作业被停止、取消或超时）。" in merge


def test_comment_from_a_status_only_artifact_posts_once_and_leaves_inline_findings_alone(tmp_path):
    directory = artifact(tmp_path, STATUS)
    with FakeGitHub() as fake:
        arguments = ["comment", "--repo", f"{OWNER}/{NAME}", "--api-url", fake.base, "--inline"]
        env = {"GITHUB_TOKEN": "token", "GITHUB_ACTIONS": None}
        result = CliRunner(env=env).invoke(
            main, [*arguments, "--from-artifact", str(directory), "--head-sha", HEAD_SHA]
        )
        assert result.exit_code == 0, result.output
        assert result.output.strip() == "comment created"  # no inline step
        (comment,) = fake.comments
        assert "mutcheck did not run" in comment["body"] and fake.review_comments == []
        other = CliRunner(env=env).invoke(main, [*arguments, "--from-artifact", str(directory), "--head-sha", "b" * 40])
        assert other.exit_code == ExitCode.PUBLISH_FAILED
        assert f"the results were made at {HEAD_SHA}, not at {'b' * 40}" in other.output
        fake.head_sha = "c" * 40  # the pull request moved on since that run
        moved = CliRunner(env=env).invoke(main, [*arguments, "--from-artifact", str(directory), "--head-sha", HEAD_SHA])
        assert moved.exit_code == ExitCode.PUBLISH_FAILED
        assert f"pull request #7 is at {'c' * 40}, not at {HEAD_SHA}" in moved.output
        assert len(fake.comments) == 1
