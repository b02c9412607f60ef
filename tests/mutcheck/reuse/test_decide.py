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
