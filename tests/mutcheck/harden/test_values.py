"""Objects of a project's own classes written as source: by the constructor call that made them, else
by their constructor given their attributes, each checked by building it; observed by their state."""

import pytest

from mutcheck.harden.values import Unwritable, checked_tree, format_tree, holds_state, namespace, observed_tree


class Window:
    def __init__(self, size, messages=None):
        self.size = size
        self._messages = list(messages or [])


class Counted:
    """Its constructor keeps no parameter by name: only the call that made it builds it again."""

    def __init__(self, start):
        self.count = start * 2


class Span:
    """Made by a class method that sets what its constructor does not take (as `Interval.from_atomic`)."""

    def __init__(self):
        self.bounds = []

    @classmethod
    def closed(cls, low, high):
        span = cls()
        span.bounds = [low, high]
        return span


class Slotted:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


def _state(value: object) -> dict:
    return {key: getattr(value, key) for key in ("size", "_messages", "count", "name") if hasattr(value, key)}


def test_an_object_is_written_by_its_constructor_given_its_attributes_and_builds_the_same_again() -> None:
    window = Window(2, ["a"])
    window._messages.append("b")  # changed since it was made: only its attributes say what it holds
    imports: set[tuple[str, str]] = set()
    tree = checked_tree(window, imports)
    assert format_tree(tree) == 'Window(size=2, messages=["a", "b"])'
    rebuilt = eval(format_tree(tree), namespace(imports))
    assert type(rebuilt) is Window and _state(rebuilt) == _state(window)
    assert format_tree(checked_tree(Slotted("x"), set())) == 'Slotted(name="x")'


def test_the_recorded_constructor_call_is_taken_while_the_object_still_holds_what_it_made() -> None:
    counted = Counted(3)
    made = {id(counted): (counted, "", [{"text": "3"}], {}, set())}
    assert format_tree(checked_tree(counted, set(), made)) == "Counted(3)"
    with pytest.raises(Unwritable, match="no attribute of a Counted holds its constructor's start"):
        checked_tree(counted, set())  # nothing recorded: its attributes do not name the parameter
    counted.count = 7  # changed since: the recorded call builds another object, and nothing else does
    with pytest.raises(Unwritable, match=r"Counted\(…\) from the call that made it builds an object holding other"):
        checked_tree(counted, set(), made)


def test_an_object_made_by_a_class_method_is_written_as_that_call() -> None:
    span = Span.closed(1, 2)
    made = {id(span): (span, "closed", [{"text": "1"}], {"high": {"text": "2"}}, set())}
    imports: set[tuple[str, str]] = set()
    tree = checked_tree(span, imports, made)
    assert format_tree(tree) == "Span.closed(1, high=2)"
    assert eval(format_tree(tree), namespace(imports)).bounds == [1, 2]
    # its constructor alone builds another: without the recorded call it is refused, saying why
    with pytest.raises(Unwritable, match=r"Span\(…\) from its attributes builds an object holding other values"):
        checked_tree(span, set())


def test_an_object_returned_is_observed_by_its_state_and_never_asserted_whole() -> None:
    tree = observed_tree([Window(1, ["a"]), 2], set())
    assert holds_state(tree) and not tree.get("state")
    window = tree["items"][0][2]
    assert window["state"] and [(prefix, accessor) for prefix, accessor, _ in window["items"]] == [
        ("_messages=", "._messages"),
        ("size=", ".size"),
    ]
    assert not holds_state(observed_tree([1, {"a": 2}], set()))


class Bag(list):
    """A collection whose constructor takes its items: built from what it holds."""


def test_a_collection_is_written_by_its_constructor_given_its_items() -> None:
    bag = Bag()
    bag.extend([1, 2])
    assert format_tree(checked_tree(bag, set())) == "Bag([1, 2])"
    observed = observed_tree(bag, set())
    assert observed["state"] and observed["items"] == [["", "list({})", checked_tree([1, 2], set())]]


def key_of(item: str) -> int:
    return len(item)


def test_ranges_slices_and_functions_or_classes_by_name_are_written_and_a_lambda_refused() -> None:
    imports: set[tuple[str, str]] = set()
    tree = checked_tree([range(1, 5), slice(1, None), str.lower, len, key_of, Window], imports)
    assert format_tree(tree) == "[range(1, 5), slice(1, None, None), str.lower, len, key_of, Window]"
    assert imports == {(__name__, "key_of"), (__name__, "Window")}
    with pytest.raises(Unwritable, match="<lambda> has no name to import it by"):
        checked_tree(lambda item: item, set())
    with pytest.raises(Unwritable, match=r"^a Window bound method$"):
        checked_tree(Window(1).__init__, set())


class Node:
    def __init__(self, name, peer=None):
        self.name = name
        self.peer = peer


def test_objects_that_refer_to_each_other_are_refused_as_input_and_observed_without_the_loop() -> None:
    first, second = Node("a"), Node("b")
    first.peer, second.peer = second, first
    with pytest.raises(Unwritable, match="it refers to itself"):
        checked_tree(first, set())
    observed = observed_tree(first, set())  # the attribute that closes the loop is left out
    assert [accessor for _, accessor, _ in observed["items"]] == [".name", ".peer"]
    assert [accessor for _, accessor, _ in observed["items"][1][2]["items"]] == [".name"]


class Refused(Exception):
    def __init__(self, status):
        super().__init__(f"refused with {status}")
        self.status = status


def test_an_exception_a_constructor_made_is_observed_by_its_attributes() -> None:
    observed = observed_tree(Refused(3), set())
    assert observed["state"] and observed["items"] == [["status=", ".status", {"text": "3"}]]


def test_an_observed_objects_attributes_bring_the_imports_their_source_needs() -> None:
    import datetime

    imports: set[tuple[str, str]] = set()
    tree = observed_tree([Window(1, [datetime.date(2026, 1, 2)])], imports)
    assert "datetime.date(2026, 1, 2)" in format_tree(tree)
    assert ("", "datetime") in imports


class Spans:
    """A collection whose items are objects of its own class, each iterating to itself (as portion's Interval)."""

    def __init__(self, *bounds):
        self.bounds = list(bounds)

    def __iter__(self):
        return iter([Spans(bound) for bound in self.bounds] if len(self.bounds) > 1 else [Spans(*self.bounds)])

    def __len__(self):
        return len(self.bounds)

    def __contains__(self, item):
        return item in self.bounds


def test_a_collection_of_its_own_kind_is_observed_by_its_attributes_alone() -> None:
    tree = observed_tree(Spans((0, 1), (2, 3)), set())
    assert [accessor for _, accessor, _ in tree["items"]] == [".bounds"]
    assert format_tree(tree["items"][0][2]) == "[(0, 1), (2, 3)]"
    # nor built from its items: each of them is one again
    with pytest.raises(
        Unwritable, match=r"the items of a Spans are of its own class without end \(each holds another\)"
    ):
        checked_tree(Spans((0, 1), (2, 3)), set())


def test_not_implemented_is_written_by_its_name() -> None:
    tree = checked_tree([NotImplemented], set())
    assert format_tree(tree) == "[NotImplemented]" and eval(format_tree(tree))[0] is NotImplemented


def test_collections_mappings_and_deques_are_written_as_their_constructors_given_their_items() -> None:
    import collections

    counted = collections.Counter({"a": 2})
    grouped = collections.defaultdict(list, {"a": [1]})
    window = collections.deque([1, 2], maxlen=3)
    for value, source in [
        (counted, 'collections.Counter({"a": 2})'),
        (grouped, 'collections.defaultdict(list, {"a": [1]})'),
        (collections.OrderedDict([("b", 1)]), 'collections.OrderedDict({"b": 1})'),
        (window, "collections.deque([1, 2], maxlen=3)"),
    ]:
        imports: set[tuple[str, str]] = set()
        assert format_tree(checked_tree(value, imports)) == source
        rebuilt = eval(source, namespace(imports))
        assert type(rebuilt) is type(value) and rebuilt == value
    assert eval("collections.defaultdict(list, {})", {"collections": collections})["x"] == []


def test_a_dict_keyed_by_tuples_or_frozensets_is_written_and_one_keyed_by_objects_refused() -> None:
    keyed = {("a", "b"): 1, frozenset({2}): [3]}
    source = format_tree(checked_tree(keyed, set()))
    assert source == '{("a", "b"): 1, frozenset({2}): [3]}' and eval(source) == keyed
    with pytest.raises(Unwritable, match="a dict key of type Slotted"):
        checked_tree({Slotted("x"): 1}, set())


class Nested(dict):
    """A dict subclass whose values may be more of it, to an end (as addict's `Dict`)."""


def test_a_collection_holding_its_own_kind_to_an_end_is_built_from_its_items() -> None:
    value = Nested({"a": Nested({"b": 1})})
    imports: set[tuple[str, str]] = set()
    source = format_tree(checked_tree(value, imports))
    assert source == 'Nested({"a": Nested({"b": 1})})'
    rebuilt = eval(source, namespace(imports))
    assert type(rebuilt["a"]) is Nested and rebuilt == value


class Paths(dict):
    """A mapping whose keys are split by a separator its constructor takes by keyword (as pygtrie's StringTrie)."""

    def __init__(self, items=(), separator="/"):
        super().__init__(items)
        self._separator = separator


def test_a_collection_changed_since_it_was_made_is_built_from_its_items_and_the_keywords_it_was_made_with() -> None:
    paths = Paths(separator="~")
    made = {id(paths): (paths, "", [], {"separator": {"text": '"~"'}}, set())}
    paths["a~b"] = 1  # changed since: the recorded call builds an empty one, its items alone a "/" one
    assert format_tree(checked_tree(paths, set(), made)) == 'Paths({"a~b": 1}, separator="~")'
