"""The time limit's part in a stored outcome standing: an outcome that ended stands under a limit
longer than it took; a time-out, under a limit no longer than it was charged before it was stopped.
And what a set of evidence is found to have changed, and at what cost."""

from pathlib import Path

import pytest

from mutcheck.core.outcome import FAILED, NOT_RUN, PASSED, TIMEOUT
from mutcheck.core.reuse_words import IN_ORDER, MUTANT, NOT_STORED, TIME_LIMIT
from mutcheck.reuse.decide import Decider, past_the_limit
from mutcheck.reuse.module_code import digest, parse_module
from mutcheck.reuse.project_code import ProjectCode
from mutcheck.reuse.store import Builder, MutantOutcomes, Store, WholeRun
from mutcheck.reuse.store import TestOutcome as StoredOutcome
from mutcheck.reuse.today import ABSENT, FileDigests, ProjectFiles, Today


@pytest.mark.parametrize(
    ("outcome", "took", "limit", "runs_again"),
    [
        (PASSED, 0.5, 2.0, False),
        (PASSED, 2.0, 2.0, True),  # today it would be stopped
        (FAILED, 3.0, 2.0, True),
        (TIMEOUT, 2.0, 2.0, False),
        (TIMEOUT, 2.0, 1.5, False),  # stopped sooner today, still unfinished
        (TIMEOUT, 2.0, 3.0, True),  # a longer limit might let it finish
    ],
)
def test_a_stored_outcome_runs_again_when_today_s_limit_could_end_it_otherwise(outcome, took, limit, runs_again):
    assert past_the_limit(StoredOutcome(outcome, took, None, 0), limit) is runs_again


BEFORE = {
    "pkg/a.py": b"LIMIT = 1\n",
    "pkg/b.py": b"def f():\n    return 1\n",
    "pkg/c.py": b"from pkg.a import LIMIT\n\n\ndef g():\n    return LIMIT\n",
}
TODAY = {**BEFORE, "pkg/a.py": b"LIMIT = 2\n", "pkg/b.py": b"def f():\n    return 2\n"}


def test_a_set_whose_own_code_changed_runs_again_before_any_module_s_names_are_worked_out(tmp_path: Path):
    names = {path: path.removesuffix(".py").replace("/", ".") for path in BEFORE}
    code = ProjectCode(TODAY.get, names, BEFORE)
    store = Store()
    builder = Builder(store)
    own = builder.evidence(
        [("code:pkg/b.py::f", digest(BEFORE["pkg/b.py"])), ("code:pkg/c.py::g", digest(BEFORE["pkg/c.py"]))]
    )
    through_a_name = builder.evidence([("code:pkg/c.py::g", digest(BEFORE["pkg/c.py"]))])
    decider = Decider(store, Today(ProjectFiles(tmp_path, {}), {}, FileDigests(), code), {})

    # f's own code changed: that decides, and no module's bindings need working out (every module's code)
    assert decider.set_change(own) == ["code:pkg/b.py::f"]
    assert "changed_names" not in vars(code)
    # g's code is the same, but refers to a binding that changed in another module
    assert decider.set_change(through_a_name) == ["name:pkg.c:LIMIT"]  # as c binds it


def test_the_same_source_is_worked_out_once_whichever_copy_of_the_project_it_is_read_from():
    assert parse_module(b"X = 1\n") is parse_module(b"".join([b"X = 1", b"\n"]))


# -- one mutant's decision, test by test, against a store whose evidence is environment variables -----
def _variable(value: str | None) -> str:
    return ABSENT if value is None else digest(value)


def _store(tests: dict[str, tuple[str, float, str]], in_order: frozenset[str] = frozenset()) -> Store:
    """Mutant M's outcomes by test: (outcome, seconds, the variable it was seen to read, whose value was "1")."""
    store = Store(key={"python": "3.12"})
    builder = Builder(store)
    kept = {
        test: StoredOutcome(outcome, seconds, None, builder.evidence([(f"env:{variable}", _variable("1"))]))
        for test, (outcome, seconds, variable) in tests.items()
    }
    store.mutants["M"] = MutantOutcomes("E", "abc", kept, in_order)
    return store


def _decider(store: Store, environment: dict[str, str], key: dict[str, str] | None = None, bail: bool = False):
    today = Today(ProjectFiles(Path("."), {}), environment, FileDigests(), ProjectCode(lambda _path: None, {}))
    return Decider(store, today, {"python": "3.12"} if key is None else key, bail)


LIMITS = dict.fromkeys(["t1", "t2", "t3", "t4"], 10.0)


def test_each_test_keeps_its_outcome_unless_its_own_evidence_changed_or_it_was_never_stored():
    store = _store({"t1": (PASSED, 1.0, "A"), "t2": (FAILED, 1.0, "B"), "t3": (PASSED, 1.0, "A")})
    decision = _decider(store, {"A": "1", "B": "2"}).mutant("M", "E", ["t1", "t2", "t3", "t4"], LIMITS)
    assert decision.source == "abc"
    assert decision.reused == {"t1": store.mutants["M"].tests["t1"], "t3": store.mutants["M"].tests["t3"]}
    assert decision.reasons == {"t2": ["env:B"], "t4": [NOT_STORED]}
    assert decision.to_run == ["t2", "t4"]


def test_a_test_runs_again_when_today_s_limit_could_end_it_otherwise():
    store = _store({"t1": (PASSED, 1.0, "A"), "t2": (PASSED, 12.0, "A")})
    decision = _decider(store, {"A": "1"}).mutant("M", "E", ["t1", "t2"], LIMITS)
    assert list(decision.reused) == ["t1"] and decision.reasons == {"t2": [TIME_LIMIT]}


def test_no_outcome_stands_for_a_mutant_never_stored_or_whose_edit_changed():
    store = _store({"t1": (PASSED, 1.0, "A")})
    unknown = _decider(store, {"A": "1"}).mutant("N", "E", ["t1"], LIMITS)
    assert (unknown.source, unknown.reused, unknown.reasons) == (None, {}, {"t1": [NOT_STORED]})
    edited = _decider(store, {"A": "1"}).mutant("M", "E2", ["t1"], LIMITS)
    assert (edited.source, edited.reused, edited.reasons) == ("abc", {}, {"t1": [MUTANT]})


def test_a_changed_key_or_collecting_s_evidence_runs_every_test_again_and_says_which():
    store = _store({"t1": (PASSED, 1.0, "A")})
    decider = _decider(store, {"A": "1"}, key={"python": "3.13", "pytest": "9"})
    assert decider.key_changes() == ["key:pytest", "key:python"]
    assert decider.mutant("M", "E", ["t1"], LIMITS).reasons == {"t1": ["key:pytest", "key:python"]}
    store.collection = Builder(store).evidence([("env:C", _variable("1"))])
    assert _decider(store, {"A": "1", "C": "1"}).mutant("M", "E", ["t1"], LIMITS).reasons == {}
    assert _decider(store, {"A": "1"}).mutant("M", "E", ["t1"], LIMITS).reasons == {"t1": ["env:C"]}


def test_when_a_test_only_the_suite_s_order_settled_runs_again_every_test_of_the_mutant_runs():
    tests = {"t1": (PASSED, 1.0, "A"), "t2": (FAILED, 1.0, "B"), "t3": (PASSED, 1.0, "A")}
    settled = _decider(_store(tests, frozenset({"t2"})), {"A": "1", "B": "1"}).mutant(
        "M", "E", ["t1", "t2", "t3"], LIMITS
    )
    assert list(settled.reused) == ["t1", "t2", "t3"] and settled.in_order == frozenset({"t2"})
    again = _decider(_store(tests, frozenset({"t2"})), {"A": "1"}).mutant("M", "E", ["t1", "t2", "t3", "t4"], LIMITS)
    assert again.reused == {}
    assert again.reasons == {"t1": [IN_ORDER], "t2": ["env:B"], "t3": [IN_ORDER], "t4": [NOT_STORED]}
    # one settled in order but kept while another runs: the others stand
    elsewhere = _decider(_store(tests, frozenset({"t2"})), {"A": "1", "B": "1"}).mutant(
        "M", "E", ["t1", "t2", "t4"], LIMITS
    )
    assert list(elsewhere.reused) == ["t1", "t2"] and elsewhere.reasons == {"t4": [NOT_STORED]}


def test_under_bail_no_test_after_a_reused_detection_runs():
    tests = {"t2": (FAILED, 1.0, "A"), "t1": (PASSED, 1.0, "B"), "t4": (PASSED, 1.0, "B")}
    decision = _decider(_store(tests), {"A": "1"}, bail=True).mutant("M", "E", ["t1", "t2", "t3", "t4"], LIMITS)
    assert decision.bail and decision.reasons == {"t1": ["env:B"]}  # t3 and t4 come after t2's kill
    passing = {"t2": (PASSED, 1.0, "A"), "t1": (PASSED, 1.0, "B")}
    later = _decider(_store(passing), {"A": "1"}, bail=True).mutant("M", "E", ["t1", "t2", "t3"], LIMITS)
    assert later.reasons == {"t1": ["env:B"], "t3": [NOT_STORED]}
    unstored = _decider(_store(passing), {"A": "1"}, bail=True).mutant("N", "E", ["t1", "t2"], LIMITS)
    assert unstored.bail and unstored.joined(["t1", "t2"], {"t1": FAILED}) == {"t1": FAILED, "t2": NOT_RUN}


def test_outcomes_joined_in_the_suite_s_order_from_those_run_now_and_those_reused():
    store = _store({"t1": (PASSED, 1.0, "A"), "t3": (FAILED, 1.0, "A")})
    decision = _decider(store, {"A": "1"}).mutant("M", "E", ["t1", "t2", "t3", "t4"], LIMITS)
    joined = decision.joined(["t1", "t2", "t3", "t4"], {"t2": PASSED})
    assert list(joined.items()) == [("t1", PASSED), ("t2", PASSED), ("t3", FAILED), ("t4", NOT_RUN)]
    bailing = _decider(store, {"A": "1"}, bail=True).mutant("M", "E", ["t1", "t2", "t3", "t4"], LIMITS)
    assert bailing.joined(["t1", "t2", "t3", "t4"], {"t2": TIMEOUT}) == dict(
        t1=PASSED, t2=TIMEOUT, t3=NOT_RUN, t4=NOT_RUN
    )  # a run of all stops at its first detection


def test_a_whole_run_stands_only_for_the_same_request_and_unchanged_evidence():
    store = _store({"t1": (PASSED, 1.0, "A")})
    assert _decider(store, {"A": "1"}).whole("R") == [NOT_STORED]
    store.whole = WholeRun("R", {"tests": ["t1"]}, 1)
    assert _decider(store, {"A": "1"}).whole("R") == []
    assert _decider(store, {"A": "1"}).whole("R2") == ["request"]
    assert _decider(store, {"A": "2"}).whole("R") == ["env:A"]
    assert _decider(store, {"A": "1"}, key={}).whole("R") == ["key:python"]


# -- what a label stands on besides its own bytes: other modules' bindings, and code reached by name ----
EARLIER = {
    "pkg/a.py": b"LIMIT = 1\n",
    "pkg/c.py": b"from pkg.a import LIMIT\n\nREGISTRY = []\nREGISTRY.append(LIMIT)\n",
    "pkg/d.py": b"class Box:\n    size = 1\n\n    def get(self):\n        return self.size\n",
    "pkg/e.py": b"class TestBox:\n    size = 1\n",
    "tests/test_x.py": b"class Box:\n    size = 1\n",
    "pkg/n.py": b"class Holder:\n    class TestInner:\n        size = 1\n",
}
NOW = {
    **EARLIER,
    "pkg/a.py": b"LIMIT = 2\n",
    "pkg/d.py": EARLIER["pkg/d.py"].replace(b"size = 1", b"size = 2"),
    "pkg/e.py": b"class TestBox:\n    size = 2\n",
    "tests/test_x.py": b"class Box:\n    size = 2\n",
    "pkg/n.py": b"class Holder:\n    class TestInner:\n        size = 2\n",
}


def _code_decider(earlier: dict[str, bytes], now: dict[str, bytes], labels: dict[str, list[tuple[str, str]]]):
    """A decider over a store whose only test is in tests/test_x.py, and each named set's index."""
    code = ProjectCode(now.get, {path: path.removesuffix(".py").replace("/", ".") for path in earlier}, earlier)
    store = Store()
    builder = Builder(store)
    sets = {name: builder.evidence(pairs) for name, pairs in labels.items()}
    store.mutants["M"] = MutantOutcomes("E", "h", {"tests/test_x.py::test_t": StoredOutcome(PASSED, 1.0, None, 0)})
    today = Today(ProjectFiles(Path("."), {}), {}, FileDigests(), code)
    return Decider(store, today, {}), sets


def test_a_module_s_effects_change_by_its_own_bytes_or_by_a_binding_they_refer_to():
    decider, sets = _code_decider(
        EARLIER,
        {**NOW, "pkg/c.py": EARLIER["pkg/c.py"] + b"REGISTRY.append(0)\n"},
        {"own": [("effects:pkg/c.py", digest(EARLIER["pkg/c.py"]))]},
    )
    assert decider.own_change(sets["own"]) == ["effects:pkg/c.py"]
    decider, sets = _code_decider(EARLIER, NOW, {"through": [("effects:pkg/c.py", digest(EARLIER["pkg/c.py"]))]})
    assert decider.own_change(sets["through"]) == []  # its bytes are the same: LIMIT, which it appends, is not
    assert decider.set_change(sets["through"]) == ["effects:pkg/c.py"]
    only_d = {**EARLIER, "pkg/d.py": NOW["pkg/d.py"]}  # something changed, nothing c's statements refer to
    decider, sets = _code_decider(EARLIER, only_d, {"same": [("effects:pkg/c.py", digest(EARLIER["pkg/c.py"]))]})
    assert decider.today.code.changed_names and decider.set_change(sets["same"]) == []


def test_text_run_from_a_string_stands_on_any_module_s_binding_of_the_names_it_spells():
    unchanged = {"env:LIMIT": [("env:LIMIT", ABSENT)]}  # a variable named as a changed binding is not that binding
    decider, sets = _code_decider(EARLIER, NOW, {"one": [("text:LIMIT", "")], "any": [("text:**", "")], **unchanged})
    assert decider.set_change(sets["one"]) == ["name:LIMIT"]
    assert decider.set_change(sets["any"]) == sorted("name:" + name for name in decider.today.code.changed_names)
    assert "name:pkg.a:LIMIT" in decider.set_change(sets["any"])
    assert decider.set_change(sets["env:LIMIT"]) == []


def test_a_class_s_changed_member_counts_where_it_is_read_and_where_pytest_reads_it_itself():
    def box(path: str, qualname: str) -> list[tuple[str, str]]:
        return [(f"code:{path}::{qualname}", digest(EARLIER[path]))]

    labels = {
        "class": box("pkg/d.py", "Box"),
        "method": box("pkg/d.py", "Box.get"),
        "test module's class": box("tests/test_x.py", "Box"),
        "Test class": box("pkg/e.py", "TestBox"),
        "nested Test class": box("pkg/n.py", "Holder.TestInner"),
    }
    decider, sets = _code_decider(EARLIER, NOW, labels)
    assert decider.set_change(sets["class"]) == []  # its body binds `size`; only code that reads it refers to it
    assert decider.set_change(sets["method"]) == ["name:pkg.d:Box", "name:size"]
    assert decider.set_change(sets["test module's class"]) == ["name:tests.test_x:Box.size"]
    assert decider.set_change(sets["Test class"]) == ["name:pkg.e:TestBox.size"]
    nested = decider.set_change(sets["nested Test class"])  # a Test class by its own name, wherever it is
    assert nested == ["name:pkg.n:Holder", "name:pkg.n:Holder.TestInner.size"]


REACHED_EARLIER = {
    "pkg/f.py": b"def helper():\n    return 1\n\n\ndef caller():\n    return helper()\n",
    "pkg/g.py": b"from pkg.f import helper\n\nX = helper()\n",
    "pkg/h.py": b"def plain():\n    return 0\n\n\ndef indirect():\n    return caller()\n",
}
REACHED_NOW = {**REACHED_EARLIER, "pkg/f.py": REACHED_EARLIER["pkg/f.py"].replace(b"return 1", b"return 2")}


def test_where_code_was_not_watched_what_it_reaches_by_name_counts():
    h = digest(REACHED_EARLIER["pkg/h.py"])
    labels = {
        "a mutant's name": [("reach:helper", "")],
        "a name leading elsewhere": [("reach:plain", "")],
        "through a caller": [("code:pkg/h.py::plain", h), ("reach:caller", "")],
        "from the code it ran": [("code:pkg/h.py::indirect", h), ("reach:", "")],
        "code ran, reaching nothing": [("code:pkg/h.py::plain", h), ("reach:", "")],
        "from module-level code": [("reach-modules", "")],
        "both": [("reach:caller", ""), ("reach-modules", "")],
        "nothing unwatched": [("code:pkg/h.py::plain", h)],
    }
    decider, sets = _code_decider(REACHED_EARLIER, REACHED_NOW, labels)
    found = {name: decider.set_change(index) for name, index in sets.items()}
    assert found == {
        "a mutant's name": ["name:helper"],
        "a name leading elsewhere": [],
        "through a caller": ["name:caller"],
        "from the code it ran": ["name:caller"],
        "code ran, reaching nothing": [],
        "from module-level code": ["name:helper"],  # `X = helper()` ran at import
        "both": ["name:caller", "name:helper"],
        "nothing unwatched": [],
    }
    unchanged, sets = _code_decider(REACHED_EARLIER, REACHED_EARLIER, labels)
    assert all(unchanged.set_change(index) == [] for index in sets.values())


def test_a_whole_run_does_not_stand_when_a_test_module_binds_a_name_anew():
    decider, _ = _code_decider(EARLIER, NOW, {})
    decider.store.whole = WholeRun("R", {"tests": ["tests/test_x.py::test_t"]}, 1)
    assert decider.whole("R") == ["name:tests.test_x:Box", "name:tests.test_x:Box.size"]
    outside, _ = _code_decider(EARLIER, {**NOW, "tests/test_x.py": EARLIER["tests/test_x.py"]}, {})
    outside.store.whole = WholeRun("R", {"tests": ["tests/test_x.py::test_t"]}, 1)
    assert outside.whole("R") == []  # the changed bindings are the package's, not the suite's
