"""Revert mutants made from a git change: one per hunk, the whole change, and the hunks skipped."""

import textwrap
from pathlib import Path

import pytest

from mutcheck.core.module_scope import MODULE_SCOPE
from mutcheck.core.problems import InputError
from mutcheck.core.source_text import Span, line_offsets, replaced
from mutcheck.mutation.mutate import FileEdit
from mutcheck.mutation.revert import revert_change
from mutcheck.results.change_guard import what_it_asserts
from tests.mutcheck.revert_project import git

IDENTITY = ("-c", "user.name=t", "-c", "user.email=t@example.com")


def _repository(root: Path, files: dict[str, str]) -> str:
    """A repository whose only commit holds `files`; returns its SHA."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, *IDENTITY, "add", ".")
    git(root, *IDENTITY, "commit", "-q", "-m", "base")
    return git(root, "rev-parse", "HEAD").strip()


def _write(root: Path, name: str, text: str) -> None:
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(textwrap.dedent(text), encoding="utf-8")


def _spliced(applied) -> str:
    """The span's text replaced by the replacement, as the Stryker report and the HTML source view rebuild it."""
    return replaced(applied.original, line_offsets(applied.original), applied.span, applied.replacement)


def _change(root: Path, base: str, targets=("src",)):
    change = revert_change(root, base, targets, ("en", "zh"), ("tests",))
    return change, {applied.mutant.id: applied for applied in change.mutants}


BASE = """\
def first(items):
    return items[0]


def keep(item):
    return item is not None


LIMIT = 3
"""


def test_each_hunk_reverted_alone_restores_exactly_its_base_lines(tmp_path):
    base = _repository(tmp_path, {"src/m.py": BASE})
    head = BASE.replace("return items[0]", "return items[0] if items else None").replace("LIMIT = 3", "LIMIT = 4")
    head = head.replace(
        "    return item is not None\n", "    if item is None:\n        return False\n    return True\n"
    )
    _write(tmp_path, "src/m.py", head)
    change, mutants = _change(tmp_path, base)
    assert list(mutants) == ["revert:src/m.py:1", "revert:src/m.py:2", "revert:src/m.py:3", "revert:all"]
    one, two, three, whole = mutants.values()
    assert one.mutated == head.replace("return items[0] if items else None", "return items[0]")
    assert two.mutated == head.replace(
        "    if item is None:\n        return False\n    return True\n", "    return item is not None\n"
    )
    assert three.mutated == head.replace("LIMIT = 4", "LIMIT = 3")
    assert whole.mutated == BASE and whole.original == head
    assert [(m.swap_target, m.scope_qualname) for m in (one, two, three)] == [
        ("first", "first"),
        ("keep", "keep"),
        (None, MODULE_SCOPE),  # a module statement runs at import: a copy, every test
    ]
    assert [(m.span.start_line, m.span.end_line) for m in (one, two, three)] == [(2, 3), (6, 9), (11, 12)]
    assert all(_spliced(m) == m.mutated for m in mutants.values())
    assert whole.swap_target is None and whole.scope_qualname == MODULE_SCOPE
    assert change.files == ("src/m.py",) and change.merge_base == base
    assert all(m.mutant.revert and m.mutant.family == "change-guard" for m in mutants.values())
    assert one.mutant.title == {
        "en": f"src/m.py, hunk 1 (line 2) reverted to {base[:12]}",
        "zh": f"src/m.py 第 1 处改动（第 2 行）还原为 {base[:12]} 的版本",
    }


def test_a_hunk_in_a_function_that_changes_what_runs_outside_its_body_runs_in_a_copy_against_every_test(tmp_path):
    base = _repository(tmp_path, {"src/m.py": "def f(x=1):\n    return x\n\n\ndef g():\n    return 1\n"})
    _write(tmp_path, "src/m.py", "def f(x=2):\n    return x\n\n\ndef g():\n    return 2\n")
    _, mutants = _change(tmp_path, base)
    default, body = mutants["revert:src/m.py:1"], mutants["revert:src/m.py:2"]
    assert (default.swap_target, default.scope_qualname) == (None, MODULE_SCOPE)  # a default is evaluated at import
    assert not default.equivalent_by_compilation  # the module's code makes the function with another default
    assert (body.swap_target, body.scope_qualname) == ("g", "g")


def test_a_deleted_line_goes_back_after_the_line_it_followed(tmp_path):
    base = _repository(
        tmp_path, {"src/m.py": "def f(items):\n    items.sort()\n    items.reverse()\n    return items\n"}
    )
    _write(tmp_path, "src/m.py", "def f(items):\n    items.sort()\n    return items\n")
    _, mutants = _change(tmp_path, base)
    hunk = mutants["revert:src/m.py:1"]
    assert hunk.mutated == "def f(items):\n    items.sort()\n    items.reverse()\n    return items\n"
    assert (hunk.span, hunk.replacement, hunk.swap_target) == (Span(3, 0, 3, 0), "    items.reverse()\n", "f")
    assert _spliced(hunk) == hunk.mutated
    assert "deleted after line 2" in hunk.mutant.title["en"] and "第 2 行之后被删除的行" in hunk.mutant.title["zh"]


def test_a_last_line_without_a_line_break_and_crlf_line_ends_revert_as_git_shows_them(tmp_path):
    base = _repository(tmp_path, {"src/m.py": "X = 1\nY = 1", "src/w.py": "A = 1\r\nB = 1\r\n"})
    (tmp_path / "src/m.py").write_text("X = 1\nY = 2\nZ = 3", encoding="utf-8")
    (tmp_path / "src/w.py").write_bytes(b"A = 1\r\nB = 2\r\n")
    _, mutants = _change(tmp_path, base)
    last = mutants["revert:src/m.py:1"]
    assert last.mutated == "X = 1\nY = 1" and _spliced(last) == last.mutated
    windows = mutants["revert:src/w.py:1"]
    assert windows.mutated == "A = 1\nB = 1\n" and _spliced(windows) == windows.mutated


def test_comment_docstring_and_formatting_hunks_are_skipped_and_a_hunk_that_cannot_stand_alone_too(tmp_path):
    base = _repository(
        tmp_path, {"src/m.py": 'def f():\n    """Old."""\n    return 1\n\n\nX = (\n    1,\n)\n\n\nY = 1\n'}
    )
    _write(
        tmp_path, "src/m.py", 'def f():\n    """New words."""\n    return 1  # one\n\n\nX = [\n    1,\n]\n\n\nY = 2\n'
    )
    change, mutants = _change(tmp_path, base)
    assert [(hunk.id, hunk.reason, hunk.first_line, hunk.line_count) for hunk in change.skipped] == [
        ("revert:src/m.py:1", "layout", 2, 2),
        ("revert:src/m.py:2", "alone", 6, 1),
        ("revert:src/m.py:3", "alone", 8, 1),
    ]
    assert list(mutants) == ["revert:src/m.py:4", "revert:all"]
    assert '-    """New words."""' in change.skipped[0].diff


def test_a_change_of_layout_only_has_no_whole_change_mutant(tmp_path):
    base = _repository(tmp_path, {"src/m.py": "X = 1\n"})
    _write(tmp_path, "src/m.py", "# the answer\nX = 1  # one\n")
    change, mutants = _change(tmp_path, base)
    assert mutants == {} and len(change.skipped) == 1


def test_new_removed_and_untracked_files_and_the_whole_change_across_files(tmp_path):
    base = _repository(tmp_path, {"src/a.py": "A = 1\n", "src/gone.py": "G = 1\n", "docs/x.py": "D = 1\n"})
    _write(tmp_path, "src/a.py", "A = 2\n")
    (tmp_path / "src/gone.py").unlink()
    _write(tmp_path, "src/new.py", "N = 1\n")  # untracked
    _write(tmp_path, "src/notes.txt", "not python\n")
    _write(tmp_path, "docs/x.py", "D = 2\n")  # outside the target
    _write(tmp_path, "tests/test_gone.py", "def test_gone():\n    assert find_spec('gone') is None\n")
    git(tmp_path, "rm", "-q", "--cached", "src/gone.py")
    change, mutants = _change(tmp_path, base)
    assert change.files == ("src/a.py", "src/gone.py", "src/new.py")
    assert list(mutants) == ["revert:src/a.py:1", "revert:src/gone.py:1", "revert:src/new.py:1", "revert:all"]
    assert mutants["revert:src/gone.py:1"].files_written() == (FileEdit("src/gone.py", "G = 1\n"),)
    assert mutants["revert:src/new.py:1"].files_written() == (FileEdit("src/new.py", None),)
    assert mutants["revert:src/a.py:1"].files_written() == (FileEdit("src/a.py", "A = 1\n"),)
    whole = mutants["revert:all"]
    assert whole.files_written() == (
        FileEdit("src/a.py", "A = 1\n"),
        FileEdit("src/gone.py", "G = 1\n"),
        FileEdit("src/new.py", None),
    )
    assert (whole.mutant.file, whole.swap_target) == ("src/a.py", None)
    assert "+G = 1" in whole.diff and "-N = 1" in whole.diff and "-A = 2" in whole.diff
    assert all(_spliced(m) == m.mutated for m in mutants.values()), "each file's own span, the whole change's first"
    assert whole.mutant.title["en"] == f"the whole change to 3 target files reverted to {base[:12]}"


def test_the_merge_base_is_compared_not_what_landed_on_base_since(tmp_path):
    base = _repository(tmp_path, {"src/m.py": "X = 1\n"})
    git(tmp_path, "checkout", "-q", "-b", "feature")
    _write(tmp_path, "src/m.py", "X = 2\n")
    git(tmp_path, *IDENTITY, "commit", "-q", "-am", "feature")
    git(tmp_path, "checkout", "-q", "main")
    _write(tmp_path, "src/other.py", "O = 1\n")
    git(tmp_path, "add", "src/other.py")
    git(tmp_path, *IDENTITY, "commit", "-q", "-m", "landed on main")
    git(tmp_path, "checkout", "-q", "feature")
    change, mutants = _change(tmp_path, "main")
    assert change.merge_base == base and change.base == "main"
    assert list(mutants) == ["revert:src/m.py:1", "revert:all"]


def test_git_failures_are_one_problem_naming_revert(tmp_path):
    _repository(tmp_path, {"src/m.py": "X = 1\n"})
    with pytest.raises(InputError) as raised:
        revert_change(tmp_path, "nope", ("src",), ("en",))
    (problem,) = raised.value.problems
    assert (problem.source, problem.field) == ("--revert", "")
    assert problem.message.startswith("git merge-base nope failed: ")
    _write(tmp_path, "src/m.py", "X = (\n")
    with pytest.raises(InputError) as raised:
        revert_change(tmp_path, "HEAD", ("src",), ("en",))
    assert [(p.source, p.field) for p in raised.value.problems] == [("src/m.py", "--revert")]
    assert "does not compile" in raised.value.problems[0].message


def test_what_a_test_asserts_is_its_docstring_or_its_name_in_words(tmp_path):
    (tmp_path / "tests").mkdir()
    _write(
        tmp_path,
        "tests/test_x.py",
        '''\
        class TestGroup:
            def test_in_class(self):
                """

                Keeps the first signature.
                More detail.
                """


        def test_a_dangling_call_is_dropped():
            pass
        ''',
    )
    assert what_it_asserts(tmp_path, "tests/test_x.py::TestGroup::test_in_class") == "Keeps the first signature."
    assert what_it_asserts(tmp_path, "tests/test_x.py::test_a_dangling_call_is_dropped") == "a dangling call is dropped"
    assert what_it_asserts(tmp_path, "tests/test_x.py::test_a_dangling_call_is_dropped[2-x]") == (
        "a dangling call is dropped [2-x]"
    )
    assert what_it_asserts(tmp_path, "tests/missing.py::test_gone_file") == "gone file"
    assert what_it_asserts(tmp_path, "tests/test_x.py::test_not_there") == "not there"


def test_added_and_removed_files_are_named_so_and_a_removed_file_keeps_its_own_encoding(tmp_path):
    latin = "# -*- coding: latin-1 -*-\nNAME = 'café'\n"
    base = _repository(tmp_path, {"src/a.py": "A = 1\n"})
    (tmp_path / "src/old.py").write_bytes(latin.encode("latin-1"))
    git(tmp_path, "add", "src/old.py")
    git(tmp_path, *IDENTITY, "commit", "-q", "-m", "old")
    base = git(tmp_path, "rev-parse", "HEAD").strip()
    git(tmp_path, "rm", "-q", "src/old.py")
    _write(tmp_path, "tests/test_old.py", "def test_old():\n    assert find_spec('old') is None\n")
    _write(tmp_path, "src/added.py", "ADDED = 1\n")
    git(tmp_path, "add", "src/added.py")
    _, mutants = _change(tmp_path, base)
    added, removed = mutants["revert:src/added.py:1"], mutants["revert:src/old.py:1"]
    assert added.mutant.title["en"] == f"src/added.py, a new file, removed as on {base[:12]}"
    assert removed.mutant.title["zh"] == f"已删除的文件 src/old.py 按 {base[:12]} 恢复"
    assert removed.files_written() == (FileEdit("src/old.py", latin, "iso8859-1"),)
    assert (added.original, added.mutated, removed.original, removed.mutated) == ("ADDED = 1\n", "", "", latin)
    assert added.mutant.origin == f"git diff {base[:12]} -- src/added.py"
    assert mutants["revert:all"].mutant.origin == f"git diff {base[:12]} -- src/added.py src/old.py"


def test_a_whole_change_inside_one_function_is_swapped_and_one_that_compiles_the_same_is_equivalent(tmp_path):
    base = _repository(tmp_path, {"src/m.py": "def f(x):\n    y = x\n    return y\n\n\nN = 2\n"})
    _write(tmp_path, "src/m.py", "def f(x):\n    y = x + 1\n    return y * 2\n\n\nN = 2\n")
    _, mutants = _change(tmp_path, base)
    whole = mutants["revert:all"]
    assert (whole.swap_target, whole.scope_qualname, whole.writes) == ("f", "f", ())
    assert not whole.equivalent_by_compilation

    folded = tmp_path / "folded"
    folded.mkdir()
    base = _repository(folded, {"src/m.py": "N = 2\n"})
    _write(folded, "src/m.py", "N = 1 + 1\n")  # a different tree, the same byte code
    _, mutants = _change(folded, base)
    assert mutants["revert:all"].equivalent_by_compilation and mutants["revert:src/m.py:1"].equivalent_by_compilation


def test_only_python_files_of_the_target_count_and_ignored_untracked_files_do_not(tmp_path):
    base = _repository(tmp_path, {"src/a.txt": "a\n", "src/b.py": "B = 1\n", ".gitignore": "src/generated.py\n"})
    _write(tmp_path, "src/a.txt", "changed\n")  # sorts before b.py in the diff
    _write(tmp_path, "src/b.py", "B = 2\n")
    _write(tmp_path, "src/generated.py", "G = 1\n")
    change, mutants = _change(tmp_path, base)
    assert change.files == ("src/b.py",) and list(mutants) == ["revert:src/b.py:1", "revert:all"]


def test_a_source_that_cannot_be_read_and_unrelated_histories_are_one_line_each(tmp_path):
    base = _repository(tmp_path, {"src/m.py": "X = 1\n"})
    (tmp_path / "src/m.py").write_bytes(b"X = '\xff'\n")
    with pytest.raises(InputError) as raised:
        revert_change(tmp_path, base, ("src",), ("en",))
    (problem,) = raised.value.problems
    assert (problem.source, problem.entry, problem.field) == ("src/m.py", "", "--revert")
    assert problem.message.startswith("cannot be read as Python source: ")
    git(tmp_path, "checkout", "-q", "--orphan", "unrelated")
    git(tmp_path, *IDENTITY, "commit", "-q", "-am", "no common history")
    with pytest.raises(InputError) as raised:
        revert_change(tmp_path, base, ("src",), ("en",))
    (problem,) = raised.value.problems
    assert problem.message == f"git merge-base {base} failed: no common ancestor with HEAD"


def test_moved_code_is_reverted_in_both_places_at_once(tmp_path):
    """Done alone, undoing the move's deletion would leave the call in both places, and undoing its
    addition would leave it in neither: neither is the base."""
    before = "def f(parts):\n    parts = merge(parts)\n    drop(parts)\n    return parts\n"
    base = _repository(tmp_path, {"src/m.py": before})
    after = "def f(parts):\n    if parts:\n        # Before the merge.\n        drop(parts)\n"
    after += "    parts = merge(parts)\n    return parts\n"
    _write(tmp_path, "src/m.py", after)
    change, mutants = _change(tmp_path, base)
    assert list(mutants) == ["revert:src/m.py:1", "revert:all"]
    moved = mutants["revert:src/m.py:1"]
    assert moved.mutated == before and moved.swap_target == "f" and _spliced(moved) == before
    assert (
        moved.mutant.title["en"]
        == f"src/m.py, hunk 1 (lines 2-4), code moved from after line 5, reverted to {base[:12]}"
    )
    (skipped,) = change.skipped
    assert (skipped.id, skipped.reason, skipped.reverted_with) == ("revert:src/m.py:2", "moved", "revert:src/m.py:1")


def test_a_project_in_a_folder_of_its_repository_reads_the_base_from_that_folder(tmp_path):
    base = _repository(tmp_path, {"pkg/src/m.py": "X = 1\n", "src/m.py": "OTHER = 1\n"})
    _write(tmp_path, "pkg/src/m.py", "X = 2\n")
    _write(tmp_path, "src/m.py", "OTHER = 2\n")  # the repository's own src/, outside the project
    change, mutants = _change(tmp_path / "pkg", base)
    assert change.files == ("src/m.py",)
    assert mutants["revert:src/m.py:1"].mutated == "X = 1\n"


def test_deleted_definitions_nothing_names_are_skipped_but_not_methods_or_ones_a_test_names(tmp_path):
    before = (
        "def used():\n    return 1\n\n\ndef dead():\n    return 2\n\n\n@decorate\nclass Gone:\n    pass\n\n\n"
        "def kept():\n    return 0\n\n\ndef looked_up():\n    return 3\n\n\n"
        "class Base:\n    def speak(self):\n        return 'base'\n\n\n"
        "class Child(Base):\n    def speak(self):\n        return 'child'\n"
    )
    base = _repository(tmp_path, {"src/m.py": before, "tests/test_m.py": "def test_x():\n    pass\n"})
    after = before.replace("def dead():\n    return 2\n\n\n@decorate\nclass Gone:\n    pass\n\n\n", "")
    after = after.replace("def looked_up():\n    return 3\n\n\n", "")
    after = after.replace(
        "class Child(Base):\n    def speak(self):\n        return 'child'\n", "class Child(Base):\n    pass\n"
    )
    _write(tmp_path, "src/m.py", after)
    _write(tmp_path, "tests/test_m.py", "import m\n\n\ndef test_x():\n    assert not hasattr(m, 'looked_up')\n")
    change = revert_change(tmp_path, base, ("src",), ("en",), ("tests",))
    assert [(hunk.first_line, hunk.reason) for hunk in change.skipped] == [(4, "unreferenced")]
    assert [m.mutant.id for m in change.mutants] == ["revert:src/m.py:2", "revert:src/m.py:3", "revert:all"]
    looked_up, method = change.mutants[:2]
    assert "+def looked_up():" in looked_up.diff  # a test names it
    assert "+    def speak(self):" in method.diff  # an override changes what Child does


def test_a_setter_or_an_overloaded_function_is_swapped_though_it_shares_its_name(tmp_path):
    """The live function is found by its code, not its name: the getter, or the stubs, are not it."""
    before = (
        "from typing import overload\n\n\nclass C:\n    @property\n    def x(self):\n        return self._x\n\n"
        "    @x.setter\n    def x(self, value):\n        self._x = value\n\n\n"
        "@overload\ndef f(a: int) -> int: ...\n@overload\ndef f(a: str) -> str: ...\ndef f(a):\n    return a\n"
    )
    base = _repository(tmp_path, {"src/m.py": before})
    _write(
        tmp_path,
        "src/m.py",
        before.replace("self._x = value", "self._x = abs(value)").replace("return a\n", "return a * 2\n"),
    )
    _, mutants = _change(tmp_path, base)
    setter, overloaded = mutants["revert:src/m.py:1"], mutants["revert:src/m.py:2"]
    assert (setter.swap_target, setter.scope_qualname) == ("C.x", "C.x")
    assert (overloaded.swap_target, overloaded.scope_qualname) == ("f", "f")


def test_a_hunk_that_parses_but_does_not_compile_alone_is_skipped_as_alone(tmp_path):
    base = _repository(tmp_path, {"src/m.py": "for _ in range(1):\n    a = 1\n    break\n"})
    _write(tmp_path, "src/m.py", "def g():\n    a = 1\n    return a\n")
    change, mutants = _change(tmp_path, base)
    assert [(hunk.id, hunk.reason) for hunk in change.skipped] == [
        ("revert:src/m.py:1", "alone"),
        ("revert:src/m.py:2", "alone"),  # `return` at module level: it parses, it does not compile
    ]
    assert list(mutants) == ["revert:all"]


def test_tests_inside_the_target_are_not_reverted(tmp_path):
    base = _repository(tmp_path, {"pkg/m.py": "X = 1\n", "pkg/tests/test_m.py": "def test_x():\n    pass\n"})
    _write(tmp_path, "pkg/m.py", "X = 2\n")
    _write(tmp_path, "pkg/tests/test_m.py", "def test_x():\n    assert True\n")
    _write(tmp_path, "pkg/tests/test_new.py", "def test_new():\n    pass\n")
    change = revert_change(tmp_path, base, ("pkg",), ("en",), ("pkg/tests",))
    assert change.files == ("pkg/m.py",)
    assert [m.mutant.id for m in change.mutants] == ["revert:pkg/m.py:1", "revert:all"]


def test_a_line_removed_from_one_function_and_written_in_another_is_no_move(tmp_path):
    before = (
        "def load(path):\n    check(path)\n    return read(path)\n\n\ndef save(path, data):\n    write(path, data)\n"
    )
    base = _repository(tmp_path, {"src/m.py": before})
    after = (
        "def load(path):\n    return read(path)\n\n\ndef save(path, data):\n    check(path)\n    write(path, data)\n"
    )
    _write(tmp_path, "src/m.py", after)
    change, mutants = _change(tmp_path, base)
    assert change.skipped == ()
    assert list(mutants) == ["revert:src/m.py:1", "revert:src/m.py:2", "revert:all"]  # each half on its own


def test_each_reverted_file_is_written_in_the_encoding_its_own_text_declares(tmp_path):
    latin = "# -*- coding: latin-1 -*-\nS = 'é'\nN = 1\n"
    (tmp_path / "src").mkdir()
    (tmp_path / "src/m.py").write_bytes(latin.encode("latin-1"))
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, *IDENTITY, "add", ".")
    git(tmp_path, *IDENTITY, "commit", "-q", "-m", "base")
    base = git(tmp_path, "rev-parse", "HEAD").strip()
    (tmp_path / "src/m.py").write_text("S = 'é'\nN = 2\n", encoding="utf-8")  # the cookie dropped
    _, mutants = _change(tmp_path, base)
    (edit,) = mutants["revert:all"].files_written()
    assert (edit.text, edit.encoding) == (latin, "iso8859-1")


def test_non_ascii_names_and_the_users_diff_settings_change_nothing(tmp_path):
    base = _repository(tmp_path, {"c/café.py": "A = 1\nB = 1\nC = 1\nD = 1\n"})
    _write(tmp_path, "c/café.py", "A = 2\nB = 1\nC = 1\nD = 2\n")
    git(tmp_path, "config", "diff.noprefix", "true")
    git(tmp_path, "config", "diff.interHunkContext", "5")
    git(tmp_path, "config", "core.quotePath", "true")
    change, mutants = _change(tmp_path, base, ("c",))
    assert change.files == ("c/café.py",)
    assert list(mutants) == ["revert:c/café.py:1", "revert:c/café.py:2", "revert:all"]


def test_a_file_untracked_again_is_one_change_reverted_whole(tmp_path):
    base = _repository(tmp_path, {"src/m.py": "X = 1\n"})
    _write(tmp_path, "src/m.py", "X = 2\n")
    git(tmp_path, "rm", "-q", "--cached", "src/m.py")  # git now sees it deleted, and untracked
    _, mutants = _change(tmp_path, base)
    assert list(mutants) == ["revert:src/m.py:1", "revert:all"]
    whole_file = mutants["revert:src/m.py:1"]
    assert whole_file.files_written() == (FileEdit("src/m.py", "X = 1\n"),)
    assert whole_file.mutant.title["en"] == f"src/m.py, replaced whole, reverted to {base[:12]}"


def test_empty_modules_are_layout_a_rename_goes_back_whole_and_a_module_nothing_names_is_unreferenced(tmp_path):
    code = "def merge(parts):\n    return parts\n"
    base = _repository(tmp_path, {"src/old_name.py": code, "src/obsolete.py": "def f():\n    return 1\n"})
    git(tmp_path, "mv", "src/old_name.py", "src/new_name.py")
    git(tmp_path, "rm", "-q", "src/obsolete.py")
    _write(tmp_path, "src/__init__.py", '"""The package."""\n')
    change, mutants = _change(tmp_path, base)
    assert [(hunk.id, hunk.reason, hunk.reverted_with) for hunk in change.skipped] == [
        ("revert:src/__init__.py:1", "layout", None),
        ("revert:src/obsolete.py:1", "unreferenced", None),
        ("revert:src/old_name.py:1", "moved", "revert:src/new_name.py:1"),
    ]
    renamed = mutants["revert:src/new_name.py:1"]
    assert renamed.files_written() == (FileEdit("src/new_name.py", None), FileEdit("src/old_name.py", code))
    assert list(mutants) == ["revert:src/new_name.py:1", "revert:all"]


def test_a_shallow_clone_without_the_base_says_so(tmp_path):
    origin = tmp_path / "origin"
    origin.mkdir()
    base = _repository(origin, {"src/m.py": "X = 1\n"})
    _write(origin, "src/m.py", "X = 2\n")
    git(origin, *IDENTITY, "commit", "-q", "-am", "head")
    git(tmp_path, "clone", "-q", "--depth", "1", origin.as_uri(), "clone")
    with pytest.raises(InputError) as raised:
        revert_change(tmp_path / "clone", base, ("src",), ("en",))
    (problem,) = raised.value.problems
    assert problem.message.startswith(f"git merge-base {base} failed: ")
    assert problem.message.endswith(
        "(the clone is shallow: fetch its history, e.g. actions/checkout with fetch-depth: 0)"
    )
