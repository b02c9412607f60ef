"""The change guard cannot be bypassed or fooled by the change itself: attributes it adds, file
names git quotes, a file that did not compile at the base."""

import json
import os

from mutcheck.mutation.revert import revert_change
from mutcheck.selection.diff import changed_lines
from tests.mutcheck.hostile.commands import invoke
from tests.mutcheck.revert_project import (
    BASE_SOURCE,
    BASE_TESTS,
    GUARDED_HUNK,
    HEAD_SOURCE,
    HEAD_TESTS,
    NEW_TEST,
    git,
    make_history,
)

LANGUAGES = ("en",)


def _revert_run(project, base):
    """`mutcheck run --revert BASE`: its status, its output and its results document."""
    results_path = project.parent / "results.json"
    status, output = invoke(project, "run", "--revert", base, "--json", str(results_path))
    return status, output, json.loads(results_path.read_text(encoding="utf-8"))


def test_a_change_that_marks_python_files_binary_in_gitattributes_still_shows_its_hunks(tmp_path):
    project = tmp_path / "project"
    base = make_history(
        project,
        {"src/merging.py": BASE_SOURCE, "tests/test_merging.py": BASE_TESTS},
        {
            "src/merging.py": HEAD_SOURCE,
            "tests/test_merging.py": HEAD_TESTS,
            ".gitattributes": "*.py -diff\n",
        },
    )
    change = revert_change(project, base, ("src",), LANGUAGES, ("tests",))
    assert change.files == ("src/merging.py",)
    assert GUARDED_HUNK in [applied.mutant.id for applied in change.mutants]
    assert changed_lines(project, base)["src/merging.py"] == {5, 7, 15}


def test_files_whose_names_git_quotes_are_in_the_change_with_their_real_names(tmp_path):
    project = tmp_path / "project"
    names = (
        'src/q"uote.py',
        "src/tab\there.py",
        "src/back\\slash.py",
        "src/é.py",
    )
    base = make_history(
        project,
        {name: "def f(x):\n    return x > 1\n" for name in names},
        {name: "def f(x):\n    return x >= 1\n" for name in names},
    )
    change = revert_change(project, base, ("src",), LANGUAGES, ("tests",))
    assert change.files == tuple(sorted(names))
    reverted = {applied.mutant.id: applied.mutated for applied in change.mutants}
    assert all(reverted[f"revert:{name}:1"] == "def f(x):\n    return x > 1\n" for name in names)
    assert set(changed_lines(project, base)) == set(names)


def test_names_that_are_not_utf8_are_skipped_with_their_reason_even_where_git_quotes_them(tmp_path):
    project = tmp_path / "project"
    names = (os.fsdecode(b"src/caf\xe9.py"), os.fsdecode(b"src/t\tcaf\xe9.py"))
    base = make_history(
        project,
        {name: "def f(x):\n    return x > 1\n" for name in names},
        {name: "def f(x):\n    return x >= 1\n" for name in names},
    )
    change = revert_change(project, base, ("src",), LANGUAGES, ("tests",))
    assert (change.files, change.mutants) == ((), ())
    assert [(hunk.id, hunk.reason) for hunk in change.skipped] == [
        ("revert:src/caf\\xe9.py:1", "name-not-utf8"),
        ("revert:src/t\tcaf\\xe9.py:1", "name-not-utf8"),
    ]


def test_a_change_that_fixes_a_file_broken_at_the_base_skips_it_and_judges_the_rest(tmp_path):
    project = tmp_path / "project"
    base = make_history(
        project,
        {
            "src/merging.py": BASE_SOURCE,
            "src/later.py": "def later(:\n    return 1\n",
            "tests/test_merging.py": BASE_TESTS,
        },
        {
            "src/merging.py": HEAD_SOURCE,
            "src/later.py": "def later():\n    return 1\n",
            "tests/test_merging.py": HEAD_TESTS,
        },
    )
    status, output, results = _revert_run(project, base)
    verdicts = {mutant["id"]: (mutant["verdict"], mutant["killers"]) for mutant in results["mutants"]}
    assert verdicts[GUARDED_HUNK] == ("killed", [NEW_TEST])
    assert verdicts["revert:all"] == ("killed", [NEW_TEST])
    skipped = {hunk["id"]: hunk["reason"] for hunk in results["change_guard"]["skipped"]}
    assert skipped["revert:src/later.py:1"] == "base-broken"
    assert "skipped revert:src/later.py:1 (src/later.py, line 1): the file does not compile at the base" in output
    assert status == 1, output  # the call-id hunk is unguarded, as in every run of this history


def test_a_run_on_a_change_to_a_file_whose_name_is_not_utf8_lists_it_as_skipped_without_a_traceback(tmp_path):
    project = tmp_path / "project"
    latin = os.fsdecode(b"src/caf\xe9.py")
    base = make_history(
        project,
        {"src/merging.py": BASE_SOURCE, latin: "LIMIT = 1\n", "tests/test_merging.py": BASE_TESTS},
        {"src/merging.py": HEAD_SOURCE, latin: "LIMIT = 2\n", "tests/test_merging.py": HEAD_TESTS},
    )
    status, output, results = _revert_run(project, base)
    assert results["change_guard"]["files"] == ["src/merging.py"]
    assert {mutant["id"]: mutant["verdict"] for mutant in results["mutants"]}[GUARDED_HUNK] == "killed"
    skipped = {hunk["id"]: hunk["reason"] for hunk in results["change_guard"]["skipped"]}
    assert skipped["revert:src/caf\\xe9.py:1"] == "name-not-utf8"
    assert "skipped revert:src/caf\\xe9.py:1 (src/caf\\xe9.py, line 1): the file's name is not UTF-8" in output
    assert status == 1, output  # the call-id hunk is unguarded, as in every run of this history


def test_a_symlink_the_change_replaced_by_a_file_is_restored_as_the_link_it_was(tmp_path):
    project = tmp_path / "project"
    base = make_history(
        project,
        {
            "src/real.py": "def limit():\n    return 1\n",
            "src/alias.py": "placeholder, replaced by a link below\n",
            "tests/test_alias.py": "from alias import limit\n\n\ndef test_limit():\n    assert limit() == 2\n",
        },
        {},
        commit_head=False,
    )
    (project / "src" / "alias.py").unlink()
    (project / "src" / "alias.py").symlink_to("real.py")
    git(project, "add", "-A")
    git(project, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--amend", "-m", "base")
    base = git(project, "rev-parse", "HEAD").strip()
    (project / "src" / "alias.py").unlink()
    (project / "src" / "alias.py").write_text("def limit():\n    return 2\n", encoding="utf-8")
    status, output, results = _revert_run(project, base)
    mutants = {mutant["id"]: mutant for mutant in results["mutants"]}
    reverted = mutants["revert:src/alias.py:1"]
    assert reverted["verdict"] == "killed", output
    witness = next(iter(reverted["witnesses"].values()))
    assert "assert 1 == 2" in witness and "NameError" not in witness, witness
    assert (project / "src" / "alias.py").read_text(encoding="utf-8") == "def limit():\n    return 2\n"
    assert not (project / "src" / "alias.py").is_symlink() and status == 0, output


def test_a_folder_the_change_replaced_by_a_link_out_of_the_project_is_never_written_through(tmp_path):
    project = tmp_path / "project"
    outside = tmp_path / "outside" / "pkg"
    outside.mkdir(parents=True)
    (outside / "mod.py").write_text("def limit():\n    return 2\n", encoding="utf-8")
    base = make_history(
        project,
        {
            "src/pkg/mod.py": "def limit():\n    return 1\n",
            "tests/test_mod.py": "from pkg.mod import limit\n\n\ndef test_limit():\n    assert limit() == 2\n",
        },
        {},
        commit_head=False,
    )
    (project / "src" / "pkg" / "mod.py").unlink()
    (project / "src" / "pkg").rmdir()
    (project / "src" / "pkg").symlink_to(outside)
    status, output = invoke(project, "run", "--revert", base)
    assert (outside / "mod.py").read_text(encoding="utf-8") == "def limit():\n    return 2\n"
    assert sorted(path.name for path in outside.iterdir()) == ["mod.py"]
    assert status in (0, 1), output
