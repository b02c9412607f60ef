"""`mutcheck harden` on a fixture project: every test it writes fails with its mutant applied by hand
and passes without it, under plain pytest; the cases it refuses say why in one line."""

import ast
import dataclasses
import datetime
import enum
import json
import os
import subprocess
import sys
import threading
import tomllib
from collections import namedtuple
from pathlib import Path

import pytest

from mutcheck.catalog.catalog import Mutant
from mutcheck.harden.lines_run import lines_run
from mutcheck.harden.tests_file import HEADER
from mutcheck.harden.values import Unwritable, checked_tree, format_tree, namespace, tree_of
from mutcheck.harden.variations import novel, variations
from mutcheck.harden.wire import Located
from mutcheck.harden.witness import Witness
from mutcheck.harden.witness_source import write_test
from mutcheck.report.markdown import render_inline_finding
from mutcheck.results.results import load_results
from tests.mutcheck.cli_runs import mutcheck
from tests.mutcheck.engine_project import families
from tests.mutcheck.harden.harden_project import MUTANTS, SOURCE, TESTS, gap_entry, make_harden_project


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    entries = "".join(gap_entry(mutant_id, *edit) for mutant_id, edit in MUTANTS.items())
    return make_harden_project(tmp_path_factory.mktemp("harden") / "project", entries)


def _lines(output: str) -> dict[str, str]:
    """Each mutant's line of harden's output, by id."""
    found = {}
    for line in output.splitlines():
        status, _, rest = line.partition(": ")
        if status in ("hardened", "gave-up", "equivalent-in-practice", "not-a-survivor"):
            found[rest.split()[0]] = line
    return found


def _plain_pytest(root: Path, test: str) -> int:
    return subprocess.run(
        [sys.executable, "-m", "pytest", test, "-q", "-p", "no:cacheprovider"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    ).returncode


def test_harden_writes_proven_tests_refuses_the_rest_and_updates_the_catalog(project: Path) -> None:
    results = project.parent / "results.json"
    assert mutcheck(project, "run", "--fresh", "--json", str(results)).returncode == 0
    first = mutcheck(
        project, "harden", "M-STATE", "--out", "tests/test_guards.py", "--update-catalog", "--results", str(results)
    )
    assert first.returncode == 0, first.stdout + first.stderr
    assert _lines(first.stdout)["M-STATE"] == (
        "hardened: M-STATE  by tests/test_guards.py::test_kills_m_state (a recorded call: self differs)"
    )
    # The results document carries the proven test; the review comment offers it, fenced.
    entry = next(mutant for mutant in json.loads(results.read_text())["mutants"] if mutant["id"] == "M-STATE")
    assert entry["hardened"]["test"] == "tests/test_guards.py::test_kills_m_state"
    assert entry["hardened"]["source"].startswith("from histories import Tracker\n\n\ndef test_kills_m_state():")
    comment = mutcheck(project, "report", str(results), "--format", "markdown").stdout
    assert "proven by mutcheck harden" in comment and "证明" in comment
    assert "    ```python\n    from histories import Tracker\n" in comment
    inline = render_inline_finding(load_results(results), "M-STATE")
    assert "```python\nfrom histories import Tracker\n\n\ndef test_kills_m_state():" in inline

    # A person edits the file harden wrote: a second run keeps every byte of it, and adds its own tests.
    guards = project / "tests" / "test_guards.py"
    guards.write_text(guards.read_text(encoding="utf-8") + PERSON, encoding="utf-8")

    # M-STATE is no gap any more: --all-survivors leaves it out, and the file keeps its test.
    done = mutcheck(project, "harden", "--all-survivors", "--out", "tests/test_guards.py", "--update-catalog")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = _lines(done.stdout)
    assert set(lines) == set(MUTANTS) - {"M-STATE"}, done.stdout
    # known from the code: said first, before any test runs
    assert done.stdout.splitlines()[0] == (
        "gave-up: M-DEFAULT  module-level code: there is no call of a function to record (known before any test ran)"
    )
    assert "(a variation of a recorded call: result differs)" in lines["M-DEDUPE"]
    assert lines["M-SKIP"] == (
        "hardened: M-SKIP  by tests/test_guards.py::test_kills_m_dedupe (a variation of a recorded call: "
        "result differs; the test written for another mutant checks the same)"
    )
    # a nested function, through the function around it; a call the original refuses, as pytest.raises
    assert "by tests/test_guards.py::test_kills_m_nested (a recorded call: result differs)" in lines["M-NESTED"]
    assert (
        "by tests/test_guards.py::test_kills_m_role (a variation of a recorded call: result, raised" in lines["M-ROLE"]
    )
    assert "by tests/test_guards.py::test_kills_m_merge (a variation of a recorded call: result" in lines["M-MERGE"]
    # a repeated message (it runs the merge) whose copy then loses its text type
    assert "by tests/test_guards.py::test_kills_m_turns (a recorded call with two changes: result" in lines["M-TURNS"]
    # a generator consumed, a coroutine run as its test ran it, another as its anyio-marked test
    assert "by tests/test_guards.py::test_kills_m_pairs (a variation of a recorded call: result" in lines["M-PAIRS"]
    assert "by tests/test_guards.py::test_kills_m_async (a variation of a recorded call: result" in lines["M-ASYNC"]
    assert "by tests/test_guards.py::test_kills_m_halved[asyncio] (a variation" in lines["M-HALVED"]
    # methods of a plain class: `self` made by a recorded constructor call, or changed since; a constructor
    assert lines["M-PUSH"] == (
        "hardened: M-PUSH  by tests/test_guards.py::test_kills_m_push (a recorded call: self differs)"
    )
    assert "by tests/test_guards.py::test_kills_m_recent (a variation of a recorded call: result" in lines["M-RECENT"]
    assert (
        "by tests/test_guards.py::test_kills_m_size (a variation of a recorded call: result, raised"
        in (lines["M-SIZE"])
    )
    # a property: the attribute read
    assert lines["M-FULL"] == (
        "hardened: M-FULL  by tests/test_guards.py::test_kills_m_full (a recorded call: result differs)"
    )
    assert lines["M-STAMP"].startswith("gave-up") and "non-deterministic" in lines["M-STAMP"]
    assert lines["M-LOCK"].startswith("gave-up")
    assert "cannot be written as source (arg0: a _thread.lock" in lines["M-LOCK"]
    # the original returns a path of the scratch copy: a test asserting it would fail where it lives
    assert lines["M-PATH"].startswith("gave-up: M-PATH  1 recorded calls, ")
    assert "it holds a path of the scratch copy or the checkout, or a memory address (3×)" in lines["M-PATH"]
    assert "hardened 13 of 17 survivors, 13 of the 16 whose tests call the mutated function; 0 equivalent" in (
        done.stdout
    )

    written = guards.read_text(encoding="utf-8")
    assert written.startswith(HEADER)
    assert PERSON.strip() in written  # a person's class, constant, decorator, async test and alias
    names = [node.name for node in ast.parse(written).body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    # the first run's test kept, the person's, then the second's added
    assert names == [
        "test_kills_m_state",
        "test_by_hand",
        "test_async_by_hand",
        "test_kills_m_dedupe",
        "test_kills_m_pairs",
        "test_kills_m_async",
        "test_kills_m_nested",
        "test_kills_m_role",
        "test_kills_m_merge",
        "test_kills_m_turns",
        "test_kills_m_push",
        "test_kills_m_recent",
        "test_kills_m_size",
        "test_kills_m_full",
        "test_kills_m_halved",
    ]
    assert '    with pytest.raises(ValueError, match=r"unknown role ' in written
    assert '    with pytest.raises(ValueError, match=r"size must be positive, not 0"):\n        Window(' in written
    assert "@pytest.mark.anyio\nasync def test_kills_m_halved():" in written
    assert "        await halved(-1)\n" in written
    assert "    result = asyncio.run(doubled(0))\n    assert result == -1\n" in written
    assert '    window.push("a")\n    assert window._messages == ["a"]\n' in written
    assert "    result = window.full\n    assert result is True\n" in written
    assert "/tmp" not in written and str(project) not in written

    # Each written test under plain pytest: passes on the original (all in one run), fails with its
    # mutant applied by hand.
    source = project / "src" / "histories.py"
    assert _plain_pytest(project, "tests/test_guards.py") == 0
    hardened = ["M-STATE", "M-DEDUPE", "M-SKIP", "M-NESTED", "M-ROLE", "M-MERGE", "M-TURNS", "M-PAIRS", "M-ASYNC"]
    for mutant_id in [*hardened, "M-PUSH", "M-RECENT", "M-SIZE", "M-FULL", "M-HALVED"]:
        name = "test_kills_" + ("m_dedupe" if mutant_id == "M-SKIP" else mutant_id.lower().replace("-", "_"))
        _scope, match, replacement = MUTANTS[mutant_id]
        mutated = SOURCE.replace(match, replacement or "pass", 1)
        assert mutated != SOURCE
        source.write_text(mutated, encoding="utf-8")
        try:
            assert _plain_pytest(project, f"tests/test_guards.py::{name}") == 1, mutant_id
        finally:
            source.write_text(SOURCE, encoding="utf-8")

    catalog = tomllib.loads((project / "mutants" / "histories.toml").read_text(encoding="utf-8"))
    entries = {entry["id"]: entry for entry in catalog["mutant"]}
    assert entries["M-STATE"]["killed_by"] == ["tests/test_guards.py::test_kills_m_state"]
    assert "survives" not in entries["M-STATE"] and "survives" in entries["M-STAMP"]
    run = mutcheck(project, "run", "--fresh")
    assert run.returncode == 0, run.stdout + run.stderr  # the catalog's new expectations hold


PERSON = """

import json as js

import pytest

LIMIT = 3  # a person's constant


class TestByHand:
    def test_limit(self):
        assert LIMIT == 3


@pytest.mark.parametrize("n", [1, 2])
def test_by_hand(n):
    assert js.loads(str(n)) == n


@pytest.mark.anyio
async def test_async_by_hand():
    assert LIMIT == 3
"""


def test_harden_refuses_a_file_it_did_not_write_and_unknown_ids(project: Path) -> None:
    tests = project / "tests" / "test_histories.py"
    foreign = mutcheck(project, "harden", "M-STATE", "--out", "tests/test_histories.py")
    assert foreign.returncode == 2
    assert foreign.stderr.strip().splitlines() == [
        "error: --out: tests/test_histories.py: holds code harden did not write, which it never rewrites: "
        "name a new file, or one harden wrote"
    ]
    assert tests.read_text(encoding="utf-8") == TESTS
    outside = mutcheck(project, "harden", "M-STATE", "--out", "test_outside.py", "--update-catalog")
    assert outside.returncode == 2
    assert outside.stderr.strip() == (
        "error: --out: test_outside.py: with --update-catalog, must be under the suite's tests "
        "(it names the test in the catalog): tests"
    )
    unknown = mutcheck(project, "harden", "M-NONE", "--out", "tests/test_new.py")
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == "error: harden: M-NONE: no mutant with this id or alias"
    assert not (project / "tests" / "test_new.py").exists()
    # refused before any test runs, and exit status 1: the survivor still needs a test a person writes
    refused = mutcheck(project, "harden", "M-DEFAULT", "--out", "tests/test_new.py")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert refused.stdout.splitlines() == [
        "gave-up: M-DEFAULT  module-level code: there is no call of a function to record (known before any test ran)",
        "hardened 0 of 1 survivors; 0 equivalent in practice, 1 gave up",
    ]
    assert not (project / "tests" / "test_new.py").exists()


TWO_TARGETS = """\
[project]
name = "harden-fixture"
version = "0"

[tool.pytest.ini_options]
pythonpath = ["src", "other"]

[tool.mutcheck]
jobs = 2
timeout_constant = 5.0

[tool.mutcheck.targets.histories]
target = ["src"]
tests = ["tests"]
catalog = "mutants"

[tool.mutcheck.targets.broken]
target = ["other"]
tests = ["other_tests"]
catalog = "other_mutants"
"""


def test_a_later_targets_failing_baseline_keeps_what_the_earlier_one_proved(tmp_path: Path) -> None:
    project = make_harden_project(tmp_path / "project", gap_entry("M-STATE", *MUTANTS["M-STATE"]))
    (project / "pyproject.toml").write_text(TWO_TARGETS, encoding="utf-8")
    width_gap = gap_entry("O-WIDTH", "width", "len(item)", "0").replace("src/histories.py", "other/shapes.py")
    for path, text in [
        ("other/shapes.py", "def width(item):\n    return len(item)\n"),
        (
            "other_tests/test_shapes.py",
            "from shapes import width\n\n\ndef test_width():\n    assert width('ab') == 3\n",
        ),
        ("other_mutants/families.toml", families("guard", "guards", "守护")),
        ("other_mutants/shapes.toml", width_gap),
    ]:
        (project / path).parent.mkdir(exist_ok=True)
        (project / path).write_text(text, encoding="utf-8")
    done = mutcheck(project, "harden", "M-STATE", "O-WIDTH", "--out", "tests/test_guards.py", "--update-catalog")
    assert done.returncode == 3, done.stdout + done.stderr  # the broken target's baseline fails
    assert "the suite of other_tests does not pass without any mutant: nothing to record" in done.stdout
    assert "other_tests/test_shapes.py::test_width" in done.stdout  # which test fails, named
    assert "hardened: M-STATE  by tests/test_guards.py::test_kills_m_state" in done.stdout
    assert "O-WIDTH" not in _lines(done.stdout)
    catalog = tomllib.loads((project / "mutants" / "histories.toml").read_text(encoding="utf-8"))
    assert catalog["mutant"][0]["killed_by"] == ["tests/test_guards.py::test_kills_m_state"]


class Colour(enum.Enum):
    RED = "red"


class Role(str, enum.Enum):  # noqa: UP042 - a str mixed in, as smolagents' MessageRole
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


@dataclasses.dataclass(frozen=True)
class Block:
    kind: str
    tags: frozenset = frozenset()


Pair = namedtuple("Pair", "left right")


@pytest.mark.parametrize(
    "value",
    [
        None,
        [1, 2.5, 'it\'s "quoted"', b"\x00", True],
        {"a": (1,), 2: {3, 1}},
        Colour.RED,
        [Role.USER, {"role": Role.ASSISTANT}],
        Block("text", frozenset({"a", "b"})),
        Pair(1, [2]),
        datetime.datetime(2026, 1, 2, 3, 4),
        float("inf"),
    ],
)
def test_written_values_build_the_value_again(value: object) -> None:
    imports: set[tuple[str, str]] = set()
    tree = checked_tree(value, imports)
    assert eval(format_tree(tree), namespace(imports)) == value


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (threading.Lock(), "a _thread.lock (not a literal, container, enum, dataclass or pydantic model)"),
        (float("nan"), "a NaN float (never equal to itself)"),
        (object(), "a builtins.object (not a literal, container, enum, dataclass or pydantic model)"),
    ],
)
def test_unwritable_values_are_refused_with_the_reason(value: object, reason: str) -> None:
    with pytest.raises(Unwritable, match=r"^" + __import__("re").escape(reason) + "$"):
        tree_of(value, set())


@dataclasses.dataclass(eq=False)
class ByIdentity:
    name: str


def test_a_value_that_is_not_equal_to_its_rebuilt_self_is_refused() -> None:
    with pytest.raises(Unwritable, match=r"^a ByIdentity built from its source is not == to it$"):
        checked_tree(ByIdentity("a"), set())


def test_a_cycle_is_refused() -> None:
    looped: list = []
    looped.append(looped)
    with pytest.raises(Unwritable, match="nested too deeply"):
        tree_of(looped, set())


def _call(*args: object) -> dict:
    return {"self": None, "args": [tree_of(arg, set()) for arg in args], "kwargs": {}, "imports": []}


def test_variations_add_items_and_keys_another_call_holds_at_the_same_place() -> None:
    texts = _call([{"type": "text", "text": "a"}], "gpt")
    image = _call([{"type": "image", "url": "u", "signature": "s"}], "gemini")
    sources = {
        tuple(format_tree(tree) for tree in variant["args"]) for variant in variations([texts, image], ["x"], [])
    }
    text, picture = '{"type": "text", "text": "a"}', '{"type": "image", "url": "u", "signature": "s"}'
    assert (f"[{text}, {picture}]", '"gpt"') in sources  # the other call's item, after and before
    assert (f"[{picture}, {text}]", '"gpt"') in sources
    assert ('[{"type": "text", "text": "a", "url": "u"}]', '"gpt"') in sources  # a key the other one has
    assert ('[{"type": "text", "text": "a", "signature": "s"}]', '"gpt"') in sources
    # only at the same place: the model's string never becomes a list item, nor an item a model
    assert not any('"gemini"' in first or "[" in second for first, second in sources)


def test_a_tuple_keeps_its_comma_when_one_item_is_left() -> None:
    sources = {format_tree(variant["args"][0]) for variant in variations([_call((1, 2))], [], [])}
    assert "(1,)" in sources and "(2,)" in sources and "(2, 1)" in sources
    assert all(isinstance(eval(source), tuple) for source in sources if source.startswith("("))
    assert "[1, 2]" in sources  # and the same items as a list: a guard on the argument's type


def test_an_enum_member_is_written_by_name_and_varied_to_its_enums_other_members() -> None:
    imports: set[tuple[str, str]] = set()
    assert format_tree(checked_tree({"role": Role.USER}, imports)) == '{"role": Role.USER}'
    sources = {format_tree(variant["args"][0]) for variant in variations([_call({"role": Role.USER})], [], [])}
    assert {'{"role": Role.ASSISTANT}', '{"role": Role.TOOL}', '{"role": "x"}'} <= sources
    # an enum of no str: only its members
    colours = {format_tree(variant["args"][0]) for variant in variations([_call([Colour.RED, 1])], [], [])}
    assert not any('"x"' in source for source in colours)


def _built(call: dict) -> list:
    return [eval(format_tree(tree)) for tree in call["args"]]


def _branches(flag: bool, items: list) -> int:
    if flag:
        return len(items)
    return 0


def test_lines_run_are_those_of_the_function_and_the_call_that_took_a_new_branch_is_changed_again() -> None:
    file, first = os.path.realpath(__file__), _branches.__code__.co_firstlineno
    value, taken = lines_run(file, "_branches", lambda: _branches(True, [1]))
    assert value == 1 and taken == {first + 1, first + 2}
    _value, skipped = lines_run(file, "_branches", lambda: _branches(False, [1]))
    assert skipped == {first + 1, first + 3}
    calls = [_call(False, [1])]
    varied = variations(calls, [], [])
    # each variation really run: only the flipped flag runs a line (the return of len()) the call did not
    ran = [sorted(lines_run(file, "_branches", lambda call=call: _branches(*_built(call)))[1]) for call in varied]
    again = novel(varied, ran, [sorted(skipped)])
    assert [format_tree(call["args"][0]) for call in again] == ["True"]
    assert "parent" not in again[0]
    twice = variations(again, [], [], known=[*calls, *varied])
    assert all(variant["args"][0]["text"] == "True" for variant in twice)  # the second change is elsewhere
    assert {format_tree(variant["args"][1]) for variant in twice} >= {"[]", "[1, 1]"}


def test_a_repeated_item_is_a_copy_that_changes_alone() -> None:
    sources = {format_tree(variant["args"][0]) for variant in variations([_call([{"a": 1}])], [], [])}
    repeated = next(
        call
        for call in variations([_call([{"a": 1}])], [], [])
        if format_tree(call["args"][0]) == '[{"a": 1}, {"a": 1}]'
    )
    assert '[{"a": 1}, {"a": 1}]' in sources
    changed = {format_tree(variant["args"][0]) for variant in variations([repeated], [], [])}
    assert '[{"a": 2}, {"a": 1}]' in changed and '[{"a": 1}, {"a": 2}]' in changed


def test_a_call_too_long_for_one_line_names_each_argument_first() -> None:
    mutant = Mutant(
        "M-LONG", "guard", "src/histories.py", "role_of", "x", "y", (), None, "fixture",
        {"en": "long"}, {"en": "a long call"}, None, (), "mutants/histories.toml",
    )  # fmt: skip
    words = "a sentence long enough to push the call past the line's width"
    call = {"self": None, "args": [tree_of(1, set())], "kwargs": {"text": tree_of(words, set())}, "imports": []}
    located = Located(module="histories", kind="function", qualname="role_of", parameters=["message", "text"])
    witness = Witness(call, {"result": tree_of(2, set())}, {"result": tree_of(3, set())}, "variation", ("result",))
    source = write_test(mutant, ("en",), located, witness).source
    assert f'    text = "{words}"\n' in source and "    result = role_of(message, text=text)\n" in source
    long_name = "the_message_" * 6
    source = write_test(mutant, ("en",), dataclasses.replace(located, parameters=[long_name]), witness).source
    call = f"    result = role_of(\n        {long_name},\n        text=text,\n    )\n"
    assert call in source and compile(source, "test.py", "exec")
    assert max(len(line) for line in source.splitlines()) <= 88


def test_a_string_held_at_two_places_changes_at_both_and_an_item_becomes_none() -> None:
    call = {
        "self": None,
        "args": [tree_of([{"model": "anthropic/claude", "text": "a"}], set())],
        "kwargs": {"model": tree_of("anthropic/claude", set())},
        "imports": [],
    }
    sources = {
        (format_tree(variant["args"][0]), format_tree(variant["kwargs"]["model"]))
        for variant in variations([call], ["anthropic"], [])
    }
    assert ('[{"model": "/claude", "text": "a"}]', '"/claude"') in sources  # both at once
    assert ('[{"model": "anthropic/claude", "text": "a"}]', '"/claude"') in sources  # and each alone
    assert ("[None]", '"anthropic/claude"') in sources  # an item of another type
    assert not any(args == "None" for args, _ in sources)  # an argument itself keeps its type


def test_a_variation_is_changed_again_only_when_it_ran_lines_its_own_recorded_call_did_not() -> None:
    varied = [{**_call("c"), "parent": 1}, {**_call("d"), "parent": 1}, {**_call("e"), "parent": 1}]
    # all three vary the second recorded call: c ran line 3, which that call ran too (only the
    # first did not); d ran line 4, new to it; e ran what d ran: one of each new set is enough
    again = novel(varied, [[1, 3], [1, 4], [1, 4]], [[1, 2], [1, 3]])
    assert [format_tree(call["args"][0]) for call in again] == ['"d"']


def test_a_written_test_imports_only_what_it_uses() -> None:
    mutant = Mutant(
        "M-IMPORTS", "guard", "src/histories.py", "role_of", "x", "y", (), None, "fixture",
        {"en": "imports"}, {"en": "a dropped item's type"}, None, (), "mutants/histories.toml",
    )  # fmt: skip
    call = {"self": None, "args": [tree_of([None], set())], "kwargs": {}, "imports": [["pkg.parts", "Part"]]}
    located = Located(module="histories", kind="function", qualname="role_of", parameters=["parts"])
    witness = Witness(call, {"result": tree_of(2, set())}, {"result": tree_of(3, set())}, "variation", ("result",))
    assert write_test(mutant, ("en",), located, witness).imports == {("histories", "role_of")}


def test_a_string_quoted_with_single_quotes_also_changes_at_every_place() -> None:
    said = 'say "hi"'
    call = {"self": None, "args": [tree_of([said], set())], "kwargs": {"text": tree_of(said, set())}, "imports": []}
    both = [variant for variant in variations([call], [], []) if variant["kwargs"]["text"]["text"] == '""']
    assert any(format_tree(variant["args"][0]) == '[""]' for variant in both)
