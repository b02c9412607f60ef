"""Variations that give a container's items in another kind of collection, and a method's `self` of another type."""

from mutcheck.harden.values import format_tree, tree_of
from mutcheck.harden.variations import variations


def _call(*args: object, self: dict | None = None) -> dict:
    return {"self": self, "args": [tree_of(arg, set()) for arg in args], "kwargs": {}, "imports": []}


def _first_arguments(call: dict) -> set[str]:
    return {format_tree(variant["args"][0]) for variant in variations([call], [], [])}


def test_a_set_is_also_given_as_a_list_and_a_list_as_a_tuple_and_a_one_pass_iterator() -> None:
    assert "[1, 2]" in _first_arguments(_call({2, 1}))
    assert "[1]" in _first_arguments(_call(frozenset({1})))
    listed = _first_arguments(_call([1, 2]))
    assert {"(1, 2)", "iter([1, 2])"} <= listed
    assert list(eval("iter([1, 2])")) == [1, 2]
    assert "(3,)" in _first_arguments(_call([3]))  # a one-item tuple keeps its comma
    assert "[1, 2]" in _first_arguments(_call((1, 2)))


def test_a_mapping_is_never_given_as_another_collection() -> None:
    assert not any(source.startswith(("[", "(", "iter(")) for source in _first_arguments(_call({"a": 1})))


def test_a_retyped_list_is_reached_by_accessors_again() -> None:
    retyped = next(
        variant
        for variant in variations([_call({"b", "a"})], [], [])
        if format_tree(variant["args"][0]) == '["a", "b"]'
    )
    assert [accessor for _, accessor, _ in retyped["args"][0]["items"]] == ["[0]", "[1]"]


def test_a_method_is_called_through_its_class_on_the_items_its_object_was_built_from() -> None:
    built = {"open": "Bag(", "close": ")", "items": [["", "", tree_of([1, 2], set())]]}
    call = _call([3], self=built)
    unbound = [variant for variant in variations([call], [], []) if variant.get("unbound")]
    assert [format_tree(variant["self"]) for variant in unbound] == ["[1, 2]"]
    assert unbound[0]["args"] == call["args"]
    # varied again, it stays unbound and is not unwrapped twice
    again = variations([{key: value for key, value in unbound[0].items() if key != "parent"}], [], [])
    assert again and all(variant.get("unbound") for variant in again)
    # an object built from keywords, or from no collection, has no items to stand in for it
    keywords = {"open": "Bag(", "close": ")", "items": [["items=", ".items", tree_of([1], set())]]}
    assert not any(variant.get("unbound") for variant in variations([_call(self=keywords)], [], []))


def test_an_argument_built_from_a_collection_is_also_given_as_that_collection_and_as_an_iterator() -> None:
    built = {"open": "setlist(", "close": ")", "items": [["", "", tree_of([2, 3], set())]]}
    call = {"self": None, "args": [built], "kwargs": {}, "imports": [["collections_extended", "setlist"]]}
    sources = {format_tree(variant["args"][0]) for variant in variations([call], [], [])}
    assert {"[2, 3]", "iter([2, 3])", "setlist(iter([2, 3]))"} <= sources
    # `self` is not unwrapped in place (a list has none of the class's methods): only called through the class
    on_self = variations([{**call, "args": [], "self": built}], [], [])
    assert {format_tree(variant["self"]) for variant in on_self if not variant.get("unbound")} >= {"setlist([2])"}
    assert "[2, 3]" not in {format_tree(variant["self"]) for variant in on_self if not variant.get("unbound")}


def test_an_object_passed_as_an_argument_is_also_given_as_none_but_a_plain_container_is_not() -> None:
    built = {"open": "Interval.from_atomic(", "close": ")", "items": [["", "", tree_of(0, set())]]}
    call = {"self": None, "args": [built, tree_of([1], set())], "kwargs": {}, "imports": []}
    varied = variations([call], [], [])
    assert any(variant["args"][0] == {"text": "None"} for variant in varied)
    assert not any(variant["args"][1] == {"text": "None"} for variant in varied)
    on_self = variations([{**call, "args": [], "self": built}], [], [])
    assert not any(variant["self"] == {"text": "None"} for variant in on_self)


def test_a_string_and_a_set_are_also_given_as_one_pass_iterators() -> None:
    assert 'iter("abc")' in _first_arguments(_call("abc"))
    assert 'iter("")' not in _first_arguments(_call(""))  # no characters to iterate over
    assert "iter([1, 2])" in _first_arguments(_call({1, 2}))
    assert "iter([1, 2])" in _first_arguments(_call((1, 2)))
