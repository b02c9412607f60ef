"""`check_catalog`: the lines `mutcheck check` prints and its exit status, on a project whose head moved
the code two entries match (B1's by a rename, LOOP's by a rewrite only a person can place)."""

import subprocess
from pathlib import Path

import pytest

from mutcheck.catalog.config import Config, load_config
from mutcheck.checking import Checked, check_catalog
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.problems import InputError
from tests.mutcheck.engine_project import entry, make_engine_project

LOOP = entry(
    id='"LOOP"',
    scope='"countdown"',
    match='"n -= 1"',
    replace='"n -= 0"',
    killed_by='["tests/test_tiny.py::test_countdown"]',
)
B1_MOVED = "mutants/catalog.toml: B1: the guarded code changed in this change; the entry no longer matches (match: "
LOOP_MOVED = "mutants/catalog.toml: LOOP: the guarded code changed in this change; the entry no longer matches (match: "
B1_PROPOSAL = "{'scope': 'clamp', 'match': 'number < low', 'replace': 'number <= low'}"
B1_UPDATED = "updated B1 (mutants/catalog.toml): scope = 'clamp', match = 'number < low', replace = 'number <= low'"
CATALOG = entry() + "\n" + LOOP
LOOP_LEFT = "  Its new place cannot be told unambiguously: a person must update the entry."
EVERY_ENTRY = "2 mutants in 1 families: every entry applies"


def git(root: Path, *args: str) -> str:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    return subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True, text=True).stdout


def changed(root: Path, rewrite_loop: bool) -> tuple[Config, str]:
    """The project at a head that renames clamp's parameter (and rewrites countdown's step), and its base."""
    project = make_engine_project(root, git=True, catalog=CATALOG)
    base = git(project, "rev-parse", "HEAD").strip()
    source = project / "src/tiny.py"
    text = source.read_text(encoding="utf-8").replace("value", "number")
    if rewrite_loop:
        text = text.replace("        n -= 1\n", "        n = max(n - 1, 0)\n")
    source.write_text(text, encoding="utf-8")
    git(project, "commit", "-qam", "head")
    return load_config(project, profile=None), base


def test_a_catalog_that_applies_is_counted_and_passes(tmp_path):
    project = make_engine_project(tmp_path, catalog=CATALOG)
    assert check_catalog(load_config(project, profile=None), None, False) == Checked([EVERY_ENTRY], ExitCode.OK)


def test_with_a_base_each_moved_entry_is_a_finding_with_its_proposal_and_nothing_is_written(tmp_path):
    config, base = changed(tmp_path, rewrite_loop=True)
    before = (config.root / "mutants/catalog.toml").read_text(encoding="utf-8")
    checked = check_catalog(config, base, False)
    assert (checked.exit_code, checked.failure, len(checked.lines)) == (ExitCode.EXPECTATION_FAILED, None, 4)
    b1, proposal, loop, left = checked.lines
    assert b1.startswith(B1_MOVED + "not found in clamp; candidates: ")
    assert proposal == "  Where the guarded node is now (mapped through the diff), the entry would read: " + B1_PROPOSAL
    assert loop.startswith(LOOP_MOVED + "not found in countdown; candidates: ")
    assert left == LOOP_LEFT
    assert (config.root / "mutants/catalog.toml").read_text(encoding="utf-8") == before


def test_update_rewrites_what_it_can_place_and_fails_while_one_is_left(tmp_path):
    config, base = changed(tmp_path, rewrite_loop=True)
    checked = check_catalog(config, base, True)
    assert checked.exit_code == ExitCode.EXPECTATION_FAILED
    assert [checked.lines[1], checked.lines[3]] == [B1_UPDATED, LOOP_LEFT]
    assert 'match = "number < low"' in (config.root / "mutants/catalog.toml").read_text(encoding="utf-8")
    again = check_catalog(config, base, False)
    assert again.exit_code == ExitCode.EXPECTATION_FAILED
    assert again.lines[0].startswith(LOOP_MOVED) and again.lines[1:] == [LOOP_LEFT]


def test_update_compares_with_head_by_default_and_passes_once_every_finding_is_rewritten(tmp_path):
    project = make_engine_project(tmp_path, git=True, catalog=CATALOG)
    source = project / "src/tiny.py"
    source.write_text(source.read_text(encoding="utf-8").replace("value", "number"), encoding="utf-8")  # uncommitted
    checked = check_catalog(load_config(project, profile=None), None, True)
    assert (checked.exit_code, checked.failure, len(checked.lines)) == (ExitCode.OK, None, 3)
    assert checked.lines[0].startswith(B1_MOVED) and checked.lines[1:] == [B1_UPDATED, EVERY_ENTRY]


def test_an_entry_that_cannot_be_rewritten_ends_the_check_with_the_lines_before_it(tmp_path):
    config, base = changed(tmp_path / "project", rewrite_loop=True)
    catalog = config.root / "mutants/catalog.toml"
    outside = tmp_path / "outside.toml"
    outside.write_text(catalog.read_text(encoding="utf-8"), encoding="utf-8")
    catalog.unlink()
    catalog.symlink_to(outside)  # a catalog file is never written through a link out of the project
    checked = check_catalog(config, base, True)
    assert checked.exit_code == ExitCode.USAGE
    assert len(checked.lines) == 1 and checked.lines[0].startswith(B1_MOVED)
    assert checked.failure is not None and "leads outside the project" in str(checked.failure.problems[0])
    assert "number" not in outside.read_text(encoding="utf-8")


def test_an_unknown_killer_and_an_entry_that_applies_nowhere_are_one_input_error(tmp_path):
    config, _ = changed(tmp_path, rewrite_loop=True)
    catalog = config.root / "mutants/catalog.toml"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("test_countdown", "test_nowhere"), encoding="utf-8")
    with pytest.raises(InputError) as raised:
        check_catalog(config, None, False)
    fields = sorted((problem.entry, problem.field) for problem in raised.value.problems)
    assert fields == [("B1", "match"), ("LOOP", "killed_by"), ("LOOP", "match")]
