"""Which mutants run (`--shard`, `--diff` against real git histories) and which tests run under
each, with what time limit."""

import os
import subprocess
from pathlib import Path

import pytest

from mutcheck.catalog.catalog import Catalog, Mutant
from mutcheck.core.module_scope import reach_name
from mutcheck.core.problems import InputError
from mutcheck.core.source_text import Span
from mutcheck.host import timeouts
from mutcheck.mutation.mutate import AppliedMutant
from mutcheck.selection.diff import changed_entries, changed_lines, entry_lines, in_diff
from mutcheck.selection.narrow import narrow
from mutcheck.selection.reaching_tests import select_tests
from mutcheck.selection.shard import Shard
from tests.mutcheck.decisions.problems import problem_lines

IDS = [f"M{number}" for number in range(60)]


def git(root: Path, *args: str) -> str:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    return subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True, text=True).stdout


def repository(root: Path, files: dict[str, str]) -> Path:
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


@pytest.mark.parametrize("text", ["1/1", "1/3", "3/3"])
def test_a_shard_is_k_of_n_with_k_from_1_to_n(text):
    index, count = (int(part) for part in text.split("/"))
    assert Shard.parse(text) == Shard(index, count)


@pytest.mark.parametrize("text", ["0/3", "4/3", "-1/3", "a/3", "1/2/3", "3", "", "1/0", "0/0"])
def test_any_other_shard_is_one_line_naming_the_option(text):
    with pytest.raises(InputError) as error:
        Shard.parse(text)
    assert problem_lines(error.value) == [f"--shard: expected k/n with 1 <= k <= n, got {text!r}"]


def test_the_shards_of_n_partition_the_mutants_whatever_their_order():
    for count in (1, 2, 3, 7):
        kept = [[mutant for mutant in IDS if Shard(index, count).keeps(mutant)] for index in range(1, count + 1)]
        assert sorted(mutant for shard in kept for mutant in shard) == sorted(IDS)
        assert all(shard for shard in kept) or count > len(IDS)


def test_a_mutant_keeps_its_shard_across_runs():
    """A digest of the id, not Python's salted hash: CI's parallel jobs must agree on the split."""
    assert [index for index in (1, 2, 3) if Shard(index, 3).keeps("M1")] == [1]
    assert [index for index in (1, 2, 3) if Shard(index, 3).keeps("EQ2")] == [2]
    assert [index for index in (1, 2) if Shard(index, 2).keeps("M1")] == [2]


def test_changed_lines_counts_edits_additions_deletions_and_new_files(tmp_path):
    root = repository(tmp_path / "r", {"a.py": "1\n2\n3\n4\n5\n", "b.py": "x\ny\n", "c.py": "keep\n"})
    git(root, "switch", "-q", "-c", "topic")
    (root / "a.py").write_text("1\nTWO\n3\n5\n")  # line 2 edited, line 4 deleted
    (root / "b.py").write_text("y\n")  # the first line deleted: no line 0 to point at
    (root / "new.py").write_text("n\n")
    (root / "staged.py").write_text("s\n")
    git(root, "add", "staged.py")
    assert changed_lines(root, "main") == {"a.py": {2, 3}, "b.py": {1}, "new.py": None, "staged.py": {1}}


def test_changed_lines_ignore_the_user_s_git_settings_and_ignored_files(tmp_path):
    """Colour, an external diff tool or a text conversion would make the diff unreadable; an
    ignored file is no change."""
    root = repository(tmp_path / "r", {"a.py": "1\n2\n", ".gitignore": "*.log\n"})
    (root / "differ.sh").write_text("#!/bin/sh\necho external diff\n")
    (root / "differ.sh").chmod(0o755)
    git(root, "add", "differ.sh")
    git(root, "commit", "-qm", "tool")
    git(root, "config", "color.diff", "always")
    git(root, "config", "diff.external", str(root / "differ.sh"))
    (root / ".git/info/attributes").write_text("*.py diff=broken\n")
    git(root, "config", "diff.broken.textconv", "false")
    (root / "a.py").write_text("1\nchanged\n")
    (root / "run.log").write_text("ignored\n")
    assert changed_lines(root, "HEAD") == {"a.py": {2}}


def test_changed_lines_name_files_git_quotes_or_that_are_not_utf8_and_ignore_the_change_s_attributes(tmp_path):
    """A name with a quote or a tab is quoted by git whatever its settings; a Latin-1 name is no
    UTF-8 at all; a change that marks Python files binary would hide its own hunks."""
    latin = os.fsdecode(b"caf\xe9.py")
    root = repository(tmp_path / "r", {'q"uote.py': "1\n", "tab\there.py": "1\n", latin: "1\n"})
    for name in ('q"uote.py', "tab\there.py", latin):
        (root / name).write_text("2\n")
    (root / ".gitattributes").write_text("*.py -diff\n")
    assert changed_lines(root, "HEAD") == {'q"uote.py': {1}, "tab\there.py": {1}, latin: {1}, ".gitattributes": None}


def test_changed_lines_counts_only_what_changed_since_the_branch_left_its_base(tmp_path):
    root = repository(tmp_path / "r", {"a.py": "1\n2\n", "b.py": "x\n"})
    git(root, "switch", "-q", "-c", "topic")
    (root / "a.py").write_text("1\n2\n3\n")
    git(root, "commit", "-qam", "topic")
    git(root, "switch", "-q", "main")
    (root / "b.py").write_text("x\nlanded on main\n")
    git(root, "commit", "-qam", "main moves on")
    git(root, "switch", "-q", "topic")
    assert changed_lines(root, "main") == {"a.py": {3}}


def test_changed_lines_in_a_subfolder_are_relative_to_the_project(tmp_path):
    root = repository(tmp_path / "r", {"project/src/a.py": "1\n", "other.py": "o\n"})
    (root / "project/src/a.py").write_text("1\n2\n")
    (root / "other.py").write_text("o\np\n")
    assert changed_lines(root / "project", "HEAD") == {"src/a.py": {2}}


def test_a_base_git_does_not_know_is_one_line_naming_the_option_and_the_command(tmp_path):
    root = repository(tmp_path / "r", {"a.py": "1\n"})
    with pytest.raises(InputError) as error:
        changed_lines(root, "no-such-branch")
    (line,) = problem_lines(error.value)
    assert line.startswith("--diff: git merge-base no-such-branch failed: fatal: ")


def test_a_base_with_no_common_history_says_so(tmp_path):
    root = repository(tmp_path / "r", {"a.py": "1\n"})
    git(root, "switch", "-q", "--orphan", "other")
    (root / "b.py").write_text("b\n")
    git(root, "add", "b.py")
    git(root, "commit", "-qm", "unrelated")
    with pytest.raises(InputError) as error:
        changed_lines(root, "main")
    assert problem_lines(error.value) == ["--diff: git merge-base main failed: no common ancestor with HEAD"]


def test_outside_git_the_diff_fails_with_git_s_reason(tmp_path):
    (tmp_path / "plain").mkdir()
    with pytest.raises(InputError) as error:
        changed_lines(tmp_path / "plain", "main")
    (line,) = problem_lines(error.value)
    assert line.startswith("--diff: git merge-base main failed: fatal: not a git repository")


CATALOG = """# the catalog
[[mutant]]
id = "A"
why = '''
[[mutant]]
still A's text
'''

# between entries

[[ mutant ]]  # B
why = '''
b
'''
id = "B"
"""


def test_entry_lines_run_from_header_to_last_content_line_past_header_like_strings():
    assert entry_lines(CATALOG) == {"A": range(2, 8), "B": range(11, 16)}


def test_a_file_without_entries_has_no_spans():
    assert entry_lines("# nothing yet\n") == {}


def test_an_unknown_layout_makes_every_entry_span_the_whole_file():
    text = 'mutant = [{id = "A"}, {id = "B"}]\n\n'
    assert entry_lines(text) == {"A": range(1, 3), "B": range(1, 3)}


def test_an_entry_changes_when_its_own_lines_do(tmp_path):
    (tmp_path / "mutants").mkdir()
    (tmp_path / "mutants/x.toml").write_text(CATALOG)
    files = {"mutants/x.toml", "mutants/y.toml"}
    assert changed_entries(tmp_path, {"mutants/x.toml": {9}}, files) == set()
    assert changed_entries(tmp_path, {"mutants/x.toml": {7, 15}}, files) == {
        ("mutants/x.toml", "A"),
        ("mutants/x.toml", "B"),
    }
    assert changed_entries(tmp_path, {"mutants/x.toml": None}, files) == {
        ("mutants/x.toml", "A"),
        ("mutants/x.toml", "B"),
    }
    assert changed_entries(tmp_path, {"src/a.py": None}, files) == set()


def mutant(mutant_id: str, file: str = "src/a.py", killed_by: tuple[str, ...] = ()) -> AppliedMutant:
    entry = Mutant(mutant_id, "f", file, "f", "x", "y", killed_by, None, "o", {}, {}, None, (), "mutants/x.toml")
    return AppliedMutant(entry, "", "", Span(5, 0, 7, 1), "", False, "f", "f")


def test_a_mutant_is_in_the_diff_by_its_lines_its_entry_or_its_killers_files():
    entries = {("mutants/x.toml", "B")}
    assert not in_diff(mutant("A"), {"src/a.py": {4, 8}}, set())
    assert in_diff(mutant("A"), {"src/a.py": {5}}, set())
    assert in_diff(mutant("A"), {"src/a.py": {7}}, set())
    assert in_diff(mutant("A"), {"src/a.py": None}, set())
    assert not in_diff(mutant("A", file="src/b.py"), {"src/a.py": None}, entries)
    assert in_diff(mutant("B", file="src/b.py"), {}, entries)
    assert not in_diff(mutant("A", killed_by=("tests/t.py::test_x",)), {"tests/u.py": None}, entries)
    assert in_diff(mutant("A", killed_by=("tests/u.py::test_y", "tests/t.py::test_x")), {"tests/t.py": {1}}, set())
    assert in_diff(mutant("A", killed_by=("tests/t.py::TestX::test_y",)), {"tests/t.py": {1}}, set())


def test_narrow_applies_the_diff_then_the_shard(tmp_path):
    root = repository(tmp_path / "r", {"src/a.py": "\n" * 9, "src/b.py": "\n" * 9})
    (root / "src/a.py").write_text("\n" * 5 + "changed\n" + "\n" * 3)
    applied = [mutant(mutant_id) for mutant_id in IDS[:6]] + [mutant("B1", file="src/b.py")]
    catalog = Catalog(tuple(entry.mutant for entry in applied), {})
    assert narrow(root, catalog, applied, None, None) == applied
    in_a = narrow(root, catalog, applied, "HEAD", None)
    assert [entry.mutant.id for entry in in_a] == IDS[:6]
    sharded = narrow(root, catalog, applied, "HEAD", Shard(2, 3))
    assert [entry.mutant.id for entry in sharded] == [
        mutant_id for mutant_id in IDS[:6] if Shard(2, 3).keeps(mutant_id)
    ]
    assert narrow(root, catalog, applied, None, Shard(1, 1)) == applied


def test_narrow_keeps_a_mutant_whose_catalog_entry_changed(tmp_path):
    root = repository(tmp_path / "r", {"src/a.py": "\n" * 9, "mutants/x.toml": CATALOG})
    (root / "mutants/x.toml").write_text(CATALOG.replace('id = "A"', 'id = "A"\norigin = "edited"'))
    applied = [mutant("A"), mutant("B")]
    catalog = Catalog(tuple(entry.mutant for entry in applied), {})
    assert [entry.mutant.id for entry in narrow(root, catalog, applied, "HEAD", None)] == ["A"]


def names(*qualnames: str, file: str = "/p/a.py") -> set[str]:
    return {reach_name(file, qualname) for qualname in qualnames}


def scope(qualname: str, file: str = "/p/a.py") -> str:
    return reach_name(file, qualname)


def test_tests_are_selected_by_the_scope_or_anything_nested_in_it():
    covered = [names("f"), names("f.<locals>.inner"), names("fx", "g"), set(), names("Cls.f"), names("g", "f")]
    assert select_tests(scope("f"), covered) == [0, 1, 5]
    assert select_tests(scope("Cls"), covered) == [4]
    assert select_tests(scope("Cls.f"), covered) == [4]
    assert select_tests(scope("h"), covered) == []


def test_a_function_of_the_same_name_in_another_file_is_another_function():
    """A sync module and its async twin: a test of one does not reach the other."""
    covered = [names("retry"), names("retry", file="/p/b.py"), names("retry.<locals>.inner", file="/p/b.py")]
    assert select_tests(scope("retry"), covered) == [0]
    assert select_tests(scope("retry", "/p/b.py"), covered) == [1, 2]
    assert select_tests(scope("retry", "/p/b.py"), [set(), set()], names("retry")) == []


def test_a_module_statement_selects_every_test():
    assert select_tests(scope("<module>"), [set(), names("f"), set()]) == [0, 1, 2]


def test_a_function_that_ran_while_the_project_was_imported_selects_every_test():
    """A table built at import reaches every test that reads it, and no trace of a test shows it."""
    covered = [set(), names("f"), set()]
    assert select_tests(scope("build"), covered, names("build")) == [0, 1, 2]
    assert select_tests(scope("Table"), covered, names("Table.build")) == [0, 1, 2]  # nested in the scope
    assert select_tests(scope("f"), covered, names("build")) == [1]


def test_time_limits_scale_each_test_and_add_one_constant_of_slack():
    assert timeouts.test_limit(2.0, 5.0, 1.0) == 11.0
    assert timeouts.test_limit(0.0, 5.0, 1.5) == 1.5
    assert timeouts.time_limit([0, 2], [1.0, 100.0, 3.0], 2.0, 0.5) == (2.5 + 6.5) + 0.5
    assert timeouts.time_limit([], [1.0], 2.0, 0.5) == 0.5


def test_a_test_s_limit_is_rounded_up_to_two_figures_so_that_a_millisecond_changes_nothing():
    assert timeouts.test_limit(0.0013, 5.0, 1.0) == timeouts.test_limit(0.0017, 5.0, 1.0) == 1.1
    assert timeouts.test_limit(0.3, 5.0, 1.0) == 2.5 and timeouts.test_limit(0.302, 5.0, 1.0) == 2.6
    assert timeouts.test_limit(3.0, 5.0, 1.0) == 16.0 and timeouts.test_limit(3.01, 5.0, 1.0) == 17.0
    assert timeouts.test_limit(0.0, 5.0, 5e-13) == 5e-13  # never rounded to no limit at all
    assert timeouts.test_limit(0.0, 5.0, 1.0000000001) == 1.1
