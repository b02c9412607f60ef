"""Runs a workflow's jobs offline the way GitHub Actions would, as far as mutcheck's steps go.

Shell steps (the workflow's and each composite action's own) really run, with GitHub's
environment: GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, GITHUB_ACTION_PATH,
GITHUB_WORKSPACE, RUNNER_OS, … and a home of the runner's own. What needs GitHub itself is played
by the runner: checkout (the workspace is already at the commit), setup-python (the given
interpreter is first on PATH), upload and download of artifacts (folders copied to and from
`artifacts`), and restore and save of caches (folders copied from and to `caches`, one scope for
all: an exact key, else the newest entry starting with the first restore key that has one).
`OWNER/REPO/.github/actions/X@REF` resolves to this repository's own `.github/actions/X`, as
GitHub would fetch it at REF. Expressions are the plain `${{ a.b.c }}` lookups and the
`hashFiles('pattern', …)` mutcheck's files use, and conditions `always()`, `success()` and
comparisons of a lookup with a string joined by `&&`; anything else fails.
"""

import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPOSITORY = Path(__file__).resolve().parents[2]
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_PLAYED = (
    "actions/checkout@",
    "actions/setup-python@",
    "actions/upload-artifact@",
    "actions/download-artifact@",
    "actions/cache/restore@",
    "actions/cache/save@",
)
_COMPARISON = re.compile(r"([a-z_]+(?:\.[A-Za-z0-9_-]+)+) (==|!=) '([^']*)'")


@dataclass
class StepRun:
    name: str
    returncode: int
    stdout: str
    stderr: str


@dataclass
class Runner:
    """One simulated runner: a workspace, an interpreter's bin directory, the artifacts of a run."""

    workspace: Path
    bin_dir: Path
    temp: Path
    event: dict[str, Any]
    environment: dict[str, str]  # GITHUB_REPOSITORY, GITHUB_API_URL, …
    actions: str  # OWNER/REPO the workflows take mutcheck's actions from
    artifacts: dict[str, Path] = field(default_factory=dict)
    caches: list[tuple[str, Path]] = field(default_factory=list)  # (key, saved folder), oldest first
    steps: list[StepRun] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    action_outputs: list[dict[str, str]] = field(default_factory=list)  # each composite action's, in order

    def run_job(self, workflow: dict[str, Any], job_name: str, matrix: dict[str, Any] | None = None) -> bool:
        """Every step of one job, in order; True when the job succeeded."""
        job = workflow["jobs"][job_name]
        self.home.mkdir(parents=True, exist_ok=True)
        context = {"github": self._github(), "matrix": matrix or {}, "steps": {}}
        failed = False
        for step in job["steps"]:
            if not _should_run(step, failed, context):
                continue
            ok = self._step(step, context, None)  # a workflow step: no action path
            failed = failed or not ok
        return not failed

    def _github(self) -> dict[str, Any]:
        named = {"sha": "GITHUB_SHA", "base_ref": "GITHUB_BASE_REF", "ref_name": "GITHUB_REF_NAME"}
        return {
            "event": self.event,
            "token": self.environment["GITHUB_TOKEN"],
            "workspace": str(self.workspace),
            **{name: self.environment.get(variable, "") for name, variable in named.items()},
        }

    @property
    def home(self) -> Path:
        return self.temp / "home"

    def _step(self, step: dict[str, Any], context: dict[str, Any], action_path: Path | None) -> bool:
        with_ = {key: evaluate(_text(value), context) for key, value in step.get("with", {}).items()}
        uses = step.get("uses")
        if uses is None:
            env = {key: evaluate(_text(value), context) for key, value in step.get("env", {}).items()}
            ok, outputs = self._shell(step.get("name", "run"), step["run"], env, action_path)
        elif uses.startswith(_PLAYED):
            ok, outputs = self._played(uses, with_)
        else:
            ok, outputs = self._composite(uses, with_)
        if "id" in step:
            context["steps"][step["id"]] = {"outputs": outputs}
        return ok or step.get("continue-on-error") is True

    def _played(self, uses: str, with_: dict[str, str]) -> tuple[bool, dict[str, str]]:
        if uses.startswith("actions/cache/"):
            return self._cache(uses, with_)
        return self._artifact_or_setup(uses, with_), {}

    def _cache(self, uses: str, with_: dict[str, str]) -> tuple[bool, dict[str, str]]:
        assert with_["path"].startswith("~/") and "\n" not in with_["path"], with_["path"]
        folder = self.home / with_["path"][2:]
        key = with_["key"]
        if uses.startswith("actions/cache/save@"):
            # as actions/cache warns and saves nothing: no key, no folder, or the key already taken
            if key and folder.is_dir() and key not in dict(self.caches):
                saved = self.temp / "caches" / str(len(self.caches))
                shutil.copytree(folder, saved)
                self.caches.append((key, saved))
            return True, {}
        prefixes = [line.strip() for line in with_.get("restore-keys", "").splitlines() if line.strip()]
        saved = dict(self.caches)
        newest_first = [name for name, _ in reversed(self.caches)]
        matched = key if key in saved else next((n for p in prefixes for n in newest_first if n.startswith(p)), "")
        if matched:
            shutil.copytree(saved[matched], folder, dirs_exist_ok=True)
        return True, {"cache-hit": str(matched == key).lower(), "cache-primary-key": key, "cache-matched-key": matched}

    def _artifact_or_setup(self, uses: str, with_: dict[str, str]) -> bool:
        if uses.startswith("actions/checkout@"):
            assert with_.get("persist-credentials") == "false", "a checkout keeps no credentials"
        elif uses.startswith("actions/upload-artifact@"):
            source = self.workspace / with_["path"]
            if not source.exists():
                return False
            destination = self.temp / "artifacts" / with_["name"]
            shutil.rmtree(destination, ignore_errors=True)
            shutil.copytree(source, destination)
            self.artifacts[with_["name"]] = destination
        elif uses.startswith("actions/download-artifact@"):
            target = self.workspace / with_["path"]
            if "name" in with_:
                if with_["name"] not in self.artifacts:
                    return False
                shutil.copytree(self.artifacts[with_["name"]], target, dirs_exist_ok=True)
            else:
                for name, folder in self.artifacts.items():
                    if fnmatch.fnmatch(name, with_["pattern"]):
                        shutil.copytree(folder, target / name, dirs_exist_ok=True)
        return True

    def _composite(self, uses: str, with_: dict[str, str]) -> tuple[bool, dict[str, str]]:
        match = re.fullmatch(r"(?:\./|(?P<repo>[^/]+/[^/]+)/)\.github/actions/(?P<name>[a-z-]+)(?:@(?P<ref>.+))?", uses)
        assert match, f"not one of mutcheck's actions: {uses}"
        if match.group("repo"):
            assert match.group("repo") == self.actions and match.group("ref"), uses
        action_dir = REPOSITORY / ".github" / "actions" / match.group("name")
        action = yaml.safe_load((action_dir / "action.yml").read_text(encoding="utf-8"))
        assert set(with_) <= set(action["inputs"]), f"{uses}: unknown inputs {set(with_) - set(action['inputs'])}"
        github = self._github()
        inputs = {
            name: with_[name] if name in with_ else evaluate(str(spec.get("default", "")), {"github": github})
            for name, spec in action["inputs"].items()
        }
        context = {"github": github, "inputs": inputs, "steps": {}}
        failed = False
        for step in action["runs"]["steps"]:
            if _should_run(step, failed, context):
                ok = self._step(step, context, action_dir)  # run even after a failure, for `always()`
                failed = failed or not ok
        outputs = {name: evaluate(spec["value"], context) for name, spec in action.get("outputs", {}).items()}
        self.action_outputs.append(outputs)
        return not failed, outputs

    def _shell(
        self, name: str, script: str, env: dict[str, str], action_path: Path | None
    ) -> tuple[bool, dict[str, str]]:
        script_file = self.temp / "step.sh"
        script_file.write_text(script, encoding="utf-8")
        output_file = self.temp / "output"
        summary_file = self.temp / "summary"
        event_file = self.temp / "event.json"
        event_file.write_text(json.dumps(self.event), encoding="utf-8")
        for path in (output_file, summary_file):
            path.write_text("", encoding="utf-8")
        environment = {
            "PATH": f"{self.bin_dir}{os.pathsep}{os.environ['PATH']}",
            "HOME": str(self.home),  # the machine's: its caches start empty, as GitHub's runners' do
            "RUNNER_OS": "Linux",
            "LANG": "C.UTF-8",
            "GITHUB_ACTIONS": "true",
            "CI": "true",
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_EVENT_PATH": str(event_file),
            "GITHUB_OUTPUT": str(output_file),
            "GITHUB_STEP_SUMMARY": str(summary_file),
            "RUNNER_TEMP": str(self.temp),
            **({"GITHUB_ACTION_PATH": str(action_path)} if action_path else {}),
            **{key: value for key, value in self.environment.items() if key != "GITHUB_TOKEN"},
            **env,
        }
        completed = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script_file)],
            cwd=self.workspace,
            env=environment,
            capture_output=True,
            text=True,
        )
        self.steps.append(StepRun(name, completed.returncode, completed.stdout, completed.stderr))
        if summary := summary_file.read_text(encoding="utf-8"):
            self.summaries.append(summary)
        outputs = dict(
            line.split("=", 1) for line in output_file.read_text(encoding="utf-8").splitlines() if "=" in line
        )
        return completed.returncode == 0, outputs

    def log(self) -> str:
        """Every step's output, for assertion messages."""
        return "\n".join(f"--- {s.name} ({s.returncode})\n{s.stdout}\n{s.stderr}" for s in self.steps)


def _text(value: object) -> str:
    """A YAML value as Actions passes it on: booleans as true/false."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _should_run(step: dict[str, Any], failed: bool, context: dict[str, Any]) -> bool:
    """The step's `if:`; without `always()` it holds `success()`, as in Actions."""
    terms = [term.strip() for term in str(step.get("if", "success()")).split("&&")]
    holds = "always()" in terms or not failed
    for term in terms:
        if term not in ("always()", "success()"):
            comparison = _COMPARISON.fullmatch(term)
            assert comparison, f"unsupported condition: {term}"
            value = evaluate(f"${{{{ {comparison.group(1)} }}}}", context)
            holds = holds and (value == comparison.group(3)) == (comparison.group(2) == "==")
    return holds


def evaluate(text: str, context: dict[str, Any]) -> str:
    """`text` with each `${{ a.b.c }}` looked up in `context` (a missing leaf is empty, as in Actions)."""

    def lookup(match: re.Match[str]) -> str:
        expression = match.group(1)
        if hashed := re.fullmatch(r"hashFiles\(('[^']+'(?:, '[^']+')*)\)", expression):
            return hash_files(Path(context["github"]["workspace"]), re.findall(r"'([^']+)'", hashed.group(1)))
        assert re.fullmatch(r"[a-z_]+(\.[A-Za-z0-9_-]+)+", expression), f"unsupported expression: {expression}"
        value: Any = context
        for part in expression.split("."):
            assert value is None or isinstance(value, dict), f"{expression}: {part} of a non-object"
            value = None if value is None else value.get(part)  # a skipped step's outputs are empty
        return "" if value is None else str(value)

    return _EXPRESSION.sub(lookup, text)


def hash_files(workspace: Path, patterns: list[str]) -> str:
    """hashFiles like GitHub's: SHA-256 over each matched file's SHA-256, empty when none matches."""
    matched = sorted({path for pattern in patterns for path in workspace.glob(pattern) if path.is_file()})
    if not matched:
        return ""
    combined = hashlib.sha256()
    for path in matched:
        combined.update(hashlib.sha256(path.read_bytes()).digest())
    return combined.hexdigest()
