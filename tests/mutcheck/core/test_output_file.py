"""Output files checked before any mutant runs, and a write that fails after the run said in one
line, after the report: real runs of `mutcheck run`, `report` and `merge` on a fixture project."""

from pathlib import Path

from mutcheck.core.output_file import unwritable
from tests.mutcheck.cli_runs import mutcheck
from tests.mutcheck.engine_project import make_engine_project


def test_a_path_that_cannot_be_a_file_is_one_problem_naming_option_and_path(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    assert str(unwritable("--json", tmp_path / "notes.txt" / "deep" / "r.json")) == (
        f"{tmp_path}/notes.txt/deep/r.json: --json: cannot be written: {tmp_path}/notes.txt is not a folder"
    )
    assert str(unwritable("-o", tmp_path)) == f"{tmp_path}: -o: is a folder, not a file"
    assert unwritable("--html", tmp_path / "new" / "deeper" / "r.html") is None  # its folders are made
    assert unwritable("--html", tmp_path / "notes.txt") is None


def test_an_output_path_that_cannot_be_written_stops_the_run_before_any_mutant(tmp_path: Path) -> None:
    project = make_engine_project(tmp_path / "project")
    done = mutcheck(project, "run", "--json", "pyproject.toml/r.json", "--html", "out/r.html")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.splitlines() == [
        "error: pyproject.toml/r.json: --json: cannot be written: pyproject.toml is not a folder"
    ]
    assert "baseline" not in done.stdout and not (project / "out").exists()  # nothing ran, nothing written


def test_a_write_that_fails_after_the_run_still_prints_the_report(tmp_path: Path) -> None:
    project = make_engine_project(tmp_path / "project")
    done = mutcheck(project, "run", "--markdown", "/dev/full", "--json", "r.json", "--shard", "1/1")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "mutants" in done.stdout.splitlines()[-1]  # the terminal report's closing line
    assert done.stderr.splitlines() == ["error: /dev/full: --markdown: cannot be written (No space left on device)"]
    assert (project / "r.json").is_file()  # the outputs that could be written were
    shown = mutcheck(project, "report", "r.json", "--format", "html", "-o", "r.json/page.html")
    assert shown.returncode == 2 and shown.stderr.startswith("error: r.json/page.html: --output: cannot be written")
    merged = mutcheck(project, "merge", "r.json", "-o", "/dev/full")
    assert merged.returncode == 2 and "mutants" in merged.stdout.splitlines()[-1]
    assert merged.stderr.splitlines() == ["error: /dev/full: --output: cannot be written (No space left on device)"]
