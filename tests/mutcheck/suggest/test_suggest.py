"""`mutcheck suggest` for real: proposals run through the engine on a fixture project and on the
embedded target, the entries it writes, and that `check` and `run` accept them."""

import ast
import json
import shutil
import subprocess
import textwrap
import tomllib
from pathlib import Path

import pytest
import tomlkit

from mutcheck.catalog.catalog import load_catalog
from mutcheck.catalog.config import load_config
from mutcheck.mutation.mutate import apply_mutant
from mutcheck.suggest.operators import propose
from mutcheck.suggest.suggest import applied_proposals, edit_of
from tests.mutcheck.cli_runs import mutcheck
from tests.mutcheck.engine_project import families, pyproject
from tests.mutcheck.paths import REPOSITORY

SOURCE = '''\
"""Suggest fixture target."""


def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value


def first_word(words, skip_blank):
    for word in words:
        if skip_blank and not word.strip():
            continue
        return word
    return None


def unused(flag):
    if flag:
        return 1
    return 0


def count_words(words, counts, skip_short):
    for word in words:
        if word.isalpha() and word.lower() == word and len(word) > 1 and not skip_short:
            counts[word] = counts.get(word, 0) + 1
        if word == "":
            continue
    if not counts:
        return None
'''

TESTS = """\
from tiny import clamp, count_words, first_word


def test_clamp_low():
    assert clamp(-1, 0, 10) == 0


def test_clamp_high():
    assert clamp(11, 0, 10) == 10


def test_clamp_inside():
    assert clamp(5, 0, 10) == 5


def test_first_word_skips_blanks():
    assert first_word([" ", "a"], True) == "a"


def test_count_words():
    counts = {}
    count_words(["ab", "ab", "X", "", "a"], counts, False)
    assert counts == {"ab": 2}
"""

# Already catalogued: the same edit as a suggestion (`value > high` -> `value >= high`), a known gap.
CATALOG = """\
[[mutant]]
id = "HIGH-INCLUSIVE"
family = "boundary"
file = "src/tiny.py"
scope = "clamp"
match = "value   >   high"
replace = "value >= high"
survives = { en = "clamp(10, 0, 10) is not tested", zh = "没有测试 clamp(10, 0, 10)" }
origin = "fixture"
title = { en = "high bound inclusive", zh = "上界包含" }
why = { en = "why", zh = "原因" }
"""


def make_project(root: Path) -> Path:
    files = {
        "pyproject.toml": pyproject("suggest-fixture", timeout_constant=1.0),
        "src/tiny.py": SOURCE,
        "tests/test_tiny.py": TESTS,
        "mutants/families.toml": families("boundary", "boundary conditions", "边界条件"),
        "mutants/catalog.toml": CATALOG,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def entries(path: Path) -> dict[str, dict]:
    return {table["id"]: table for table in tomllib.loads(path.read_text(encoding="utf-8"))["mutant"]}


def row(stdout: str, operator: str) -> list[int]:
    """The counts of one operator's row of the summary table."""
    line = next(line for line in stdout.splitlines() if line.split()[:1] == [operator])
    return [int(count) for count in line.split()[1:]]


@pytest.fixture(scope="module")
def suggested(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    project = make_project(tmp_path_factory.mktemp("suggest"))
    return project, mutcheck(project, "suggest", "src/tiny.py", "--all")


def test_suggest_writes_entries_with_the_observed_expectations(suggested):
    project, done = suggested
    assert done.returncode == 0, done.stderr
    written = entries(project / "mutants/suggested_tiny.toml")
    results_path = project / "results.json"
    run = mutcheck(project, "run", "--json", str(results_path))
    results = json.loads(results_path.read_text(encoding="utf-8"))
    gaps = sorted(mutant_id for mutant_id, table in written.items() if "survives" in table)
    assert gaps and all(written[gap]["reviewed"] is False for gap in gaps)
    # every written expectation holds, but no gap is accepted on the user's behalf
    assert run.returncode == 1, run.stdout + run.stderr
    unmet = {m["id"]: [p["kind"] for p in m["problems"]] for m in results["mutants"] if not m["expectation_met"]}
    assert unmet == {gap: ["unreviewed-gap"] for gap in gaps}
    assert results["summary"]["unreviewed_gaps"] == len(gaps)
    assert f"{len(gaps)} unreviewed {'gap' if len(gaps) == 1 else 'gaps'}" in run.stdout
    assert "mutcheck accept " + " ".join(m["id"] for m in results["mutants"] if m["id"] in gaps) in run.stdout
    tests = results["tests"]
    observed = {
        mutant["id"]: sorted(tests[int(i)] for i, outcome in mutant["outcomes"].items() if outcome == "failed")
        for mutant in results["mutants"]
    }
    for mutant_id, table in written.items():
        if "killed_by" in table:  # this project's mutants each have at most three killers: all are listed
            assert sorted(table["killed_by"]) == observed[mutant_id], mutant_id
        else:
            assert observed[mutant_id] == [], mutant_id
    dropped = [t for t in written.values() if t["match"] == "skip_blank and not word.strip()"]
    assert {t["replace"]: "survives" in t for t in dropped if t["family"] == "drop-operand"} == {
        "not word.strip()": True,  # no test passes skip_blank=False
        "skip_blank": False,
    }
    survivor = next(t for t in dropped if t["replace"] == "not word.strip()")
    assert survivor["origin"] == "mutcheck suggest: refine title and why"
    assert survivor["title"] == {
        "en": "`skip_blank and not word.strip()` cut to `not word.strip()`",
        "zh": "`skip_blank and not word.strip()` 删去一项，只剩 `not word.strip()`",
    }


def test_the_written_texts_read_as_sentences_and_show_what_an_edit_changes(suggested):
    project, _ = suggested
    written = entries(project / "mutants/suggested_tiny.toml")
    condition = "word.isalpha() and word.lower() == word and len(word) > 1 and not skip_short"
    dropped = next(
        t
        for t in written.values()
        if t["match"] == condition and t.get("replace") == condition[: -len(" and not skip_short")]
    )
    assert dropped["title"] == {
        "en": "`…word and len(word) > 1 and not skip_short` cut to `…word and len(word) > 1`",
        "zh": "`…word and len(word) > 1 and not skip_short` 删去一项，只剩 `…word and len(word) > 1`",
    }
    assert dropped["why"]["en"] == (
        "The condition now checks only `…word and len(word) > 1`: the part dropped from "
        "`…word and len(word) > 1 and not skip_short` no longer counts."
    )
    assert dropped["hint"]["en"] == (
        "Pass an input for which only the part dropped from `…word and len(word) > 1 and not "
        "skip_short` decides the condition, and assert the outcome."
    )
    assert dropped["survives"]["en"] == (
        "found by mutcheck suggest: the tests that run `word.isalpha() and word.lower() == word and len(word) > 1…` "
        "pass with this edit too, so none of them checks what it changes. Add a test that fails with it (then "
        "list that test in killed_by instead), or write here why the change cannot matter."
    )
    assert dropped["survives"]["zh"].startswith("由 mutcheck suggest 发现：运行 `word.isalpha() and")


def test_an_edit_that_changes_nothing_is_counted_and_not_written(suggested):
    project, done = suggested
    written = entries(project / "mutants/suggested_tiny.toml")
    # `if word == "": continue` ends the loop's body, `if not counts: return None` the function's
    # (an edit of the loop's header may quote the whole loop: only edits that change the guards count)
    changed = [t for t in written.values() if (t.get("replace") or "").count("word ==") < t["match"].count("word ==")]
    assert not [t for t in changed if t["scope"] == "count_words"]
    assert not [
        t for t in written.values() if "not counts" in t["match"] and "not counts" not in (t.get("replace") or "")
    ]
    assert [t for t in written.values() if t["scope"] == "count_words"]  # the rest of it is written
    assert row(done.stdout, "delete-guard")[6] == 2  # suggested, killed, survived, unreached, catalogued, arid, *no-op*
    assert row(done.stdout, "unwrap-guard")[6] == 2


def test_a_catalogued_edit_and_unreached_code_are_not_written(suggested):
    project, done = suggested
    written = entries(project / "mutants/suggested_tiny.toml")
    assert not [t for t in written.values() if t["match"] == "value > high" and t.get("replace") == "value >= high"]
    assert row(done.stdout, "flip-comparison")[4] == 1  # suggested, killed, survived, unreached, *catalogued*
    assert not [t for t in written.values() if t["scope"] == "unused"]
    assert "not suggested, no test runs it: unused line 21: guard `if flag: return 1` deleted" in done.stdout
    assert row(done.stdout, "total")[3] > 0


def test_the_families_are_declared_and_the_catalog_checks(suggested):
    project, done = suggested
    written = entries(project / "mutants/suggested_tiny.toml")
    declared = tomllib.loads((project / "mutants/families.toml").read_text(encoding="utf-8"))["family"]
    assert {t["family"] for t in written.values()} <= set(declared)
    assert declared["drop-operand"] == {
        "en": "operands dropped from conditions (suggested)",
        "zh": "条件中删去一项（建议）",
    }
    assert "added the families" in done.stdout
    check = mutcheck(project, "check")
    assert check.returncode == 0, check.stderr


def test_a_second_run_keeps_the_ids_and_what_the_user_wrote(tmp_path):
    project = make_project(tmp_path)
    first = mutcheck(project, "suggest", "src/tiny.py::first_word")
    assert first.returncode == 0, first.stderr
    out = project / "mutants/suggested_tiny.toml"
    before = entries(out)
    assert before and {t["scope"] for t in before.values()} == {"first_word"}
    refined = next(iter(before))
    text = out.read_text(encoding="utf-8")
    start = text.index(f'id = "{refined}"')
    title_at = text.index("title = ", start)
    title_end = text.index("\n", title_at)
    out.write_text(
        text[:title_at] + 'title = { en = "my title", zh = "我的标题" }' + text[title_end:], encoding="utf-8"
    )
    second = mutcheck(project, "suggest", "src/tiny.py::first_word")
    assert second.returncode == 0, second.stderr
    after = entries(out)
    assert list(after) == list(before)
    assert after[refined]["title"] == {"en": "my title", "zh": "我的标题"}
    assert all(after[i]["title"] == before[i]["title"] for i in after if i != refined)
    clamp = mutcheck(project, "suggest", "src/tiny.py::clamp")  # another scope: the first's entries stay
    assert clamp.returncode == 0, clamp.stderr
    assert set(before) < set(entries(out))
    assert f"kept {len(before)} entries of mutants/suggested_tiny.toml" in clamp.stdout


def test_twin_functions_in_two_files_get_ids_of_their_own_and_the_catalog_still_loads(tmp_path):
    """A sync module and its async twin hold functions of one name and one body: suggesting for
    the second file must not reuse the first file's ids, or the catalog no longer loads."""
    project = make_project(tmp_path)
    (project / "src/twin.py").write_text(SOURCE, encoding="utf-8")
    (project / "tests/test_twin.py").write_text(TESTS.replace("from tiny import", "from twin import"), "utf-8")
    first = mutcheck(project, "suggest", "src/tiny.py::clamp")
    second = mutcheck(project, "suggest", "src/twin.py::clamp")
    assert (first.returncode, second.returncode) == (0, 0), second.stderr
    tiny, twin = entries(project / "mutants/suggested_tiny.toml"), entries(project / "mutants/suggested_twin.toml")
    assert {t["match"] for t in twin.values()} & {t["match"] for t in tiny.values()}  # the same edits
    assert not set(tiny) & set(twin)
    assert mutcheck(project, "check").returncode == 0
    again = mutcheck(project, "suggest", "src/twin.py::clamp")  # a rerun finds its own ids again
    assert again.returncode == 0, again.stderr
    assert set(entries(project / "mutants/suggested_twin.toml")) == set(twin)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["src/missing.py"], "error: src/missing.py: no such file"),
        (["src/tiny.py::nope"], "error: src/tiny.py: nope: scope: no function or class of that name (known: clamp"),
        (["../outside.py"], "error: FILE: ../outside.py: leads outside the project"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    project = make_project(tmp_path / "project")
    done = mutcheck(project, "suggest", *args)
    assert done.returncode == 2
    assert done.stderr.startswith(message), done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_the_hand_written_edits_of_dangling_py_are_among_the_suggestions():
    config = load_config(REPOSITORY)
    file = "src/consolidation/dangling.py"
    catalog = load_catalog(config.catalog_dir, REPOSITORY, config.languages)
    hand_written = {edit_of(apply_mutant(m, REPOSITORY)): m.id for m in catalog.mutants if m.file == file}
    text = (REPOSITORY / file).read_text(encoding="utf-8")
    suggested = {edit_of(applied) for _, applied in applied_proposals(config, file, "-", propose(text)) if applied}
    found = {mutant_id for edit, mutant_id in hand_written.items() if edit in suggested}
    # G14 rewrites the guard as a loop over every index: no operator proposes a new algorithm
    assert found == set(hand_written.values()) - {"G14"} == {"G12", "G15", "G16", "G17"}


@pytest.mark.parametrize("file", ["src/consolidation/episodes.py", "src/consolidation/converter.py"])
def test_two_edits_are_the_same_exactly_when_their_mutated_files_parse_the_same(file):
    config = load_config(REPOSITORY)
    catalog = load_catalog(config.catalog_dir, REPOSITORY, config.languages)
    applied = [apply_mutant(m, REPOSITORY) for m in catalog.mutants if m.file == file]
    text = (REPOSITORY / file).read_text(encoding="utf-8")
    applied += [a for _, a in applied_proposals(config, file, "-", propose(text)) if a]
    by_key, by_tree = {}, {}
    for mutant in applied:
        by_key.setdefault(edit_of(mutant), set()).add(mutant.mutant.id)
        by_tree.setdefault(ast.dump(ast.parse(mutant.mutated)), set()).add(mutant.mutant.id)
    assert sorted(map(sorted, by_key.values())) == sorted(map(sorted, by_tree.values()))
    assert len(by_tree) < len(applied)  # some edits are the same: the comparison has something to find


def test_suggest_on_the_embedded_target_skips_what_the_catalog_has(tmp_path):
    for folder in ("src/consolidation", "tests/consolidation", "mutants"):
        shutil.copytree(REPOSITORY / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("__init__.py", "conftest.py"):
        shutil.copy(REPOSITORY / "tests" / name, tmp_path / "tests" / name)
    (tmp_path / "pyproject.toml").write_text(
        textwrap.dedent("""\
        [tool.pytest.ini_options]
        pythonpath = ["src"]

        [tool.mutcheck]
        target = ["src/consolidation"]
        tests = ["tests/consolidation"]
        """),
        encoding="utf-8",
    )
    done = mutcheck(tmp_path, "suggest", "src/consolidation/dangling.py", "--all")
    assert done.returncode == 0, done.stdout + done.stderr
    assert row(done.stdout, "total")[4] == 4  # G12, G15, G16, G17: the same edits, compared by syntax tree
    assert mutcheck(tmp_path, "check").returncode == 0


def test_a_failing_baseline_is_exit_3_naming_the_test_and_writes_nothing(tmp_path):
    project = make_project(tmp_path)
    (project / "tests/test_tiny.py").write_text(TESTS + "\n\ndef test_broken():\n    assert False\n", encoding="utf-8")
    done = mutcheck(project, "suggest", "src/tiny.py")
    assert done.returncode == 3
    assert "baseline failed: tests/test_tiny.py::test_broken" in done.stdout
    assert not (project / "mutants/suggested_tiny.toml").exists()


def test_nothing_proposed_writes_no_file_and_says_so(tmp_path):
    project = make_project(tmp_path)
    before = (project / "mutants/families.toml").read_bytes()
    done = mutcheck(project, "suggest", "src/tiny.py::unused")  # no test runs it: every proposal unreached
    assert done.returncode == 0, done.stderr
    assert (
        "nothing to write: no suggestion here was killed or survived, so mutants/suggested_tiny.toml was not made"
        in (done.stdout)
    )
    assert not (project / "mutants/suggested_tiny.toml").exists()
    assert (project / "mutants/families.toml").read_bytes() == before


def test_a_folder_and_several_files_are_suggested_in_one_run_each_into_its_own_catalog_file(tmp_path):
    project = make_project(tmp_path)
    (project / "src/other.py").write_text("def sign(x):\n    if x < 0:\n        return -1\n    return 1\n")
    (project / "tests/test_other.py").write_text(
        "from other import sign\n\n\ndef test_sign():\n    assert sign(-2) == -1\n"
    )
    done = mutcheck(project, "suggest", "src")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("baseline round 1/1 done") == 1  # one engine run for both files
    for stem in ("other", "tiny"):
        assert f"src/{stem}.py" in done.stdout
        written = entries(project / f"mutants/suggested_{stem}.toml")
        assert written and {table["file"] for table in written.values()} == {f"src/{stem}.py"}
    assert mutcheck(project, "check").returncode == 0
    refused = mutcheck(project, "suggest", "src/tiny.py", "src/other.py", "--out", "mutants/mine.toml")
    assert refused.returncode == 2
    assert refused.stderr == (
        "error: --out: mutants/mine.toml: names one catalog file, and 2 files were given: leave --out out, "
        "or give one FILE\n"
    )
    empty = mutcheck(project, "suggest", "tests")  # no target holds it
    assert empty.returncode == 2 and "tests: holds no Python file of a target of the project" in empty.stderr


def test_out_refuses_a_file_suggest_does_not_own_and_changes_nothing(tmp_path):
    project = make_project(tmp_path / "project")
    commented = project / "mutants" / "suggested_mine.toml"
    commented.write_text("# my notes\n" + CATALOG.replace('origin = "fixture"', 'origin = "mutcheck suggest"'))
    cases = {
        "pyproject.toml": "tables or keys other than [[mutant]] (project, tool)",
        "mutants/catalog.toml": "entries `mutcheck suggest` did not write",
        "mutants/suggested_mine.toml": "comments",
    }
    for out, held in cases.items():
        before = (project / out).read_bytes()
        done = mutcheck(project, "suggest", "src/tiny.py::clamp", "--out", out)
        assert done.returncode == 2, done.stdout
        assert done.stderr == f"error: --out: {out}: holds {held}, which rewriting it would lose: " + (
            "name a new file, or one suggest wrote\n"
        )
        assert (project / out).read_bytes() == before


def test_out_may_name_a_file_outside_the_project_and_a_rerun_rewrites_it(tmp_path):
    project = make_project(tmp_path / "project")
    before = {path: path.read_bytes() for path in project.rglob("*") if path.is_file()}
    for _ in range(2):  # the second run rewrites the file the first wrote
        done = mutcheck(project, "suggest", "src/tiny.py::clamp", "--out", "../elsewhere.toml")
        assert done.returncode == 0, done.stderr
    written = entries(tmp_path / "elsewhere.toml")
    assert written and {entry["file"] for entry in written.values()} == {"src/tiny.py"}
    assert "are not in mutants/families.toml: add them there before these entries join the catalog" in done.stdout
    assert {path: path.read_bytes() for path in project.rglob("*") if path.is_file()} == before  # untouched


@pytest.mark.parametrize(
    ("link", "args", "message"),
    [
        ("mutants/suggested_tiny.toml", [], "error: mutants/suggested_tiny.toml: leads outside the project"),
        ("mutants/families.toml", [], "error: mutants/families.toml: leads outside the project"),
        ("mutants/mine.toml", ["--out", "mutants/mine.toml"], "error: --out: mutants/mine.toml: leads outside"),
    ],
)
def test_no_file_is_written_through_a_link_out_of_the_project(tmp_path, link, args, message):
    project = make_project(tmp_path / "project")
    outside = tmp_path / "outside.toml"
    outside.write_text("# someone else's file\n", encoding="utf-8")
    (project / link).unlink(missing_ok=True)
    (project / link).symlink_to(outside)
    done = mutcheck(project, "suggest", "src/tiny.py::clamp", *args)
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith(message) and len(done.stderr.splitlines()) == 1, done.stderr
    assert outside.read_text(encoding="utf-8") == "# someone else's file\n"


def test_a_second_run_keeps_every_field_a_person_wrote(tmp_path):
    project = make_project(tmp_path)
    first = mutcheck(project, "suggest", "src/tiny.py::first_word", "--all")
    assert first.returncode == 0, first.stderr
    out = project / "mutants/suggested_tiny.toml"
    assert out.read_text(encoding="utf-8").startswith("# Written by `mutcheck suggest`")
    before = entries(out)
    gap = next(i for i, table in before.items() if "survives" in table)
    killed, proved = [i for i, table in before.items() if "killed_by" in table][:2]
    document = tomlkit.parse(out.read_text(encoding="utf-8"))
    tables = {table["id"]: table for table in document["mutant"]}
    tables[gap]["survives"] = {"en": "blank words never reach it today", "zh": "目前空白词不会到达这里"}
    tables[gap]["tracked"] = "#12"
    tables[gap]["reviewed"] = True
    tables[killed]["aliases"] = ["FIRST-GUARD"]
    del tables[proved]["killed_by"]
    tables[proved]["equivalent"] = {"en": "my proof", "zh": "我的证明"}
    out.write_text(tomlkit.dumps(document), encoding="utf-8")
    second = mutcheck(project, "suggest", "src/tiny.py::first_word", "--all")
    assert second.returncode == 0, second.stderr
    after = entries(out)
    assert after[gap]["survives"] == {"en": "blank words never reach it today", "zh": "目前空白词不会到达这里"}
    assert (after[gap]["tracked"], after[gap]["reviewed"]) == ("#12", True)
    assert after[killed]["aliases"] == ["FIRST-GUARD"] and after[killed]["killed_by"] == before[killed]["killed_by"]
    assert after[proved]["equivalent"] == {"en": "my proof", "zh": "我的证明"} and "killed_by" not in after[proved]
