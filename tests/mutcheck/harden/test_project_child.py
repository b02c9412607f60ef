"""The child, run as harden runs it: a method replayed on its rebuilt object or through its class; the
objects the tests made recorded as the calls that made them; a replayed call held to its time limit;
a property located by its getter; a call kept by the size of the source a test writes for it."""

import importlib
import json
import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mutcheck.harden.child_process import Lab, run_child
from mutcheck.harden.project_child import Refused, locate
from mutcheck.harden.values import format_tree, tree_of
from mutcheck.harden.wire import (
    METHOD,
    PROPERTY,
    RECORD,
    REPLAY,
    TOO_LARGE,
    ChildSpec,
    Located,
    RecordAnswer,
    ReplayAnswer,
)


def _recording(tmp_path: Path, module: str, source: str, tests: str, qualname: str) -> tuple[Lab, ChildSpec]:
    """A project of one module and one test file, and the spec that records `qualname` under its tests."""
    project = tmp_path / "project"
    (project / "tests").mkdir(parents=True)
    (project / f"{module}.py").write_text(source, encoding="utf-8")
    (project / "tests" / f"test_{module}.py").write_text(tests, encoding="utf-8")
    spec = ChildSpec(
        RECORD, [f"tests/test_{module}.py"], file=os.path.realpath(project / f"{module}.py"), qualname=qualname
    )
    return Lab(tmp_path, project, project, ("-p", "no:cacheprovider")), spec


def _replaying(
    tmp_path: Path, module: str, source: str, kind: str, qualname: str, calls: list
) -> tuple[Lab, ChildSpec]:
    """A project of one module, and the spec that replays `calls` of `qualname` once, untraced."""
    project = tmp_path / "project"
    project.mkdir()
    (project / f"{module}.py").write_text(source, encoding="utf-8")
    located = Located(
        module, kind, qualname, [], file=os.path.realpath(project / f"{module}.py"), sys_path=[str(project), *sys.path]
    )
    spec = ChildSpec(REPLAY, [], located=located, calls=calls, rounds=1, call_limit=5.0)
    return Lab(tmp_path, project, project, ()), spec


_SHAPES = """
class Bag:
    def __init__(self, items=()):
        self.items = list(items)

    def kind(self, suffix):
        return ("bag" if isinstance(self, Bag) else type(self).__name__) + suffix
"""


def test_a_method_is_replayed_on_its_object_and_through_its_class_on_another_type(tmp_path: Path) -> None:
    built = {"open": "Bag(", "close": ")", "items": [["", "", tree_of([1], set())]]}
    suffix = [tree_of("!", set())]
    calls = [
        {"self": built, "args": suffix, "kwargs": {}, "imports": [["shapes", "Bag"]]},
        {"self": tree_of([1], set()), "args": suffix, "kwargs": {}, "imports": [], "unbound": True},
    ]
    lab, spec = _replaying(tmp_path, "shapes", _SHAPES, METHOD, "Bag.kind", calls)
    answer = run_child(lab, spec, ReplayAnswer, timeout=60)
    results = [format_tree(rounds[0]["result"]) for rounds in answer.observed]
    assert results == ['"bag!"', '"list!"']
    assert format_tree(answer.observed[1][0]["after"]["self"]) == "[1]"


_SPANS = """
class Span:
    def __init__(self):
        self.bounds = []

    @classmethod
    def closed(cls, low, high):
        span = cls()
        span.bounds = [low, high]
        return span

    def width(self):
        return self.bounds[1] - self.bounds[0] if self.bounds else 0

    def widened(self):
        return Span.closed(self.bounds[0] - 1, self.bounds[1] + 1)
"""

_SPAN_TESTS = """
from spans import Span

def test_width():
    assert Span.closed(1, 3).width() == 2

def test_widened_twice():
    assert Span.closed(1, 3).widened().widened().bounds == [-1, 5]
"""


def test_an_object_made_by_a_class_method_is_recorded_as_that_call(tmp_path: Path) -> None:
    lab, spec = _recording(tmp_path, "spans", _SPANS, _SPAN_TESTS, "Span.width")
    answer = run_child(lab, replace(spec, tests=["tests/test_spans.py::test_width"]), RecordAnswer, timeout=120)
    assert answer.exit == 0 and answer.located.kind == METHOD
    assert [format_tree(call["self"]) for call in answer.calls] == ["Span.closed(1, 3)"]
    assert format_tree(answer.calls[0]["recorded"]["result"]) == "2"
    # an object the recorded method made, passed by the test to its next call, is written as made
    widened = run_child(lab, replace(spec, qualname="Span.widened"), RecordAnswer, timeout=120)
    assert [format_tree(call["self"]) for call in widened.calls] == ["Span.closed(1, 3)", "Span.closed(0, 4)"]


_LOOKUPS = """
class Record:
    __slots__ = ("fields",)  # reading its `__dict__` calls `__getattr__`

    def __init__(self, fields):
        self.fields = dict(fields)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self.fields.get(name)
"""

_LOOKUP_TESTS = """
from records import Record

def test_lookup():
    assert Record({"a": 1}).a == 1
"""


def test_attribute_reads_made_while_writing_a_call_are_not_calls_of_the_tests(tmp_path: Path) -> None:
    lab, spec = _recording(tmp_path, "records", _LOOKUPS, _LOOKUP_TESTS, "Record.__getattr__")
    answer = run_child(lab, spec, RecordAnswer, timeout=120)
    assert answer.skipped == {}
    assert [(format_tree(call["self"]), format_tree(call["args"][0])) for call in answer.calls] == [
        ('Record({"a": 1})', '"a"')
    ]


_BASES = """
class Base:
    def __init__(self, items=()):
        self.items = list(items)


class Bag(Base):
    pass


class Counted(Base):
    def __init__(self, items=()):
        super().__init__(items)
        self.count = len(self.items)
"""

_BASE_TESTS = """
from bases import Bag, Counted

def test_bags():
    assert Bag([1]).items == [1]
    assert Counted([1, 2]).count == 2
"""


def test_a_constructor_inherited_by_a_subclass_is_recorded_and_replayed_as_a_call_of_that_subclass(
    tmp_path: Path,
) -> None:
    lab, spec = _recording(tmp_path, "bases", _BASES, _BASE_TESTS, "Base.__init__")
    recorded = run_child(lab, spec, RecordAnswer, timeout=120)
    # Counted's own constructor is another call: only Bag's, made by Base's constructor, is kept
    assert [(call["class"], format_tree(call["args"][0])) for call in recorded.calls] == [({"text": "Bag"}, "[1]")]
    replay = ChildSpec(REPLAY, [], located=recorded.located, calls=recorded.calls, rounds=1)
    replay = replace(replay, call_limit=5.0)
    observed = run_child(lab, replay, ReplayAnswer, timeout=120).observed[0][0]
    assert observed["type"] == "Bag" and observed["result"]["open"] == "Bag("


def test_a_replay_hashes_strings_with_the_seed_it_is_given(tmp_path: Path) -> None:
    source = 'def order():\n    return list({"alpha", "beta", "gamma", "delta", "epsilon", "zeta"})\n'
    call = {"self": None, "args": [], "kwargs": {}, "imports": []}
    lab, spec = _replaying(tmp_path, "orders", source, "function", "order", [call])
    orders = [
        format_tree(run_child(lab, spec, ReplayAnswer, timeout=60, hash_seed=seed).observed[0][0]["result"])
        for seed in (1, 1, 2)
    ]
    assert orders[0] == orders[1] != orders[2]  # a set's order is the seed's: the same seed, the same order


_LOOPS = """
def settle(items):
    while items and items[0] == "loop":  # no progress: it never ends
        items = items
    return len(items)
"""


def test_a_replayed_call_past_its_limit_is_unfinished_and_after_three_the_rest_are_not_made(tmp_path: Path) -> None:
    calls = [
        {"self": None, "args": [tree_of(items, set())], "kwargs": {}, "imports": []}
        for items in (["a"], ["loop"], ["b", "c"], ["loop"], ["loop"], ["d"])
    ]
    lab, spec = _replaying(tmp_path, "loops", _LOOPS, "function", "settle", calls)
    observed = [
        rounds[0] for rounds in run_child(lab, replace(spec, call_limit=0.5), ReplayAnswer, timeout=60).observed
    ]
    assert [format_tree(one["result"]) if "result" in one else one["unfinished"] for one in observed] == [
        "1",
        "did not finish in 0.5 s",
        "2",  # the batch went on
        "did not finish in 0.5 s",
        "did not finish in 0.5 s",
        "not made: 3 calls before it did not finish",
    ]


_GAUGES = """
import functools


class Gauge:
    def __init__(self, level):
        self._level = level

    @property
    def level(self):
        return self._level

    @level.setter
    def level(self, value):
        self._level = max(value, 0)

    @functools.cached_property
    def doubled(self):
        return self._level * 2
"""


def test_a_property_is_its_getter_when_that_holds_the_mutant_and_refused_in_its_setter(tmp_path: Path) -> None:
    (tmp_path / "gauges.py").write_text(_GAUGES, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("gauges")
    finally:
        sys.path.remove(str(tmp_path))
    getter_line = _GAUGES.splitlines().index("        return self._level") + 1
    setter_line = _GAUGES.splitlines().index("        self._level = max(value, 0)") + 1
    assert locate(module, "Gauge.level", getter_line)[:2] == (PROPERTY, module.Gauge)
    assert locate(module, "Gauge.doubled")[0] == PROPERTY
    with pytest.raises(Refused, match="a property's setter or deleter"):
        locate(module, "Gauge.level", setter_line)


def test_a_call_whose_arguments_are_too_large_for_a_test_is_not_kept(tmp_path: Path) -> None:
    tests = "from totals import total\n\n\ndef test_total():\n    assert total(list(range(10_000))) > total([1])\n"
    lab, spec = _recording(tmp_path, "totals", "def total(items):\n    return sum(items)\n", tests, "total")
    recorded = run_child(lab, spec, RecordAnswer, timeout=120)
    assert [format_tree(call["args"][0]) for call in recorded.calls] == ["[1]"]
    assert recorded.skipped == {TOO_LARGE: 1}


def test_a_call_is_measured_by_the_source_a_test_writes_not_by_its_data(tmp_path: Path) -> None:
    # 1200 numbers take about 12,000 characters to write, one per line, and over 20,000 as data trees
    tests = "from totals import total\n\n\ndef test_total():\n    assert total(list(range(1200))) > 0\n"
    lab, spec = _recording(tmp_path, "totals", "def total(items):\n    return sum(items)\n", tests, "total")
    recorded = run_child(lab, spec, RecordAnswer, timeout=120)
    assert recorded.skipped == {}
    [call] = recorded.calls
    assert len(json.dumps(call["args"])) > 20_000 > len(format_tree(call["args"][0])) > 10_000


def test_a_replay_gives_the_categories_of_the_warnings_the_call_gave_each_time(tmp_path: Path) -> None:
    source = "import warnings\n\n\ndef old():\n    warnings.warn('gone soon', DeprecationWarning)\n    return 1\n"
    call = {"self": None, "args": [], "kwargs": {}, "imports": []}
    lab, spec = _replaying(tmp_path, "olds", source, "function", "old", [call, call])
    observed = run_child(lab, spec, ReplayAnswer, timeout=60).observed
    assert [rounds[0]["warned"] for rounds in observed] == [[["builtins", "DeprecationWarning"]]] * 2
