"""The scratch copy: what git would commit, never virtual environments, VCS folders or caches."""

import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.results import load_results
from mutcheck.scratch import copy_project
from tests.mutcheck.engine_project import entry, make_project

JUNK = {
    "venv-x/pyvenv.cfg": "home = /usr/bin\n",
    "venv-x/lib/site-packages/big.py": "# padding\n" * 200_000,
    "conda-env/conda-meta/history": "==> 2026-01-01 <==\n",
    "conda-env/lib/python3.11/site-packages/big.py": "# padding\n",
    ".hypothesis/examples/abc": "x",
    "node_modules/left-pad/index.js": "module.exports = 1;\n",
    "src/.mypy_cache/tiny.json": "{}",
    "tests/__pycache__/test_tiny.cpython.pyc": "x",
}


def _project(root: Path, git: bool) -> tuple[Path, set[str]]:
    """The fixture project without a .gitignore (committed if `git`), then junk beside it."""
    project = make_project(root, entry(replace='"value > low"'))
    (project / ".gitignore").unlink()
    if git:
        for command in (
            ["git", "init", "-q", "-b", "main"],
            ["git", "add", "-A"],
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "fixture"],
        ):
            subprocess.run(command, cwd=project, check=True)
    wanted = {
        str(path.relative_to(project)) for path in project.rglob("*") if path.is_file() and ".git" not in path.parts
    }
    for name, text in JUNK.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    (project / "notes.txt").write_text("untracked, not ignored: copied\n")
    return project, wanted | {"notes.txt"}


@pytest.mark.parametrize("git", [True, False], ids=["git", "no-git"])
def test_the_copy_skips_virtual_environments_vcs_folders_and_caches(tmp_path, git):
    project, wanted = _project(tmp_path / "project", git)
    copied = copy_project(project, tmp_path / "copy")
    files = {str(path.relative_to(tmp_path / "copy")) for path in (tmp_path / "copy").rglob("*") if path.is_file()}
    assert files == wanted
    assert (copied.files, copied.bytes) == (len(wanted), sum((project / name).stat().st_size for name in wanted))


def test_the_run_reports_the_copy_size(tmp_path):
    project, wanted = _project(tmp_path / "project", git=True)
    results_path = tmp_path / f"results-{time.monotonic_ns()}.json"
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--json", str(results_path)])
    copy = load_results(results_path)["run"]["copy"]
    assert (copy["files"], copy["bytes"]) == (len(wanted), sum((project / name).stat().st_size for name in wanted))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("git", [True, False], ids=["git", "no-git"])
def test_a_link_to_a_project_file_links_to_the_copy_of_it(tmp_path, git):
    """Such as setuptools' strict editable install: a link tree in build/ whose files link to the
    sources; in the copy they must lead to the copy's (mutated) sources."""
    project, _ = _project(tmp_path / "project", git)
    link = project / "build/__editable__.tiny-0/tiny.py"
    link.parent.mkdir(parents=True)
    link.symlink_to(project / "src/tiny.py")
    outside = tmp_path / "outside.py"
    outside.write_text("x = 1\n")
    (project / "src/linked_outside.py").symlink_to(outside)
    copy = tmp_path / "copy"
    copy_project(project, copy)
    assert (copy / "build/__editable__.tiny-0/tiny.py").resolve() == (copy / "src/tiny.py").resolve()
    assert not (copy / "src/linked_outside.py").is_symlink()
    assert (copy / "src/linked_outside.py").read_text() == "x = 1\n"
