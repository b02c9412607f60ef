"""The scratch copy: what git would commit, never virtual environments, VCS folders or caches."""

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.sandbox.scratch import copy_project
from tests.mutcheck.engine_project import commit_all, entry, make_project
from tests.mutcheck.results_docs import document

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
        commit_all(project)
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
    copy = document(results_path)["run"]["copy"]
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


@pytest.mark.parametrize("git", [True, False], ids=["git", "no-git"])
def test_a_link_to_a_folder_is_kept_leading_into_the_copy_or_where_it_led(tmp_path, git):
    """Such as a package's `templates` linked to a top-level folder (git tracks the link itself):
    code that reads its data through the package must find it in the copy."""
    project, _ = _project(tmp_path / "project", git=False)
    (project / "templates").mkdir()
    (project / "templates/page.txt").write_text("inside\n")
    (project / "src/templates").symlink_to("../templates")
    outside = tmp_path / "shared"
    outside.mkdir()
    (outside / "data.txt").write_text("outside\n")
    (project / "src/shared").symlink_to(outside)
    (project / "python-env").symlink_to("venv-x")  # the junk's virtual environment: left out, link and all
    if git:
        commit_all(project)
    copy = tmp_path / "copy"
    copy_project(project, copy)
    assert (copy / "src/templates").is_symlink()
    assert (copy / "src/templates").resolve() == (copy / "templates").resolve()
    assert (copy / "src/templates/page.txt").read_text() == "inside\n"
    assert (copy / "src/shared").resolve() == outside.resolve()
    assert (copy / "src/shared/data.txt").read_text() == "outside\n"
    assert not (copy / "python-env").is_symlink() and not (copy / "venv-x").exists()


def test_the_copy_takes_the_sources_compiled_files_checked_by_time_and_never_hash_based_ones(tmp_path):
    import py_compile
    import sys

    project, _ = _project(tmp_path / "project", git=True)
    source = project / "src/tiny.py"
    by_time = py_compile.compile(str(source), invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    tests = project / "tests/test_tiny.py"
    by_hash = py_compile.compile(str(tests), invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    copied = copy_project(project, tmp_path / "copy")
    tag = sys.implementation.cache_tag
    assert (tmp_path / "copy/src/__pycache__" / f"tiny.{tag}.pyc").read_bytes() == Path(by_time).read_bytes()
    assert not (tmp_path / "copy/tests/__pycache__" / Path(by_hash).name).exists()
    assert copied.files == len(_project_listing(tmp_path / "copy"))
    # The copy keeps the source's time, which is what makes the compiled file valid there.
    assert (tmp_path / "copy/src/tiny.py").stat().st_mtime_ns == source.stat().st_mtime_ns


def _project_listing(root: Path) -> set[str]:
    return {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()}


def test_a_rewritten_source_loses_its_compiled_files(tmp_path):
    """A mutant written into a copy within the second its source was saved, at the same size,
    would otherwise match the old compiled file's time and size check and run unmutated."""
    import py_compile

    from mutcheck.sandbox.scratch import remove_bytecode

    source = tmp_path / "tiny.py"
    source.write_text("VALUE = 1\n")
    compiled = Path(py_compile.compile(str(source)))
    (tmp_path / "other.py").write_text("VALUE = 2\n")
    other = Path(py_compile.compile(str(tmp_path / "other.py")))
    remove_bytecode(source)
    assert not compiled.exists()
    assert other.exists()
