"""A catalog that follows the code: on a two-commit history whose head renames what some entries match
and rewrites what others match, `run --revert BASE` and `run --diff BASE` judge every other entry and
report those as findings of the change (exit 1); `check --base BASE` names them, and `check --update`
rewrites only the entries whose new place is clear, every other byte of the catalog kept."""

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.cli_runs import run
from tests.mutcheck.engine_project import SOURCE, make_engine_project

# The head renames clamp's parameter (SWAP, EQUAL and SURVIVOR match it) and rewrites countdown's
# step (LOOP matches the statement, HANG the loop holding it); the other entries still apply.
RENAMED = SOURCE.replace(
    "def clamp(value, low, high):\n    if value < low:\n        return low\n    if value > high:\n"
    "        return high\n    return value",
    "def clamp(number, low, high):\n    if number < low:\n        return low\n    if number > high:\n"
    "        return high\n    return number",
).replace("        n -= 1\n", "        n = max(n - 1, 0)\n")
DRIFTED = {"SWAP", "EQUAL", "SURVIVOR", "LOOP", "HANG"}
PROPOSED = {
    "SWAP": {"scope": "clamp", "match": "number < low", "replace": "number > low"},
    "EQUAL": {"scope": "clamp", "match": "number < low", "replace": "number <= low"},
    "SURVIVOR": {"scope": "clamp", "match": "number > high", "replace": "number >= high"},
}


def git(root: Path, *args: str) -> str:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    return subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def history(tmp_path) -> tuple[Path, str]:
    project = make_engine_project(tmp_path / "project", git=True)
    base = git(project, "rev-parse", "HEAD").strip()
    (project / "src/tiny.py").write_text(RENAMED, encoding="utf-8")
    git(project, "commit", "-qam", "rename clamp's parameter, rewrite countdown's step")
    return project, base


@pytest.mark.parametrize("option", ["--revert", "--diff"])
def test_an_entry_the_change_moved_away_from_is_a_finding_and_the_rest_are_judged(history, option):
    project, base = history
    code, output, data = run(project, option, base)
    assert code == ExitCode.EXPECTATION_FAILED, output
    assert {drift["id"] for drift in data["drift"]} == DRIFTED
    assert data["summary"]["drifted"] == len(DRIFTED)
    judged = {entry["id"] for entry in data["mutants"] if not entry["revert"]}
    assert not judged & DRIFTED
    if option == "--revert":  # every entry that applies runs
        assert judged == {"NESTED", "FALLBACK", "UNREACHED", "BREAKS"}
    swap = next(drift for drift in data["drift"] if drift["id"] == "SWAP")
    assert swap["proposal"] == PROPOSED["SWAP"]
    assert "-def clamp(value, low, high):" in swap["diff"] and "+def clamp(number, low, high):" in swap["diff"]
    loop = next(drift for drift in data["drift"] if drift["id"] == "LOOP")
    assert loop["field"] == "match" and loop["proposal"] is None  # `n -= 1` became another statement
    assert "Catalog entries the change moved away from" in output


def test_check_names_them_with_a_base_and_update_rewrites_only_those_it_can_place(history):
    project, base = history
    catalog = project / "mutants" / "catalog.toml"
    before = catalog.read_text(encoding="utf-8")
    assert CliRunner().invoke(main, ["check", "--project", str(project)]).exit_code == ExitCode.USAGE
    named = CliRunner().invoke(main, ["check", "--project", str(project), "--base", base])
    assert named.exit_code == ExitCode.EXPECTATION_FAILED, named.output
    assert all(f"mutants/catalog.toml: {entry}: the guarded code changed" in named.output for entry in DRIFTED)
    assert catalog.read_text(encoding="utf-8") == before  # without --update nothing is written

    updated = CliRunner().invoke(main, ["check", "--project", str(project), "--base", base, "--update"])
    assert updated.exit_code == ExitCode.EXPECTATION_FAILED, updated.output  # LOOP needs a person
    after = catalog.read_text(encoding="utf-8")
    changed = [(old, new) for old, new in zip(before.splitlines(), after.splitlines(), strict=True) if old != new]
    assert changed == [
        ("match = '''value < low'''", "match = '''number < low'''"),  # SWAP
        ("replace = '''value > low'''", "replace = '''number > low'''"),
        ("    n -= 1", "    n = max(n - 1, 0)"),  # HANG: the loop it matches, its replacement as it was
        ("match = '''value < low'''", "match = '''number < low'''"),  # EQUAL
        ("replace = '''value <= low'''", "replace = '''number <= low'''"),
        ("match = '''value > high'''", "match = '''number > high'''"),  # SURVIVOR
        ("replace = '''value >= high'''", "replace = '''number >= high'''"),
    ]
    rerun = CliRunner().invoke(main, ["check", "--project", str(project), "--base", base])
    assert "SWAP" not in rerun.output and "LOOP" in rerun.output


def test_an_entry_that_applies_nowhere_is_still_an_input_error(history):
    project, base = history
    catalog = project / "mutants" / "catalog.toml"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("step = 1", "step = 7"), encoding="utf-8")
    git(project, "commit", "-qam", "entries for code that never was")
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--revert", base])
    assert result.exit_code == ExitCode.USAGE
    assert "error: mutants/catalog.toml: FALLBACK: match: not found in Counter" in result.output
