"""The GitHub workflows and the composite action: schema-valid, zizmor-clean, the action's run
step really produces its outputs, and the reuse store is cached between runs under one key."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.harden.harden_project import MUTANTS, gap_entry, make_harden_project

REPOSITORY = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
WORKFLOWS = sorted((REPOSITORY / ".github" / "workflows").glob("*.yml"))
ACTIONS = sorted((REPOSITORY / ".github" / "actions").glob("*/action.yml"))
RUN_ACTION = REPOSITORY / ".github" / "actions" / "run"


def tool(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / command[0]), *command[1:]], cwd=REPOSITORY, capture_output=True, text=True)


def test_workflows_and_action_match_githubs_schemas():
    assert {path.name for path in WORKFLOWS} >= {"ci.yml", "mutcheck.yml", "mutcheck-comment.yml"}
    workflows = tool("check-jsonschema", "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOWS))
    assert workflows.returncode == 0, workflows.stdout + workflows.stderr
    assert [path.parent.name for path in ACTIONS] == ["comment", "run"]
    action = tool("check-jsonschema", "--builtin-schema", "vendor.github-actions", *map(str, ACTIONS))
    assert action.returncode == 0, action.stdout + action.stderr


def test_zizmor_offline_has_no_findings():
    audit = tool("zizmor", "--offline", "--no-progress", ".")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "No findings to report" in audit.stdout + audit.stderr


def test_every_third_party_action_is_pinned_by_commit():
    for path in [*WORKFLOWS, *ACTIONS]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if "uses:" in line and "uses: ./" not in line:
                reference = line.split("uses:", 1)[1].split("#")[0].strip()
                version = reference.partition("@")[2]
                assert len(version) == 40 and all(c in "0123456789abcdef" for c in version), f"{path.name}: {line}"


def test_privileged_workflow_never_checks_out_pull_request_code():
    comment = yaml.safe_load((REPOSITORY / ".github/workflows/mutcheck-comment.yml").read_text(encoding="utf-8"))
    assert comment["permissions"] == {}
    job = comment["jobs"]["comment"]
    assert job["permissions"] == {"actions": "read", "contents": "read", "pull-requests": "write"}  # private ones too
    for step in job["steps"]:
        assert "ref" not in step.get("with", {}), step  # default branch only
    untrusted = yaml.safe_load((REPOSITORY / ".github/workflows/mutcheck.yml").read_text(encoding="utf-8"))
    assert untrusted["permissions"] == {"contents": "read"}


def test_action_run_step_writes_counts_and_exit_status(tmp_path):
    project = make_engine_project(tmp_path / "project")
    steps = yaml.safe_load((RUN_ACTION / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]
    script = next(step["run"] for step in steps if step.get("id") == "run")
    outputs = tmp_path / "outputs"
    environment = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "ARGS": "--only SWAP --only SURVIVOR",
        "OUT": "out",
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_ACTION_PATH": str(RUN_ACTION),
    }
    completed = subprocess.run(["bash", "-c", script], cwd=project, env=environment, capture_output=True, text=True)
    assert completed.returncode == 1, completed.stdout + completed.stderr  # SURVIVOR's expectation fails
    assert outputs.read_text().splitlines() == ["exit-status=1", "mutants=2", "killed=1", "survived=1", "unmet=1"]
    assert {path.name for path in (project / "out").iterdir()} == {
        "results.json",
        "comment.md",
        "report.html",
        "stryker.json",
        "status.json",
    }


def test_action_run_step_hardens_the_survivors_among_the_findings(tmp_path):
    """With `harden`, a survivor that fails its expectation gets a proven test in the results and the comment."""
    catalog = gap_entry("M-STATE", *MUTANTS["M-STATE"]).replace(
        'survives = { en = "no test asserts it", zh = "没有测试断言它" }',
        'killed_by = ["tests/test_histories.py::test_close_records_it"]',
    )
    project = make_harden_project(tmp_path / "project", catalog)
    script = next(step["run"] for step in action_steps() if step.get("id") == "run")
    environment = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "ARGS": "",
        "OUT": "out",
        "HARDEN": "tests/test_mutcheck_guards.py",
        "GITHUB_OUTPUT": str(tmp_path / "outputs"),
        "GITHUB_ACTION_PATH": str(RUN_ACTION),
    }
    completed = subprocess.run(["bash", "-c", script], cwd=project, env=environment, capture_output=True, text=True)
    assert completed.returncode == 1, completed.stdout + completed.stderr  # the run's status: M-STATE survived
    assert "hardened: M-STATE  by tests/test_mutcheck_guards.py::test_kills_m_state" in completed.stdout
    results = json.loads((project / "out" / "results.json").read_text(encoding="utf-8"))
    assert results["mutants"][0]["hardened"]["test"] == "tests/test_mutcheck_guards.py::test_kills_m_state"
    comment = (project / "out" / "comment.md").read_text(encoding="utf-8")
    assert "```python\nfrom histories import Tracker\n\n\ndef test_kills_m_state():" in comment


STORE = "~/.cache/mutcheck/reuse"
PINNED_CACHE = re.compile(r"uses: actions/cache/(restore|save)@([0-9a-f]{40}) # v4\.\d+\.\d+$")
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def reuse_steps(steps: list[dict]) -> tuple[dict, dict, dict]:
    """The steps that name, restore and save the reuse store's cache entry."""
    (key,) = [step for step in steps if step.get("id") == "reuse-key"]
    (restore,) = [step for step in steps if step.get("uses", "").startswith("actions/cache/restore@")]
    (save,) = [step for step in steps if step.get("uses", "").startswith("actions/cache/save@")]
    return key, restore, save


def action_steps() -> list[dict]:
    return yaml.safe_load((RUN_ACTION / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]


def ci_steps() -> list[dict]:
    ci = yaml.safe_load((REPOSITORY / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    return ci["jobs"]["test"]["steps"]


def key_outputs(tmp_path: Path, script: str, **environment: str) -> dict[str, str]:
    outputs = tmp_path / "outputs"
    outputs.write_text("", encoding="utf-8")
    environment = {"PATH": os.environ["PATH"], "GITHUB_OUTPUT": str(outputs), **environment}
    completed = subprocess.run(["bash", "-eo", "pipefail", "-c", script], env=environment, capture_output=True)
    assert completed.returncode == 0, completed.stderr
    return dict(line.split("=", 1) for line in outputs.read_text(encoding="utf-8").splitlines())


def test_the_reuse_stores_cache_key_is_environment_shard_base_branch_commit_and_run(tmp_path):
    key, _, _ = reuse_steps(action_steps())
    dependencies = key["env"]["DEPENDENCIES"]
    patterns = set(re.findall(r"'([^']+)'", dependencies))
    assert dependencies.startswith("${{ hashFiles(") and {"pyproject.toml", "*.lock"} <= patterns
    assert key["env"]["PART"] == "${{ inputs.cache-part }}" and key["env"]["PYTHON"] == "${{ inputs.python-version }}"
    common = {"RUNNER_OS": "Linux", "PYTHON": "3.12", "DEPENDENCIES": "d0", "GITHUB_SHA": COMMIT, "GITHUB_RUN_ID": "9"}
    shard = key_outputs(
        tmp_path, key["run"], **common, PART="shard-2", GITHUB_BASE_REF="main", GITHUB_REF_NAME="7/merge"
    )
    environment = "mutcheck-reuse-Linux-py3.12-d0-shard-2-"
    assert shard == {
        "key": f"{environment}main-{COMMIT}-9",
        "on-base": f"{environment}main-",
        "environment": environment,
    }
    # a push has no base branch: its own is the one pull requests fall back to; a comma is no key's
    push = key_outputs(tmp_path, key["run"], **common, PART="", GITHUB_BASE_REF="", GITHUB_REF_NAME="v2,main")
    assert push["key"] == f"mutcheck-reuse-Linux-py3.12-d0-v2_main-{COMMIT}-9"


def test_the_reuse_store_is_restored_and_saved_by_actions_cache_pinned_by_commit():
    commits = set()
    for path in (RUN_ACTION / "action.yml", REPOSITORY / ".github" / "workflows" / "ci.yml"):
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if "actions/cache" in line]
        pinned = [PINNED_CACHE.search(line) for line in lines]
        assert len(lines) == 2 and all(pinned), lines  # a version comment on each pin
        commits |= {match.group(2) for match in pinned if match}
    assert len(commits) == 1  # the same release everywhere
    for steps in (action_steps(), ci_steps()):
        key, restore, save = reuse_steps(steps)
        for step in (restore, save):
            assert step["with"]["path"] == STORE and step["with"]["key"] == "${{ steps.reuse-key.outputs.key }}"
            assert step["continue-on-error"] is True  # the cache is a speed-up: it never fails the run
        fallbacks = restore["with"]["restore-keys"].splitlines()
        assert fallbacks == ["${{ steps.reuse-key.outputs.on-base }}", "${{ steps.reuse-key.outputs.environment }}"]
        assert save["if"].startswith("always() && ")  # saved whatever the verdicts, failing ones included
        running = [n for n, step in enumerate(steps) if "mutcheck run " in step.get("run", "")]
        assert steps.index(key) < steps.index(restore) < min(running) <= max(running) < steps.index(save)


def test_ci_keeps_the_reuse_store_under_the_run_actions_key_before_the_sweep():
    """What a push to main saves is what pull requests' mutcheck runs restore: the same key."""
    ci, action = ci_steps(), action_steps()
    (ci_key, ci_restore, ci_save), (key, restore, save) = reuse_steps(ci), reuse_steps(action)
    assert ci_key["run"] == key["run"] and ci_key["env"]["DEPENDENCIES"] == key["env"]["DEPENDENCIES"]
    inputs = yaml.safe_load((RUN_ACTION / "action.yml").read_text(encoding="utf-8"))["inputs"]
    (python,) = [step["with"]["python-version"] for step in ci if "setup-python" in step.get("uses", "")]
    assert ci_key["env"]["PYTHON"] == python == inputs["python-version"]["default"] and ci_key["env"]["PART"] == ""
    assert (ci_restore["with"], ci_save["with"]) == (restore["with"], save["with"])
    (sweep,) = [n for n, step in enumerate(ci) if "self_sweep.py" in step.get("run", "")]
    assert ci.index(ci_save) < sweep  # its scratch copy is a project of its own, not to be kept
