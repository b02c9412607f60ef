"""The GitHub workflows and the composite action: schema-valid, zizmor-clean, and the action's
run step really produces its outputs."""

import os
import subprocess
import sys
from pathlib import Path

import yaml

from tests.mutcheck.engine_project import make_engine_project

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
