"""`--diff BASE`: a change to the catalog itself selects the entries it added or edited."""

import subprocess

from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.selection.diff import entry_lines
from tests.mutcheck.engine_project import commit_all, entry, make_engine_project
from tests.mutcheck.results_docs import document

TWO_ENTRIES = """\
# leading comment

[[mutant]]
id = "A"
replace = '''
[[mutant]]
'''

# about B
[[ mutant ]]  # B
id = "B"
title = { en = "b", zh = "b" }
[mutant.why]
en = "why"

"""


def test_entry_lines_span_each_entry_from_header_to_its_last_content_line():
    assert entry_lines(TWO_ENTRIES) == {"A": range(3, 8), "B": range(10, 15)}


def test_diff_runs_the_catalog_entries_added_or_edited_since_base(tmp_path):
    project = make_engine_project(tmp_path / "project", git=True)
    catalog = project / "mutants/catalog.toml"
    edited = catalog.read_text().replace(
        'killed_by = ["tests/test_tiny.py::test_clamp_low", "tests/test_tiny.py::test_clamp_inside"]',
        'killed_by = ["tests/test_tiny.py::test_clamp_low"]',
    )
    added = entry(id='"ADDED"', match='"value > high"', replace='"value > high + 1"')
    added = added.replace("test_clamp_low", "test_clamp_high")
    catalog.write_text(edited + "\n" + added)
    (project / "mutants/families.toml").write_text((project / "mutants/families.toml").read_text() + "# edited\n")
    new_file = entry(id='"NEW_FILE"', match='"value < low"', replace='"value < low - 1"')
    (project / "mutants/more.toml").write_text(new_file)  # untracked: wholly new
    results_path = tmp_path / "results.json"
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--diff", "HEAD", "--json", str(results_path)])
    data = document(results_path)
    assert sorted(mutant["id"] for mutant in data["mutants"]) == ["ADDED", "NEW_FILE", "SWAP"], result.output
    assert all(mutant["verdict"] == "killed" for mutant in data["mutants"])
    assert result.exit_code == ExitCode.OK


def _git(project, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=project, check=True)


def test_diff_counts_only_what_changed_since_the_branch_left_its_base(tmp_path):
    """The base branch moved on (countdown changed there) after the branch changed clamp: only
    clamp's mutants are the branch's change, as `git diff main...HEAD` says."""
    project = make_engine_project(tmp_path / "project", git=True)
    source = project / "src/tiny.py"
    original = source.read_text()
    _git(project, "checkout", "-qb", "feature")
    source.write_text(original.replace("    if value < low:\n", "    if value < low:  # feature\n", 1))
    _git(project, "commit", "-qam", "feature changes clamp")
    _git(project, "checkout", "-q", "main")
    source.write_text(original.replace("        n -= 1\n", "        n -= 1  # main\n", 1))
    _git(project, "commit", "-qam", "main changes countdown")
    _git(project, "checkout", "-q", "feature")
    results_path = tmp_path / "results.json"
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--diff", "main", "--json", str(results_path)])
    data = document(results_path)
    assert {mutant["id"] for mutant in data["mutants"]} == {"SWAP", "EQUAL"}, result.output


def test_diff_against_an_unrelated_history_is_one_line(tmp_path):
    project = make_engine_project(tmp_path / "project", git=True)
    _git(project, "checkout", "-q", "--orphan", "other")
    _git(project, "commit", "-qm", "unrelated")
    _git(project, "checkout", "-q", "main")
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--diff", "other"])
    assert result.exit_code == ExitCode.USAGE, result.output
    (line,) = result.output.splitlines()
    assert line.startswith("error: --diff: git merge-base other failed")


def test_diff_selects_the_mutants_of_a_modified_file_whose_name_is_not_ascii(tmp_path):
    """git writes such a name as an octal-escaped, quoted string unless told otherwise: the diff's
    file must still be the catalog's file."""
    project = make_engine_project(tmp_path / "project", catalog="")
    (project / "src/é.py").write_text("def clamp(value, low):\n    return low if value < low else value\n")
    (project / "tests/test_é.py").write_text(
        "import importlib\n\n\ndef test_clamp():\n    assert importlib.import_module('é').clamp(1, 2) == 2\n"
    )
    accented = entry(id='"ACCENT"', file='"src/é.py"', match='"value < low"', replace='"value > low"')
    accented = accented.replace('["tests/test_tiny.py::test_clamp_low"]', '["tests/test_é.py::test_clamp"]')
    untouched = entry(id='"TINY"', killed_by='["tests/test_tiny.py::test_clamp_low"]')
    (project / "mutants/catalog.toml").write_text(accented + "\n" + untouched)
    commit_all(project)
    source = project / "src/é.py"
    source.write_text(source.read_text().replace("return low if", "return low  if"))
    results_path = tmp_path / "results.json"
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--diff", "HEAD", "--json", str(results_path)])
    data = document(results_path)
    assert [mutant["id"] for mutant in data["mutants"]] == ["ACCENT"], result.output
    assert data["mutants"][0]["verdict"] == "killed"
