"""The release: the sdist and the wheel as `python -m build` makes them (what they hold, what
`twine check` says, and `mutcheck run` from each installed in a clean venv), the release workflow
and the changelog."""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml

from mutcheck import __version__
from tests.mutcheck.engine_project import make_engine_project

REPOSITORY = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
RELEASE = REPOSITORY / ".github" / "workflows" / "release.yml"
PUBLISH_ACTION = "pypa/gh-action-pypi-publish@"
SDIST_ROOT = f"mutcheck-{__version__}"

# Files a working tree picks up that are no part of a release: outputs of runs and benchmarks
# (not ignored by git), a virtual environment, scratch and build folders and caches (ignored).
JUNK = [
    "results.json",
    "mutcheck-results/comment.md",
    "benchmarks/results-1.json",
    ".venv/pyvenv.cfg",
    ".scratch/notes.txt",
    "build/test-artifacts/report.html",
    "dist/mutcheck-0.0.0.tar.gz",
    "src/mutcheck/__pycache__/cli.cpython-311.pyc",
    ".coverage",
]


def clean_environment() -> dict[str, str]:
    """This process's environment without what would lead a child to this checkout or this venv."""
    return {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "MUTCHECK_RUNNING"}
    }


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, env=clean_environment(), capture_output=True, text=True)


def copy_working_tree(destination: Path) -> None:
    """What git tracks and what it does not ignore, symbolic links kept as links."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPOSITORY,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPOSITORY / name
        if not source.is_symlink() and not source.exists():  # deleted in the working tree
            continue
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel built once from a copy of the working tree with junk in it."""
    tree = tmp_path_factory.mktemp("tree") / "mutcheck"
    copy_working_tree(tree)
    for name in JUNK:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text("junk\n", encoding="utf-8")
    out = tmp_path_factory.mktemp("dist")
    built = run([sys.executable, "-m", "build", "--outdir", str(out), str(tree)], cwd=out)
    assert built.returncode == 0, built.stdout + built.stderr
    files = {"sdist": out / f"{SDIST_ROOT}.tar.gz", "wheel": out / f"mutcheck-{__version__}-py3-none-any.whl"}
    assert sorted(out.iterdir()) == sorted(files.values())
    return files


def sdist_names(sdist: Path) -> list[str]:
    with tarfile.open(sdist) as archive:
        names = [member.name for member in archive.getmembers() if member.isfile()]
    assert all(name.startswith(f"{SDIST_ROOT}/") for name in names)
    return [name.removeprefix(f"{SDIST_ROOT}/") for name in names]


def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_the_wheel_is_mutcheck_with_its_schema_and_templates(dist):
    names = wheel_names(dist["wheel"])
    assert {name.split("/")[0] for name in names} == {"mutcheck", f"mutcheck-{__version__}.dist-info"}
    assert "mutcheck/schemas/results-v1.schema.json" in names
    templates = sorted(
        path.relative_to(REPOSITORY / "templates").as_posix()
        for path in (REPOSITORY / "templates").rglob("*")
        if path.is_file()
    )
    assert {"strings.toml", "comment.md.j2", "report.html.j2", "workflows/mutcheck.yml"} <= set(templates)
    assert sorted(name.removeprefix("mutcheck/templates/") for name in names if "/templates/" in name) == templates
    assert not [name for name in names if "tests/" in name or "consolidation" in name or name.endswith(".pyc")]


def test_the_sdist_holds_the_source_and_no_junk(dist):
    names = sdist_names(dist["sdist"])
    assert {name.split("/")[0] for name in names} == {
        ".github",
        ".gitignore",
        "CHANGELOG.md",
        "PKG-INFO",
        "README.md",
        "benchmarks",
        "docs",
        "mutants",
        "noxfile.py",
        "pyproject.toml",
        "src",
        "tests",
    }
    for needed in (
        "src/mutcheck/cli.py",
        "src/mutcheck/schemas/results-v1.schema.json",
        "src/mutcheck/templates/strings.toml",
        "src/consolidation/__init__.py",
        "tests/mutcheck/engine_project.py",
        "mutants/families.toml",
        ".github/workflows/release.yml",
    ):
        assert needed in names
    assert not set(JUNK) & set(names)
    assert not [name for name in names if "__pycache__" in name or name.startswith("benchmarks/results")]


def test_twine_check_strict_passes_on_both(dist):
    checked = run([str(BIN / "twine"), "check", "--strict", str(dist["sdist"]), str(dist["wheel"])], cwd=REPOSITORY)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2, checked.stdout


@pytest.mark.parametrize("kind", ["sdist", "wheel"])
def test_installed_mutcheck_runs_a_project_from_outside_the_repository(dist, kind, tmp_path):
    venv = tmp_path / "venv"
    created = run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    installed = run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(dist[kind])], cwd=tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    mutcheck = str(venv / "bin" / "mutcheck")
    project = make_engine_project(tmp_path / "project")

    version = run([mutcheck, "--version"], cwd=project)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"mutcheck, version {__version__}"
    location = run([str(venv / "bin" / "python"), "-c", "import mutcheck; print(mutcheck.__file__)"], cwd=project)
    assert Path(location.stdout.strip()).is_relative_to(venv), location.stdout + location.stderr

    completed = run(
        [
            mutcheck,
            "run",
            *("--only", "SWAP", "--only", "FALLBACK", "--only", "EQUAL"),
            *("--json", "results.json", "--markdown", "comment.md", "--html", "report.html"),
        ],
        cwd=project,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "Traceback" not in completed.stdout + completed.stderr
    results = json.loads((project / "results.json").read_text(encoding="utf-8"))
    assert results["run"]["mutcheck_version"] == __version__
    assert {mutant["id"]: mutant["verdict"] for mutant in results["mutants"]} == {
        "SWAP": "killed",
        "FALLBACK": "killed",
        "EQUAL": "equivalent",
    }
    comment = (project / "comment.md").read_text(encoding="utf-8")
    assert comment.startswith("<!-- mutcheck -->") and "中文说明" in comment
    assert "SWAP" in (project / "report.html").read_text(encoding="utf-8")


def release_workflow() -> dict:
    workflow = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
    workflow["on"] = workflow.pop(True)  # YAML 1.1 reads the key `on` as true
    return workflow


def test_release_runs_on_version_tags_only_and_publishes_without_secrets():
    workflow = release_workflow()
    assert workflow["on"] == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    assert build["permissions"] == {"contents": "read"}
    checkout = next(step for step in build["steps"] if step.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["persist-credentials"] is False
    step_ids = [step.get("id") or step.get("uses", "").split("@")[0] for step in build["steps"]]
    assert step_ids.index("tag-matches-version") < step_ids.index("actions/upload-artifact")
    assert publish["needs"] == "build"
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    uploads = [step for step in publish["steps"] if step.get("uses", "").startswith(PUBLISH_ACTION)]
    assert len(uploads) == 1
    assert set(uploads[0].get("with", {})) <= {"packages-dir"}  # no password: trusted publishing
    assert "secrets." not in RELEASE.read_text(encoding="utf-8")
    assert not any(step.get("uses", "").startswith("actions/checkout@") for step in publish["steps"])


def tag_check(dist_folder: Path, tag: str) -> subprocess.CompletedProcess:
    """The build job's tag check, run as the workflow runs it, on a folder of built files."""
    steps = release_workflow()["jobs"]["build"]["steps"]
    script = next(step["run"] for step in steps if step.get("id") == "tag-matches-version")
    environment = {**clean_environment(), "TAG": tag}
    return subprocess.run(["bash", "-c", script], cwd=dist_folder, env=environment, capture_output=True, text=True)


def test_release_refuses_a_tag_that_is_not_the_package_version(dist, tmp_path):
    (tmp_path / "dist").mkdir()
    for path in dist.values():
        shutil.copy2(path, tmp_path / "dist")
    accepted = tag_check(tmp_path, f"v{__version__}")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    for wrong in ("v9.9.9", __version__, f"v{__version__}.1"):
        refused = tag_check(tmp_path, wrong)
        assert refused.returncode == 1, wrong
        assert f"::error::tag {wrong} is not v{__version__} " in refused.stdout, refused.stdout


def changelog_sections() -> dict[str, str]:
    """Each `## [name]` heading of CHANGELOG.md and the rest of its line."""
    text = (REPOSITORY / "CHANGELOG.md").read_text(encoding="utf-8")
    return dict(re.findall(r"^## \[([^\]]+)\](.*)$", text, flags=re.MULTILINE))


def test_changelog_has_a_dated_section_for_the_current_version():
    sections = changelog_sections()
    assert list(sections)[:2] == ["Unreleased", __version__], "newest first, under Unreleased"
    assert re.fullmatch(r" - \d{4}-\d{2}-\d{2}", sections.get(__version__, "")), (
        f"CHANGELOG.md has no '## [{__version__}] - YYYY-MM-DD' section for the package's version"
    )
