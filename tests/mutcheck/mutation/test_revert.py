"""`mutcheck run --revert BASE`: every hunk of the change since BASE reverted alone, and the whole
change reverted, must make a test fail; the comment shows the A/B table of the whole change."""

import ast
import copy
import json
import shutil
from pathlib import Path
from urllib.parse import quote

import jsonschema
import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.publish import github
from mutcheck.publish.publish import publish
from mutcheck.report.markdown import COMMENT_LIMIT, render_markdown
from tests.mutcheck.browser import chromium
from tests.mutcheck.fake_github import NAME, NUMBER, OWNER
from tests.mutcheck.hostile.markdown_checks import split_languages
from tests.mutcheck.npm_packages import stryker_schema
from tests.mutcheck.paths import REPOSITORY
from tests.mutcheck.results_docs import document, typed
from tests.mutcheck.revert_project import (
    COMMENT_HUNK,
    GUARDED_HUNK,
    NEW_TEST,
    UNGUARDED_HUNK,
    git,
    make_history,
    make_revert_project,
)
from tests.mutcheck.spans import at_location, patched


def _run(project: Path, *args: str) -> tuple[object, dict]:
    results_path = project.parent / "results.json"
    arguments = ["run", "--project", str(project), "--json", str(results_path), *args]
    result = CliRunner().invoke(main, arguments)
    assert results_path.exists(), result.output
    return result, document(results_path)


def _by_id(results: dict) -> dict[str, dict]:
    return {mutant["id"]: mutant for mutant in results["mutants"]}


def test_revert_kills_the_guarded_hunk_reports_the_unguarded_one_and_skips_the_comment(tmp_path):
    project = tmp_path / "project"
    base = make_revert_project(project)
    result, results = _run(project, "--revert", base)
    mutants = _by_id(results)
    assert sorted(mutants) == sorted([GUARDED_HUNK, UNGUARDED_HUNK, "revert:all"]), result.output
    assert (mutants[GUARDED_HUNK]["verdict"], mutants[GUARDED_HUNK]["killers"]) == ("killed", [NEW_TEST])
    assert mutants[GUARDED_HUNK]["expectation_met"]
    assert (mutants["revert:all"]["verdict"], mutants["revert:all"]["killers"]) == ("killed", [NEW_TEST])
    unguarded = mutants[UNGUARDED_HUNK]
    assert (unguarded["verdict"], unguarded["problems"]) == (
        "survived",
        [{"kind": "unguarded-change", "test": None, "detail": "survived"}],
    )
    assert '-    return call.get("name") is not None and call.get("id") is not None' in unguarded["diff"]
    # shown as the pull request made the change, base → head: the head's line is the added one
    head_line = '+    return call.get("name") is not None and call.get("id") is not None'
    assert head_line in result.output
    shown = CliRunner().invoke(main, ["show", UNGUARDED_HUNK, "--project", str(project)])
    assert shown.exit_code == 0 and head_line in shown.output, shown.output
    assert all(mutant["revert"] and mutant["family"] == "change-guard" for mutant in mutants.values())
    guard = results["change_guard"]
    assert (guard["base"], guard["merge_base"], guard["files"]) == (base, base, ["src/merging.py"])
    assert [(hunk["id"], hunk["reason"], hunk["first_line"]) for hunk in guard["skipped"]] == [
        (COMMENT_HUNK, "layout", 5)
    ]
    assert guard["about"] == {NEW_TEST: "A signed thought after another thought keeps its own signature."}
    assert result.exit_code == ExitCode.EXPECTATION_FAILED
    assert f"{UNGUARDED_HUNK} [survived]" in result.output
    assert f"skipped {COMMENT_HUNK} (src/merging.py, line 5): only comments" in result.output

    english, chinese = split_languages(render_markdown(typed(results)))
    escaped_test = NEW_TEST.replace("_", "\\_")
    assert "#### Change guard" in english and "#### 变更守护" in chinese
    assert f"##### A/B: the tests that fail on {base[:6]}" in english
    assert "##### A/B：在 " in chinese
    ab_row = (
        f"| S1 | {escaped_test} | A signed thought after another thought keeps its own signature. | "
        "failed: AssertionError: assert \\['sA'\\] == \\['sA', 'sB'\\] | passed |"
    )
    assert ab_row in english
    assert ab_row.replace("failed: ", "失败：").replace("| passed |", "| 通过 |") in chinese
    assert "this change is not guarded by any test" in english and "这处改动没有任何测试守护" in chinese
    assert f"**{COMMENT_HUNK}** · src/merging.py, line 5 · only comments, docstrings or formatting" in english
    assert f"**{COMMENT_HUNK}** · src/merging.py 第 5 行 · 只涉及注释、文档字符串或格式" in chinese


def test_a_guarded_change_passes_and_the_working_tree_counts(tmp_path):
    """Uncommitted edits are part of the change; a test for the unguarded hunk makes the run pass."""
    project = tmp_path / "project"
    base = make_revert_project(project)
    tests = project / "tests" / "test_merging.py"
    tests.write_text(
        tests.read_text(encoding="utf-8")
        + '\n\ndef test_a_call_without_an_id_is_dropped():\n    assert not keep_call({"name": "read"})\n',
        encoding="utf-8",
    )
    result, results = _run(project, "--revert", base)
    mutants = _by_id(results)
    assert mutants[UNGUARDED_HUNK]["killers"] == ["tests/test_merging.py::test_a_call_without_an_id_is_dropped"]
    assert all(mutant["expectation_met"] for mutant in mutants.values())
    assert result.exit_code == ExitCode.OK, result.output


def test_only_change_guard_runs_the_revert_mutants_alone_and_unknown_names_are_refused(tmp_path):
    project = tmp_path / "project"
    base = make_revert_project(project)
    result, results = _run(project, "--revert", base, "--only", GUARDED_HUNK)
    assert [mutant["id"] for mutant in results["mutants"]] == [GUARDED_HUNK]
    assert result.exit_code == ExitCode.OK, result.output
    refused = CliRunner().invoke(main, ["run", "--project", str(project), "--only", GUARDED_HUNK])
    assert refused.exit_code == ExitCode.USAGE
    assert f"--only: {GUARDED_HUNK}: no mutant id, alias or family of that name" in refused.output


def test_a_base_git_does_not_know_is_one_line_naming_revert(tmp_path):
    project = tmp_path / "project"
    make_revert_project(project)
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--revert", "no-such-branch"])
    assert result.exit_code == ExitCode.USAGE
    (line,) = result.output.strip().splitlines()
    assert line.startswith("error: --revert: git merge-base no-such-branch failed: ")
    assert "Traceback" not in result.output


def _remove_test(source: str, name: str) -> str:
    """The test file without the test function `name` (and its decorators)."""
    tree = ast.parse(source)
    node = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == name)
    first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
    lines = source.splitlines(keepends=True)
    return "".join(lines[: first - 1] + lines[node.end_lineno :])


def embedded_target_copy(project: Path, name: str) -> Path:
    """A project holding a copy of one of this repository's embedded targets and its suite, as its one target."""
    shutil.copytree(REPOSITORY / "src" / name, project / "src" / name)
    shutil.copytree(REPOSITORY / "tests" / name, project / "tests" / name)
    for conftest in ("__init__.py", "conftest.py"):
        shutil.copy(REPOSITORY / "tests" / conftest, project / "tests" / conftest)
    (project / "mutants").mkdir()
    (project / "mutants" / "families.toml").write_text('[family.none]\nen = "none"\nzh = "无"\n', encoding="utf-8")
    (project / ".gitignore").write_text("__pycache__/\n", encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\npythonpath = ["src"]\n\n'
        f'[tool.mutcheck]\ntarget = ["src/{name}"]\ntests = ["tests/{name}"]\njobs = 2\n',
        encoding="utf-8",
    )
    return project


def test_a_commit_adding_a_guard_of_the_reference_implementation_and_its_test_is_killed_by_that_test(tmp_path):
    """A scratch history of a copy of this repository's history-consolidation code: the base commit
    counts only thinking blocks as thinking (guard G43 absent) and lacks the test that pins
    redacted thinking; the head commit adds both."""
    project = embedded_target_copy(tmp_path / "project", "consolidation")
    guarded = project / "src" / "consolidation" / "message_passes.py"
    tests = project / "tests" / "consolidation" / "test_converter.py"
    head_source, head_tests = guarded.read_text(encoding="utf-8"), tests.read_text(encoding="utf-8")
    guard = 'block.get("type") in THINKING_TYPES'
    assert head_source.count(guard) == 1
    guarded.write_text(head_source.replace(guard, 'block.get("type") == "thinking"'), encoding="utf-8")
    test_name = "test_v5_redacted_thinking_counts_as_thinking"
    tests.write_text(_remove_test(head_tests, test_name), encoding="utf-8")
    identity = ("-c", "user.name=t", "-c", "user.email=t@example.com")
    git(project, "init", "-q", "-b", "main")
    git(project, *identity, "add", ".")
    git(project, *identity, "commit", "-q", "-m", "base: redacted thinking is not thinking")
    base = git(project, "rev-parse", "HEAD").strip()
    guarded.write_text(head_source, encoding="utf-8")
    tests.write_text(head_tests, encoding="utf-8")
    git(project, *identity, "commit", "-q", "-am", "count redacted thinking as thinking, with its test")

    result, results = _run(project, "--revert", base)
    mutants = _by_id(results)
    hunk = "revert:src/consolidation/message_passes.py:1"
    assert sorted(mutants) == ["revert:all", hunk], result.output
    killer = f"tests/consolidation/test_converter.py::{test_name}"
    assert mutants[hunk]["verdict"] == "killed" and killer in mutants[hunk]["killers"]
    assert (mutants[hunk]["path"], mutants[hunk]["scope"]) == ("swap", "is_thinking_block")
    assert killer in mutants["revert:all"]["killers"]
    assert (
        results["change_guard"]["about"][killer]
        == "V5 (R7-6): [text, redacted, tool_use] → [redacted, text, tool_use]."
    )
    assert result.exit_code == ExitCode.OK, result.output


def test_the_bridge_commit_adding_the_raw_lifecycle_and_the_replay_fix_is_guarded_by_b1_and_b3(tmp_path):
    """Seed 002 as a scratch history of a copy of the bridge target: the base commit writes every
    third-party reasoning as a summary and replays raw reasoning as the placeholder "tool call"; the
    head commit adds the raw lifecycle and the replay fix with their tests, B1 and B3."""
    project = embedded_target_copy(tmp_path / "project", "bridge")
    edits = {  # the head's code and tests, and what the base had instead
        "src/bridge/stream.py": (
            "kind = RawReasoning if self.semantics == RAW else SummaryReasoning",
            "kind = SummaryReasoning",
        ),
        "src/bridge/replay.py": (
            "reasoning_at.append((len(messages), _raw_text(item)))",
            'reasoning_at.append((len(messages), "tool call"))',
        ),
    }
    new_tests = {
        "tests/bridge/test_stream.py": "test_b1_raw_stream_uses_the_reasoning_text_lifecycle",
        "tests/bridge/test_replay.py": "test_b3_raw_reasoning_is_replayed_onto_the_tool_call_message",
    }
    heads = {name: (project / name).read_text(encoding="utf-8") for name in [*edits, *new_tests]}
    for name, (head, base) in edits.items():
        assert heads[name].count(head) == 1, name
        (project / name).write_text(heads[name].replace(head, base), encoding="utf-8")
    for name, test in new_tests.items():
        (project / name).write_text(_remove_test(heads[name], test), encoding="utf-8")
    identity = ("-c", "user.name=t", "-c", "user.email=t@example.com")
    git(project, "init", "-q", "-b", "main")
    git(project, *identity, "add", ".")
    git(project, *identity, "commit", "-q", "-m", "base: every third-party reasoning is a summary")
    base = git(project, "rev-parse", "HEAD").strip()
    for name, text in heads.items():
        (project / name).write_text(text, encoding="utf-8")
    git(project, *identity, "commit", "-q", "-am", "raw reasoning lifecycle and replay, with B1 and B3")

    result, results = _run(project, "--revert", base, "--markdown", str(tmp_path / "comment.md"))
    mutants = _by_id(results)
    b1 = f"tests/bridge/test_stream.py::{new_tests['tests/bridge/test_stream.py']}"
    b3 = f"tests/bridge/test_replay.py::{new_tests['tests/bridge/test_replay.py']}"
    stream_hunk, replay_hunk = "revert:src/bridge/stream.py:1", "revert:src/bridge/replay.py:1"
    assert sorted(mutants) == sorted(["revert:all", stream_hunk, replay_hunk]), result.output
    assert mutants[stream_hunk]["verdict"] == "killed" and b1 in mutants[stream_hunk]["killers"]
    assert mutants[replay_hunk]["verdict"] == "killed" and b3 in mutants[replay_hunk]["killers"]
    assert {b1, b3} <= set(mutants["revert:all"]["killers"])
    assert {b1, b3} <= set(results["change_guard"]["about"])
    comment = (tmp_path / "comment.md").read_text(encoding="utf-8")
    ab_table = comment[comment.index("##### A/B") : comment.index("<details>")]
    for test in (b1, b3):  # a row of its own, the name escaped as Markdown text
        row = f"| {test.replace('_', chr(92) + '_')} | {test.split('::')[1].removeprefix('test_').replace('_', ' ')} |"
        assert row in ab_table, ab_table
    assert result.exit_code == ExitCode.OK, result.output


@pytest.fixture(scope="module")
def reverted(tmp_path_factory) -> dict:
    """One `--revert` run of the fixture repository: results, reports, base and head, the pull request's patch."""
    root = tmp_path_factory.mktemp("revert")
    project = root / "project"
    base = make_revert_project(project)
    paths = {fmt: root / name for fmt, name in (("html", "report.html"), ("stryker", "stryker.json"))}
    arguments = ["run", "--project", str(project), "--json", str(root / "results.json"), "--revert", base]
    outcome = CliRunner().invoke(main, [*arguments, "--html", str(paths["html"]), "--stryker", str(paths["stryker"])])
    assert outcome.exit_code == ExitCode.EXPECTATION_FAILED, outcome.output
    diff = git(project, "diff", base, "HEAD", "--", "src/merging.py")
    return {
        "root": root,
        "results": document(root / "results.json"),
        "patch": diff[diff.index("@@") :],
        "head": git(project, "rev-parse", "HEAD").strip(),
        **paths,
    }


def test_the_html_report_shows_the_change_guard_and_the_ab_table_in_each_language(reverted, tmp_path):
    dom = BeautifulSoup(chromium(tmp_path, reverted["html"].as_uri(), "--dump-dom"), "html.parser")
    english, chinese = (dom.select_one(f"div.{lang} section.change-guard") for lang in ("en", "zh"))
    assert english.h2.text == "Change guard" and chinese.h2.text == "变更守护"
    ab_cells = [cell.text for cell in english.select("table.ab tr")[1].select("td")]
    assert ab_cells[:3] == ["S1", NEW_TEST, "A signed thought after another thought keeps its own signature."]
    assert ab_cells[3].startswith("failed: AssertionError") and ab_cells[4] == "passed"
    assert chinese.select("table.ab tr")[1].select("td")[3].text.startswith("失败：AssertionError")
    rows = {row.select("td")[0].text: row.select("td")[2].text for row in english.select("table")[0].select("tr")[1:]}
    assert rows == {GUARDED_HUNK: "killed", UNGUARDED_HUNK: "survived", "revert:all": "killed"}
    assert COMMENT_HUNK in english.select_one("details summary").text
    # the whole change's span is its file's whole text: it is marked beside the file's name, on none of its lines
    whole = dom.select("details.source summary a.mark")
    assert [mark.code.text for mark in whole] == ["revert:all"]
    assert not dom.select(f'table.source a.mark[href="{whole[0]["href"]}"]')


def test_the_stryker_report_validates_and_each_hunks_replacement_gives_its_reverted_file(reverted):
    report = json.loads(reverted["stryker"].read_text(encoding="utf-8"))
    jsonschema.Draft7Validator(stryker_schema()).validate(report)
    file = report["files"]["src/merging.py"]
    diffs = {mutant["id"]: mutant["diff"] for mutant in reverted["results"]["mutants"]}
    assert {mutant["id"] for mutant in file["mutants"]} == set(diffs)
    for mutant in file["mutants"]:
        mutated = at_location(file["source"], mutant["location"], mutant["replacement"])
        assert patched(file["source"], diffs[mutant["id"]]) == mutated, mutant["id"]
        assert mutant["mutatorName"] == "change-guard"


def test_inline_the_unguarded_hunk_is_posted_on_its_line_with_its_diff_and_nothing_else(reverted, fake):
    fake.head_sha = reverted["head"]
    fake.files = [{"filename": "src/merging.py", "patch": reverted["patch"]}]
    client = github.connect("token", fake.base, retries=3, backoff=0.01, throttle=False)
    publish(typed(reverted["results"]), f"{OWNER}/{NAME}", NUMBER, "token", fake.base, None, None, True, client=client)
    (comment,) = fake.review_comments
    assert (comment["path"], comment["line"]) == ("src/merging.py", 15)
    assert comment["body"].startswith(f"<!-- mutcheck:inline {quote(UNGUARDED_HUNK, safe='')} -->")
    # the diff as the pull request made the change, base → head: the head's line is the added one
    assert '+    return call.get("name") is not None and call.get("id") is not None' in comment["body"]
    assert "this change is not guarded by any test" in comment["body"] and "这处改动没有任何测试守护" in comment["body"]


def test_shards_of_a_revert_run_merge_into_the_unsharded_change_guard(reverted, tmp_path):
    project = reverted["root"] / "project"
    base = reverted["results"]["change_guard"]["base"]
    paths = []
    for index in (1, 2):
        path = tmp_path / f"shard{index}.json"
        arguments = ["run", "--project", str(project), "--revert", base, "--shard", f"{index}/2", "--json", str(path)]
        CliRunner().invoke(main, arguments)
        paths.append(str(path))
    merged_path = tmp_path / "merged.json"
    result = CliRunner().invoke(main, ["merge", *paths, "-o", str(merged_path)])
    assert result.exit_code == ExitCode.EXPECTATION_FAILED, result.output  # the unguarded hunk, as unsharded
    merged, whole = document(merged_path), reverted["results"]
    assert merged["change_guard"] == whole["change_guard"]
    assert [(m["id"], m["verdict"]) for m in merged["mutants"]] == [(m["id"], m["verdict"]) for m in whole["mutants"]]
    shards = [document(Path(path)) for path in paths]
    assert sorted(len(shard["change_guard"]["about"]) for shard in shards) == [0, 1]  # the A/B rows come from one


def test_the_whole_change_across_files_runs_in_a_copy_with_every_file_reverted_and_a_new_one_removed(tmp_path):
    project = tmp_path / "project"
    base = make_history(
        project,
        {
            "src/signatures.py": "def first(parts):\n    return parts[0]\n",
            "src/calls.py": "def named(call):\n    return bool(call)\n",
        },
        {
            "src/signatures.py": "def first(parts):\n    return parts[-1]\n",
            "src/calls.py": "def named(call):\n    return 'name' in call\n",
            "src/episodes.py": "EPISODE = 'episode'\n",
            "tests/test_change.py": "from calls import named\nfrom signatures import first\n\n\n"
            "def test_last_signature():\n    assert first([1, 2]) == 2\n\n\n"
            "def test_named_call():\n    assert not named({'id': 1})\n\n\n"
            "def test_episodes_module():\n    from episodes import EPISODE\n\n    assert EPISODE == 'episode'\n",
        },
        commit_head=False,
    )
    result, results = _run(project, "--revert", base)
    mutants = _by_id(results)
    assert sorted(mutants) == [
        "revert:all",
        "revert:src/calls.py:1",
        "revert:src/episodes.py:1",
        "revert:src/signatures.py:1",
    ], result.output
    whole = mutants["revert:all"]
    assert (whole["path"], whole["verdict"]) == ("fallback", "killed")
    assert whole["killers"] == [
        "tests/test_change.py::test_last_signature",
        "tests/test_change.py::test_named_call",
        "tests/test_change.py::test_episodes_module",
    ]
    removed = mutants["revert:src/episodes.py:1"]
    assert (removed["path"], removed["killers"]) == ("fallback", ["tests/test_change.py::test_episodes_module"])
    assert mutants["revert:src/calls.py:1"]["killers"] == ["tests/test_change.py::test_named_call"]
    assert results["change_guard"]["files"] == ["src/calls.py", "src/episodes.py", "src/signatures.py"]
    assert result.exit_code == ExitCode.OK, result.output
    # The project itself is untouched: every revert ran in a copy.
    assert (project / "src" / "signatures.py").read_text(encoding="utf-8").endswith("parts[-1]\n")
    assert (project / "src" / "episodes.py").read_text(encoding="utf-8") == "EPISODE = 'episode'\n"


def test_no_change_is_said_so_and_a_failed_baseline_shows_no_change_guard(tmp_path):
    project = tmp_path / "project"
    make_revert_project(project)
    result, results = _run(project, "--revert", "HEAD")
    assert results["mutants"] == [] and results["change_guard"]["files"] == []
    assert "Change guard: The target files have no change since HEAD (merge base" in result.output
    assert result.exit_code == ExitCode.OK, result.output
    tests = project / "tests" / "test_merging.py"
    tests.write_text(tests.read_text(encoding="utf-8") + "\n\ndef test_broken():\n    assert False\n", encoding="utf-8")
    (project / "src" / "merging.py").write_text("X = 1\n", encoding="utf-8")
    result, results = _run(project, "--revert", "HEAD")
    assert results["change_guard"]["files"] == ["src/merging.py"]
    assert result.exit_code == ExitCode.BASELINE_FAILED
    assert "Change guard" not in result.output and "#### Change guard" not in render_markdown(typed(results))


def test_a_new_module_of_a_package_is_really_gone_and_tests_that_cannot_import_the_change_guard_it(tmp_path):
    """Removed from the copy, a package's new module must not be found in the checkout through
    the package's path; and a test that imports what the change added cannot even load without
    it, which guards the change."""
    base = make_history(
        tmp_path / "project",
        {"src/pkg/__init__.py": "", "src/pkg/parts.py": "def first(parts):\n    return parts[0]\n"},
        {
            "src/pkg/episodes.py": "def count(parts):\n    return len(parts)\n",
            "src/pkg/parts.py": "def first(parts):\n    return parts[0]\n\n\ndef last(parts):\n    return parts[-1]\n",
            "tests/test_pkg.py": "from pkg.episodes import count\nfrom pkg.parts import last\n\n\n"
            "def test_count():\n    assert count([1]) == 1\n\n\ndef test_last():\n    assert last([1, 2]) == 2\n",
        },
        commit_head=False,
    )
    result, results = _run(tmp_path / "project", "--revert", base)
    mutants = _by_id(results)
    module, function = mutants["revert:src/pkg/episodes.py:1"], mutants["revert:src/pkg/parts.py:1"]
    assert (module["verdict"], module["path"]) == ("broken", "fallback"), result.output
    assert "No module named 'pkg.episodes'" in module["broken"]
    assert function["verdict"] == "broken" and "cannot import name 'last'" in function["broken"]
    assert all(mutant["expectation_met"] for mutant in mutants.values()), result.output
    assert result.exit_code == ExitCode.OK
    english, chinese = split_languages(render_markdown(typed(results)))
    assert "source the head's tests cannot load: tests/test\\_pkg.py: ModuleNotFoundError" in english
    assert "head 的测试无法加载" in chinese
    assert "the tests cannot load with it reverted: " in english


def test_a_setters_revert_is_swapped_into_the_setter_and_killed_by_the_test_of_the_setter(tmp_path):
    """The getter and the setter share Python's qualified name; the swap finds the setter by its code."""
    before = "class Box:\n    @property\n    def x(self):\n        return self._x\n\n"
    before += "    @x.setter\n    def x(self, value):\n        self._x = value\n"
    base = make_history(
        tmp_path / "project",
        {"src/box.py": before, "tests/test_box.py": "def test_nothing():\n    pass\n"},
        {
            "src/box.py": before.replace("self._x = value", "self._x = abs(value)"),
            "tests/test_box.py": "from box import Box\n\n\ndef test_setter_keeps_magnitude():\n"
            "    box = Box()\n    box.x = -5\n    assert box.x == 5\n",
        },
        commit_head=False,
    )
    result, results = _run(tmp_path / "project", "--revert", base)
    setter = _by_id(results)["revert:src/box.py:1"]
    assert (setter["path"], setter["verdict"]) == ("swap", "killed"), result.output
    assert setter["killers"] == ["tests/test_box.py::test_setter_keeps_magnitude"]


def test_a_change_with_thousands_of_skipped_hunks_still_fits_one_comment(reverted):
    results = copy.deepcopy(reverted["results"])
    (skipped,) = results["change_guard"]["skipped"]
    results["change_guard"]["skipped"] = [
        {**skipped, "id": f"revert:src/merging.py:{number}", "diff": skipped["diff"] * 3} for number in range(4000)
    ]
    body = render_markdown(typed(results))
    english, chinese = split_languages(body)
    assert len(body) <= COMMENT_LIMIT
    assert "#### Change guard" in english and "##### A/B" in english and "#### 变更守护" in chinese
    assert f"| {UNGUARDED_HUNK} |" in english  # the revert mutants stay; the skipped list is cut
    assert "revert:src/merging.py:3999" not in body and "more rows are not shown here" in english
