"""A witness a test can hold wherever it lives: none that holds the scratch copy's or the checkout's
path, or a memory address; an exception message holding one is left out of the test. What differs
between two outcomes: a mapping's key order does not. A replay that did not finish tells nothing."""

import collections

from mutcheck.harden.values import observed_tree, tree_of
from mutcheck.harden.witness import (
    RECORDED,
    SAME,
    UNFINISHED,
    VARIATION,
    Witness,
    differences,
    without_places,
    witnesses,
)

PLACES = ("/scratch/mutcheck-1/project", "/home/me/project")


def _witness(argument: str, original: dict) -> Witness:
    call = {"self": None, "args": [tree_of(argument, set())], "kwargs": {}, "imports": []}
    return Witness(call, original, {"result": tree_of(0, set())}, "recorded", ("result",))


def test_a_value_holding_a_place_of_the_run_is_no_witness() -> None:
    assert (
        without_places(_witness("a.txt", {"result": tree_of("/scratch/mutcheck-1/project/a.txt", set())}), PLACES)
        is None
    )
    assert without_places(_witness("/home/me/project/a.txt", {"result": tree_of(1, set())}), PLACES) is None
    assert without_places(_witness("a", {"result": tree_of("<Box at 0x7f3a2c1d9e80>", set())}), PLACES) is None
    kept = _witness("a.txt", {"result": tree_of("a.txt", set())})
    assert without_places(kept, PLACES) is kept


def test_an_exception_message_holding_a_place_is_left_out_and_the_witness_kept() -> None:
    raised = {"module": "builtins", "qualname": "FileNotFoundError", "message": "/home/me/project/a.txt"}
    placed = without_places(_witness("a.txt", {"raised": raised}), PLACES)
    assert placed is not None and placed.original["raised"]["message"] is None
    assert placed.original["raised"]["qualname"] == "FileNotFoundError"


def test_mappings_that_differ_only_in_their_keys_order_are_no_difference() -> None:
    def outcome(value: object) -> dict:
        return {"result": observed_tree(value, set())}

    assert differences(outcome({"b": 1, "d": 1}), outcome({"d": 1, "b": 1})) == ()
    grouped = [collections.defaultdict(int, {"b": 1, "d": 2}), collections.defaultdict(int, {"d": 2, "b": 1})]
    assert differences(outcome(grouped[0]), outcome(grouped[1])) == ()
    assert differences(outcome({"b": 1}), outcome({"b": 2})) == ("result",)
    assert differences(outcome(["b", "d"]), outcome(["d", "b"])) == ("result",)  # a list's order is its value
    ordered = [collections.OrderedDict({"b": 1, "d": 1}), collections.OrderedDict({"d": 1, "b": 1})]
    assert differences(outcome(ordered[0]), outcome(ordered[1])) == ("result",)


def test_a_call_whose_replay_did_not_finish_is_no_witness_and_counted_as_such() -> None:
    call = {"self": None, "args": [], "kwargs": {}, "imports": []}
    done, looped = {"result": {"text": "1"}}, {"unfinished": "did not finish in 5.0 s"}
    skipped: collections.Counter[str] = collections.Counter()
    assert witnesses([call, call], [[done, done], [done, done]], [[looped], [done]], VARIATION, skipped) == []
    assert skipped == collections.Counter({UNFINISHED: 1, SAME: 1})


def test_a_warning_is_a_difference_but_not_one_from_what_the_tests_saw() -> None:
    warned = {"result": {"text": "None"}, "warned": [["builtins", "DeprecationWarning"]]}
    silent = {"result": {"text": "None"}}
    assert differences(warned, silent) == ("warned",)
    # under the tests a filter may have hidden it: the recorded outcome holds none, and the call still counts
    call = {"self": None, "args": [], "kwargs": {}, "imports": [], "recorded": silent}
    skipped: collections.Counter[str] = collections.Counter()
    [found] = witnesses([call], [[warned, warned]], [[silent]], RECORDED, skipped)
    assert found.differs == ("warned",) and not skipped
