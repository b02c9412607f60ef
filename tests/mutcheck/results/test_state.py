"""The last run's results, kept in the user's cache folder: `report` and `show` without running again."""

import os
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.results.model import Results
from mutcheck.results.results import load_results
from mutcheck.results.state import KEPT_HEADS, current_run, project_folder, save_run
from mutcheck.reuse.store import store_path
from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.paths import GOLDEN
from tests.mutcheck.results_docs import document

SUBSET = ["--only", "SWAP", "--only", "SURVIVOR"]


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


def invoke(project: Path, *args: str):
    return CliRunner().invoke(main, [*args, "--project", str(project)])


def git(project: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args]
    return subprocess.run(command, cwd=project, check=True, capture_output=True, text=True).stdout


def test_a_run_saves_its_results_in_the_cache_and_leaves_the_working_tree_clean(tmp_path, cache):
    project = make_engine_project(tmp_path / "project", git=True)
    result = invoke(project, "run", *SUBSET, "--json", str(tmp_path / "results.json"))
    assert result.exit_code == ExitCode.EXPECTATION_FAILED, result.output  # SURVIVOR survives
    assert git(project, "status", "--porcelain") == ""
    saved = [path.relative_to(cache) for path in (cache / "mutcheck" / "runs").rglob("*") if path.is_file()]
    head = git(project, "rev-parse", "HEAD").strip()
    assert saved == [Path("mutcheck", "runs", project_folder(project).name, f"{head}.json")]
    store = store_path(project, None, None)  # the reuse store (each outcome, the run whole), its ledger and lock
    assert sorted(path.name for path in store.parent.iterdir()) == sorted([store.name, ".ledger", ".lock"])
    assert document(cache / saved[0]) == document(tmp_path / "results.json")


def test_report_renders_the_saved_run_and_says_which_it_was(tmp_path, cache):
    project = make_engine_project(tmp_path / "project", git=True)
    invoke(project, "run", *SUBSET)
    result = invoke(project, "report", "--format", "markdown", "--lang", "zh")
    assert result.exit_code == ExitCode.OK, result.output
    assert result.stdout.startswith("<!-- mutcheck -->")
    assert "2 个守护变异体中有 1 个与目录不符" in result.stdout
    head = git(project, "rev-parse", "HEAD").strip()
    assert result.stderr == f"上次保存的运行（提交 {head[:12]}，" + result.stderr.split("，", 1)[1]
    assert result.stderr.endswith("）：目录的一部分（--only SWAP --only SURVIVOR）\n")


def test_report_without_a_run_at_this_head_says_where_the_last_one_is(tmp_path, cache):
    project = make_engine_project(tmp_path / "project", git=True)
    nothing = invoke(project, "report")
    assert nothing.exit_code == ExitCode.USAGE
    head = git(project, "rev-parse", "HEAD").strip()
    assert nothing.output == f"error: {project}: no saved run at {head[:12]}: run `mutcheck run` first\n"
    invoke(project, "run", "--only", "SWAP")
    (project / "notes.txt").write_text("a new commit\n")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "later")
    elsewhere = invoke(project, "report")
    assert elsewhere.exit_code == ExitCode.USAGE
    assert len(elsewhere.output.splitlines()) == 1, elsewhere.output
    assert f"or render the last one, at {head[:12]} (" in elsewhere.output
    command = elsewhere.output.split(": mutcheck report ", 1)[1].strip()
    assert CliRunner().invoke(main, ["report", command]).exit_code == ExitCode.OK


def test_show_adds_the_last_verdict_its_killers_and_witnesses(tmp_path, cache):
    project = make_engine_project(tmp_path / "project", git=True)
    invoke(project, "run", *SUBSET)
    killed = invoke(project, "show", "SWAP")
    assert killed.exit_code == ExitCode.OK, killed.output
    lines = killed.output.splitlines()
    assert lines[lines.index("SWAP why") + 2].endswith("): part of the catalog, --only SWAP --only SURVIVOR")
    assert "verdict: killed, as catalogued" in lines
    assert "witness of tests/test_tiny.py::test_clamp_low: AssertionError: assert -1 == 0" in lines
    assert any(line.startswith("killers: tests/test_tiny.py::test_clamp_low") for line in lines)
    survivor = invoke(project, "show", "SURVIVOR", "--lang", "zh").output.splitlines()
    assert "判定：存活，与目录不符" in survivor
    assert "击杀它的测试：无" in survivor
    assert "问题：意外存活：选中的测试都没有失败" in survivor
    assert "可能已经过时" not in "\n".join(survivor)
    unrun = invoke(project, "show", "LOOP").output.splitlines()
    assert unrun[-1] == "The last run at this commit did not run LOOP: `mutcheck run` runs the whole catalog."


def test_show_says_a_saved_verdict_may_be_stale_once_the_entry_changed(tmp_path, cache):
    project = make_engine_project(tmp_path / "project", git=True)
    invoke(project, "run", "--only", "SWAP")
    catalog = project / "mutants/catalog.toml"
    catalog.write_text(catalog.read_text().replace("replace = '''value > low'''", "replace = '''value != low'''"))
    shown = invoke(project, "show", "SWAP")
    assert shown.exit_code == ExitCode.OK, shown.output
    assert shown.output.splitlines()[-1] == (
        "The catalog entry or its code has changed since that run: this verdict may be stale."
    )


def test_show_without_a_saved_run_says_so(tmp_path, cache):
    project = make_engine_project(tmp_path / "project", git=True)
    shown = invoke(project, "show", "SWAP", "--lang", "zh")
    assert shown.exit_code == ExitCode.OK, shown.output
    assert shown.output.splitlines()[-1] == "当前提交还没有保存的判定：请运行 `mutcheck run`。"


def test_a_project_outside_git_keeps_its_run_too(tmp_path, cache):
    project = make_engine_project(tmp_path / "project")
    invoke(project, "run", "--only", "SWAP")
    assert (project_folder(project) / "no-commit.json").is_file()
    assert "Last saved run, outside git (" in invoke(project, "show", "SWAP").output
    assert invoke(project, "report").exit_code == ExitCode.OK


def test_an_unwritable_cache_is_a_warning_and_leaves_the_exit_status_alone(tmp_path, monkeypatch):
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("a file where the cache folder would be\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(not_a_folder))
    project = make_engine_project(tmp_path / "project", git=True)
    result = invoke(project, "run", "--only", "SWAP")
    assert result.exit_code == ExitCode.OK, result.output
    warnings = result.stderr.splitlines()
    assert len(warnings) == 2
    assert warnings[0].startswith("warning: the reuse store was not saved, the next run reuses nothing from this one: ")
    assert warnings[1].startswith("warning: this run's results were not saved for `mutcheck report` and `show`: ")
    assert "Traceback" not in result.output


def at_head(head: str, seconds: float = 1.0) -> Results:
    """The golden results, as if run at `head` and taking `seconds`."""
    golden = load_results(GOLDEN / "results.json")
    return replace(golden, run=replace(golden.run, head_sha=head, seconds=seconds))


def test_only_the_last_heads_of_a_project_are_kept(tmp_path, cache):
    heads = [f"{number:040x}" for number in range(KEPT_HEADS + 2)]
    for age, head in enumerate(heads):
        saved = save_run(tmp_path, at_head(head))
        os.utime(saved, (1_000_000 + age, 1_000_000 + age))  # each saved a second after the one before
    kept = sorted(path.stem for path in project_folder(tmp_path).iterdir())
    assert kept == sorted(heads[-KEPT_HEADS:])
    again = save_run(tmp_path, at_head(heads[-1], seconds=9.0))  # the same head again: replaced, not added
    assert load_results(again) == at_head(heads[-1], seconds=9.0)
    assert len(list(project_folder(tmp_path).iterdir())) == KEPT_HEADS


def test_the_test_session_keeps_state_out_of_the_users_cache(tmp_path):
    cache = Path(os.environ["XDG_CACHE_HOME"])
    assert cache != Path.home() / ".cache"
    assert project_folder(tmp_path).is_relative_to(cache)  # where runs are really saved during the tests


def test_show_with_a_damaged_saved_run_warns_and_shows_the_catalog(tmp_path, cache):
    project = make_engine_project(tmp_path / "project", git=True)
    invoke(project, "run", "--only", "SWAP")
    saved = current_run(project)
    saved.path.write_text('{"format": "mutcheck-results", "version": 1, "ru', encoding="utf-8")
    result = invoke(project, "show", "SWAP")
    assert result.exit_code == ExitCode.OK, result.output
    assert "SWAP why" in result.stdout and "No saved verdict yet at this commit" in result.stdout
    assert result.stderr.startswith("warning: the saved run cannot be read, so no verdict is shown: ")


def test_each_profile_keeps_its_own_saved_run(tmp_path, cache):
    project = make_engine_project(tmp_path / "project", git=True)
    with (project / "pyproject.toml").open("a", encoding="utf-8") as pyproject:
        pyproject.write("\n[tool.mutcheck.profile.quick]\nbaseline_rounds = 1\n")
    assert project_folder(project, "quick") != project_folder(project)
    result = invoke(project, "run", "--only", "SWAP", "--profile", "quick")
    assert result.exit_code == ExitCode.OK, result.output
    assert current_run(project) is None and current_run(project, "quick") is not None
    missing = invoke(project, "report")
    assert missing.exit_code == ExitCode.USAGE
    assert "run `mutcheck run` first" in missing.stderr
    rendered = invoke(project, "report", "--profile", "quick")
    assert rendered.exit_code == ExitCode.OK, rendered.output
    assert rendered.stdout.rstrip().splitlines()[-1].startswith("1 mutants: 1 killed; every expectation met")
    assert rendered.stderr.startswith("Last saved run, at ")
    shown = CliRunner().invoke(main, ["show", "SWAP", "--project", str(project)], env={"MUTCHECK_PROFILE": "quick"})
    assert shown.exit_code == ExitCode.OK, shown.output
    assert "verdict: killed, as catalogued" in shown.stdout.splitlines()
    unsaved = invoke(project, "show", "SWAP")
    assert "verdict: killed, as catalogued" not in unsaved.stdout.splitlines()
    typo = invoke(project, "report", "--profile", "quik")
    assert (typo.exit_code, typo.stderr) == (
        ExitCode.USAGE,
        "error: --profile: quik: no [tool.mutcheck.profile.quik] in pyproject.toml (known: quick)\n",
    )
    unset = CliRunner().invoke(main, ["report", "--project", str(project)], env={"MUTCHECK_PROFILE": ""})
    assert unset.exit_code == ExitCode.USAGE and "run `mutcheck run` first" in unset.stderr  # the default's, unsaved


def test_links_in_the_cache_folder_are_neither_read_nor_pruned_and_the_run_is_saved(tmp_path, cache):
    project = make_engine_project(tmp_path / "project", git=True)
    folder = project_folder(project)
    folder.mkdir(parents=True)
    (folder / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    outside = tmp_path / "outside.json"
    outside.write_text("kept\n", encoding="utf-8")
    head = git(project, "rev-parse", "HEAD").strip()
    (folder / f"{head}.json").symlink_to(outside)  # where this run's results go
    result = invoke(project, "run", "--only", "SWAP")
    assert result.exit_code == ExitCode.OK, result.output
    assert result.stderr == ""  # no "not saved" warning: it was saved
    assert outside.read_text(encoding="utf-8") == "kept\n"  # replaced the link, not written through it
    saved = current_run(project)
    assert saved is not None and not saved.path.is_symlink()
    assert document(saved.path)["run"]["head_sha"] == head
    assert (folder / "dangling.json").is_symlink()
    assert invoke(project, "report").exit_code == ExitCode.OK
