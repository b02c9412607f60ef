"""Several targets in one project ([tool.mutcheck.targets]): each run against its own tests and
catalog, one results document, the reports grouped by target."""

import textwrap
from pathlib import Path

import pytest

from mutcheck.catalog.config import load_config
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.problems import InputError
from mutcheck.report.html import render_html
from mutcheck.report.markdown import render_markdown
from mutcheck.report.stryker import render_stryker
from tests.mutcheck.cli_runs import mutant, mutcheck, run
from tests.mutcheck.engine_project import commit_all, families, make_engine_project
from tests.mutcheck.results_docs import typed

SECOND_SOURCE = '''\
"""The second target."""


def sign(value):
    if value < 0:
        return -1
    return 1
'''

SECOND_TESTS = """\
from second import sign


def test_negative():
    assert sign(-3) == -1


def test_positive():
    assert sign(4) == 1
"""

SECOND_CATALOG = """\
[[mutant]]
id = "SIGN"
family = "sign-gate"
file = "src/second.py"
scope = "sign"
match = "value < 0"
replace = "value > 0"
killed_by = ["tests/test_second.py::test_negative"]
origin = "targets fixture"
title = { en = "SIGN title", zh = "SIGN 标题" }
why = { en = "SIGN why", zh = "SIGN 原因" }

[[mutant]]
id = "SIGN-EDGE"
family = "sign-gate"
file = "src/second.py"
scope = "sign"
match = "value < 0"
replace = "value <= 0"
survives = { en = "zero is never tested", zh = "从未测试零" }
origin = "targets fixture"
title = { en = "SIGN-EDGE title", zh = "SIGN-EDGE 标题" }
why = { en = "SIGN-EDGE why", zh = "SIGN-EDGE 原因" }
"""

TARGETS = """\
[tool.mutcheck]
jobs = 2
timeout_factor = 2.0
timeout_constant = 1.0

[tool.mutcheck.targets.tiny]
target = ["src/tiny.py"]
tests = ["tests/test_tiny.py"]
catalog = "mutants"

[tool.mutcheck.targets.second]
target = ["src/second.py"]
tests = ["tests/test_second.py"]
catalog = "mutants/second"
"""


def make_two_targets(root: Path) -> Path:
    """The engine fixture's target and a second one, each with its own tests and catalog."""
    make_engine_project(root)
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    table = pyproject.index("[tool.mutcheck]")
    (root / "pyproject.toml").write_text(pyproject[:table] + TARGETS, encoding="utf-8")
    files = {
        "src/second.py": SECOND_SOURCE,
        "tests/test_second.py": SECOND_TESTS,
        "mutants/second/families.toml": families("sign-gate", "the sign gate", "符号闸门"),
        "mutants/second/catalog.toml": SECOND_CATALOG,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    commit_all(root)
    return root


@pytest.fixture(scope="module")
def two_targets(tmp_path_factory) -> Path:
    return make_two_targets(tmp_path_factory.mktemp("targets") / "project")


def test_one_run_covers_each_target_against_its_own_tests(two_targets):
    code, output, data = run(two_targets, "--only", "SWAP", "--only", "SIGN", "--only", "SIGN-EDGE")
    assert code == ExitCode.OK, output
    assert data["run"]["targets"] == ["tiny", "second"]
    assert "target tiny" in output and "target second" in output
    swap, sign, edge = (mutant(data, name) for name in ("SWAP", "SIGN", "SIGN-EDGE"))
    assert (swap["target"], sign["target"], edge["target"]) == ("tiny", "second", "second")
    tests = data["tests"]
    # each mutant ran against its own target's tests only, and its indices name them
    assert {tests[index].split("::")[0] for index in sign["selected"]} == {"tests/test_second.py"}
    assert {tests[index].split("::")[0] for index in swap["selected"]} == {"tests/test_tiny.py"}
    both = ["tests/test_second.py::test_negative", "tests/test_second.py::test_positive"]
    assert sign["killers"] == both and [tests[int(index)] for index in sign["witnesses"]] == both
    assert (edge["verdict"], edge["expectation_met"]) == ("survived", True)
    assert data["summary"]["mutants"] == 3 and data["summary"]["known_gaps"] == 1
    assert [m["order"] for m in data["mutants"]] == sorted(m["order"] for m in data["mutants"])


def test_the_comment_html_and_stryker_report_group_each_targets_mutants_under_its_name(two_targets):
    _, _, data = run(two_targets, "--only", "SWAP", "--only", "SIGN")
    comment = render_markdown(typed(data), ("en",))
    assert "| tiny · boundary conditions | 1 |" in comment
    assert "| second · the sign gate | 1 |" in comment
    html = render_html(typed(data), ("en",))
    assert "<td>tiny · boundary conditions</td>" in html and "<td>second · the sign gate</td>" in html
    assert "<p>second · the sign gate · <a" in html  # the mutant's details name its target too
    stryker = render_stryker(typed(data))["files"]
    assert [m["mutatorName"] for m in stryker["src/tiny.py"]["mutants"]] == ["tiny · boundary"]
    assert [m["mutatorName"] for m in stryker["src/second.py"]["mutants"]] == ["second · sign-gate"]


def test_target_chooses_one_and_only_runs_none_of_the_others_tests(two_targets):
    code, output, data = run(two_targets, "--target", "second")
    assert code == ExitCode.OK, output
    assert (data["run"]["targets"], data["run"]["chosen_targets"]) == (["second"], ["second"])
    assert {test.split("::")[0] for test in data["tests"]} == {"tests/test_second.py"}
    saved = mutcheck(two_targets, "report")  # the saved run says it was one target's
    assert "part of the catalog, --target second" in saved.stderr, saved.stderr
    code, output, data = run(two_targets, "--only", "SIGN")
    assert code == ExitCode.OK, output
    assert "target tiny" not in output  # --only chose none of its mutants: its suite is not run
    assert [m["id"] for m in data["mutants"]] == ["SIGN"]


def test_unknown_targets_and_names_are_refused_naming_them(two_targets):
    code, output, _ = run(two_targets, "--target", "third")
    assert code == ExitCode.USAGE
    assert "error: --target: third: no such target (known: tiny, second)" in output
    code, output, _ = run(two_targets, "--only", "NOPE")
    assert code == ExitCode.USAGE and "--only: NOPE: no mutant id, alias or family of that name" in output
    code, output, _ = run(two_targets, "--revert", "HEAD")
    assert code == ExitCode.USAGE and "add --target NAME (tiny, second)" in output
    code, output, _ = run(two_targets, "--target", "tiny", "--only", "SIGN")  # SIGN is the other target's
    assert code == ExitCode.USAGE
    assert "error: --only: SIGN: is in target second, which --target did not choose (add --target second)" in output


def test_list_and_check_read_every_targets_catalog(two_targets):
    listed = mutcheck(two_targets, "list")
    assert listed.returncode == 0, listed.stderr
    assert "SWAP" in listed.stdout and "SIGN-EDGE" in listed.stdout
    checked = mutcheck(two_targets, "check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "11 mutants in 2 families: every entry applies" in checked.stdout  # both catalogs, one count


def write_pyproject(root: Path, text: str) -> Path:
    for folder in ("src/a", "src/b", "tests/a", "tests/b", "mutants/a", "mutants/b"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def problems_of(root: Path) -> list[str]:
    with pytest.raises(InputError) as raised:
        load_config(root)
    return [str(problem) for problem in raised.value.problems]


def test_each_target_names_its_code_tests_and_catalog_and_no_file_is_in_two(tmp_path):
    root = write_pyproject(
        tmp_path,
        """
        [tool.mutcheck]
        target = ["src"]
        [tool.mutcheck.targets.a]
        target = ["src/a"]
        tests = ["tests/a"]
        [tool.mutcheck.targets.b]
        target = ["src"]
        tests = ["tests/b"]
        catalog = "mutants/b"
        extra = 1
        """,
    )
    assert problems_of(root) == [
        "pyproject.toml: tool.mutcheck.targets: set target, tests and catalog in each target, not in"
        " [tool.mutcheck] (target)",
        "pyproject.toml: tool.mutcheck.targets.a.catalog: missing",
        "pyproject.toml: tool.mutcheck.targets.b.extra: unknown key",
    ]
    write_pyproject(
        tmp_path,
        """
        [tool.mutcheck.targets.a]
        target = ["src/a"]
        tests = ["tests/a"]
        catalog = "mutants/a"
        [tool.mutcheck.targets.b]
        target = ["src/a/inner.py", "src/b"]
        tests = ["tests/b"]
        catalog = "mutants/a"
        """,
    )
    (tmp_path / "src/a/inner.py").write_text("")
    assert problems_of(tmp_path) == [
        "pyproject.toml: tool.mutcheck.targets.b.target: 'src/a' is in target 'a' too: a file belongs to one target",
        "pyproject.toml: tool.mutcheck.targets.b.catalog: is target 'a''s catalog too: each target has its own",
    ]


def test_the_targets_settings_are_all_of_theirs_and_a_profile_may_name_one_target(tmp_path):
    root = write_pyproject(
        tmp_path,
        """
        [tool.mutcheck.targets.a]
        target = ["src/a"]
        tests = ["tests/a"]
        catalog = "mutants/a"
        [tool.mutcheck.targets.b]
        target = "src/b"
        tests = ["tests/b"]
        catalog = "mutants/b"
        [tool.mutcheck.profile.only-a]
        target = ["src/a"]
        tests = ["tests/a"]
        catalog = "mutants/a"
        """,
    )
    config = load_config(root)
    assert (config.target, config.tests) == (("src/a", "src/b"), ("tests/a", "tests/b"))
    assert [(one.target_name, one.target, one.catalog) for one in config.each_target()] == [
        ("a", ("src/a",), "mutants/a"),
        ("b", ("src/b",), "mutants/b"),
    ]
    assert [one.target_name for one in config.chosen_targets(("b",)).each_target()] == ["b"]
    profiled = load_config(root, profile="only-a")
    assert profiled.targets == () and profiled.target == ("src/a",)


def test_suggest_runs_a_files_own_target_and_writes_into_its_catalog(tmp_path):
    project = make_two_targets(tmp_path / "project")
    suggested = mutcheck(project, "suggest", "src/second.py")
    assert suggested.returncode == 0, suggested.stdout + suggested.stderr
    written = project / "mutants/second/suggested_second.toml"
    assert written.is_file() and 'file = "src/second.py"' in written.read_text(encoding="utf-8")
    assert not (project / "mutants/suggested_second.toml").exists()


def test_suggest_gives_a_family_another_target_declares_that_targets_title(tmp_path):
    project = make_two_targets(tmp_path / "project")
    first = project / "mutants/families.toml"
    declared = first.read_text(encoding="utf-8") + families("delete-guard", "guards gone", "守卫没了")
    first.write_text(declared, encoding="utf-8")
    suggested = mutcheck(project, "suggest", "src/second.py")
    assert suggested.returncode == 0, suggested.stdout + suggested.stderr
    second = (project / "mutants/second/families.toml").read_text(encoding="utf-8")
    assert second.endswith('[family.delete-guard]\nen = "guards gone"\nzh = "守卫没了"\n')
    checked = mutcheck(project, "check")
    assert "declared in mutants too" not in checked.stderr, checked.stderr


def test_a_family_id_two_targets_declare_with_other_titles_is_refused(tmp_path):
    project = make_two_targets(tmp_path / "project")
    clash = families("boundary", "another meaning", "另一含义")
    (project / "mutants/second/families.toml").write_text(clash + families("sign-gate", "s", "符"), encoding="utf-8")
    outcome = mutcheck(project, "check")
    assert outcome.returncode == ExitCode.USAGE
    assert outcome.stderr.splitlines()[0] == (
        "error: mutants/second/families.toml: boundary: family: declared in mutants too, with another title:"
        " give each its own id"
    )
