"""The test written for a witness whose method was called through its class, on a `self` of another type."""

import threading
from dataclasses import replace

from mutcheck.catalog.catalog import Mutant
from mutcheck.harden.values import observed_tree, tree_of
from mutcheck.harden.wire import Located
from mutcheck.harden.witness import Witness
from mutcheck.harden.witness_source import write_test

_MUTANT = Mutant(
    "M-UNION", "guard", "src/shapes.py", "Bag.union", "isinstance(self, Bag)", "True", (), None, "fixture",
    {"en": "a type check forced"}, {"en": "a list given as self"}, None, (), "mutants/shapes.toml",
)  # fmt: skip


def test_an_unbound_call_names_the_class_and_passes_self_first() -> None:
    call = {
        "self": tree_of([1, 2], set()),
        "args": [tree_of([3], set())],
        "kwargs": {},
        "imports": [],
        "unbound": True,
    }
    located = Located(module="shapes", kind="method", qualname="Bag.union", parameters=["self", "other"])
    original, mutant = {"result": tree_of("Bag", set())}, {"result": tree_of("list", set())}
    written = write_test(_MUTANT, ("en",), located, Witness(call, original, mutant, "variation", ("result",)))
    assert "    bag = [1, 2]\n    result = Bag.union(bag, [3])\n" in written.source
    assert ("shapes", "Bag") in written.imports
    compile(written.source, "test.py", "exec")


def test_a_bound_call_is_made_on_the_rebuilt_object() -> None:
    built = {"open": "Bag(", "close": ")", "items": [["", "", tree_of([1, 2], set())]]}
    call = {"self": built, "args": [tree_of([3], set())], "kwargs": {}, "imports": [["shapes", "Bag"]]}
    located = Located(module="shapes", kind="method", qualname="Bag.union", parameters=["self", "other"])
    original, mutant = {"result": tree_of(3, set())}, {"result": tree_of(2, set())}
    written = write_test(_MUTANT, ("en",), located, Witness(call, original, mutant, "recorded", ("result",)))
    assert "    bag = Bag([1, 2])\n    result = bag.union([3])\n" in written.source
    private = write_test(
        _MUTANT,
        ("en",),
        replace(located, qualname="_Bag.union"),
        Witness(call, original, mutant, "recorded", ("result",)),
    )
    assert "    bag = Bag([1, 2])\n    result = bag.union([3])\n" in private.source  # no leading underscore


def _method_test(name: str, args: list, original: dict, mutant: dict) -> str:
    built = {"open": "Bag(", "close": ")", "items": [["", "", tree_of([1, 2], set())]]}
    call = {"self": built, "args": [tree_of(arg, set()) for arg in args], "kwargs": {}, "imports": [["shapes", "Bag"]]}
    located = Located(module="shapes", kind="method", qualname=f"Bag.{name}", parameters=["self", "other"])
    witness = Witness(call, original, mutant, "recorded", ("result",))
    return write_test(_MUTANT, ("en",), located, witness).source


def _returned(value: object) -> dict:
    return {"result": tree_of(value, set()), "type": type(value).__qualname__}


def test_a_special_method_is_written_as_its_operator_where_it_gives_the_same() -> None:
    assert "    result = bag == [3]\n" in _method_test("__eq__", [[3]], _returned(False), _returned(True))
    assert "    result = 3 in bag\n" in _method_test("__contains__", [3], _returned(False), _returned(True))
    assert "    result = len(bag)\n" in _method_test("__len__", [], _returned(2), _returned(3))
    assert "    result = bag[0]\n" in _method_test("__getitem__", [0], _returned(1), _returned(2))
    raised = {"raised": {"module": "builtins", "qualname": "TypeError", "message": "no"}}
    assert "        bag < [3]\n" in _method_test("__lt__", [[3]], raised, _returned(True))


def test_a_special_method_keeps_its_call_where_the_operator_would_change_its_result() -> None:
    # `in` and `len` pass on only a bool and an int: a mutant giving another type is called by name
    assert "    result = bag.__contains__(3)\n" in _method_test("__contains__", [3], _returned(False), _returned(0))
    assert "    result = bag.__len__()\n" in _method_test("__len__", [], _returned(2), _returned("2"))
    # a result not written as source (NotImplemented) would send `==` to the other operand
    unwritten = {"unwritable": "its return value: a NotImplementedType"}
    assert "    result = bag.__eq__([3])\n" in _method_test("__eq__", [[3]], _returned(False), unwritten)
    assert "    result = bag.keys([3])\n" in _method_test("keys", [[3]], _returned(False), _returned(True))


def test_item_assignment_and_deletion_are_written_as_statements_where_no_result_is_asserted() -> None:
    after = {"after": {"self": tree_of([9], set())}}
    changed = {"after": {"self": tree_of([1], set())}}
    located = Located(module="shapes", kind="method", qualname="", parameters=["self", "index", "value"])
    built = {"open": "Bag(", "close": ")", "items": [["", "", tree_of([1, 2], set())]]}
    for name, args, expected in [
        ("__setitem__", [slice(0, -1, None), [9]], "    bag[0:-1] = [9]\n"),
        ("__setitem__", [slice(None, 2, 2), [9]], "    bag[:2:2] = [9]\n"),
        ("__delitem__", [1], "    del bag[1]\n"),
    ]:
        call = {"self": built, "args": [tree_of(arg, set()) for arg in args], "kwargs": {}, "imports": []}
        witness = Witness(call, {**_returned(None), **after}, {**_returned(None), **changed}, "recorded", ("self",))
        source = write_test(_MUTANT, ("en",), replace(located, qualname=f"Bag.{name}"), witness).source
        assert expected in source and compile(source, "test.py", "exec")
    # the mutant raised where the original did not: the call's value is asserted, so it stays a call
    call = {"self": built, "args": [tree_of(1, set())], "kwargs": {}, "imports": []}
    raised = {"raised": {"module": "builtins", "qualname": "IndexError", "message": "gone"}}
    witness = Witness(call, _returned(None), raised, "recorded", ("result", "raised"))
    source = write_test(_MUTANT, ("en",), replace(located, qualname="Bag.__delitem__"), witness).source
    assert "    result = bag.__delitem__(1)\n" in source


def test_not_implemented_is_asserted_by_identity_on_the_method_called_by_name() -> None:
    raised = {"raised": {"module": "builtins", "qualname": "TypeError", "message": "not an interval"}}
    source = _method_test("__or__", [1], _returned(NotImplemented), raised)
    assert "    result = bag.__or__(1)\n" in source  # `bag | 1` would raise TypeError on both sides
    assert "    assert result is NotImplemented\n" in source


def test_a_constructor_recorded_through_a_subclass_is_called_as_that_subclass() -> None:
    call = {
        "self": None,
        "args": [tree_of([1], set())],
        "kwargs": {},
        "imports": [["shapes", "Bag"]],
        "class": {"text": "Bag"},
    }
    located = Located(module="shapes", kind="constructor", qualname="Base.__init__", parameters=["self", "items"])
    raised = {"raised": {"module": "builtins", "qualname": "ValueError", "message": "empty"}}
    witness = Witness(call, raised, _returned(None), "variation", ("raised",))
    written = write_test(_MUTANT, ("en",), located, witness)
    assert "        Bag([1])\n" in written.source
    assert written.imports == {("shapes", "Bag"), ("", "pytest")}


class Held:
    def __init__(self) -> None:
        self.items = [1]


def test_a_type_asserted_for_a_state_is_asserted_once() -> None:
    original = {"result": observed_tree(Held(), set()), "type": "Held"}
    source = _method_test("union", [[3]], original, _returned([1]))
    assert source.count('assert type(result).__qualname__ == "Held"') == 1


class Dict(dict):
    """A dict subclass whose instances hold attributes set aside from their items (as addict's `Dict`)."""


def test_a_receiver_never_shadows_a_builtin_and_an_attribute_only_the_mutant_keeps_is_asserted_absent() -> None:
    made = {"open": "Dict(", "close": ")", "items": [["", "", tree_of({}, set())]]}
    call = {"self": made, "args": [tree_of("y", set()), tree_of(1, set())], "kwargs": {}, "imports": []}
    removed, kept = Dict(y=1), Dict(y=1)
    kept.parent = None  # the mutant no longer deletes it
    original = {"result": tree_of(None, set()), "after": {"self": observed_tree(removed, set())}}
    mutant = {"result": tree_of(None, set()), "after": {"self": observed_tree(kept, set())}}
    located = Located(module="maps", kind="method", qualname="Dict.__setitem__", parameters=["self", "k", "v"])
    written = write_test(_MUTANT, ("en",), located, Witness(call, original, mutant, "recorded", ("self",))).source
    assert '    dict_ = Dict({})\n    dict_["y"] = 1\n' in written
    assert '    assert ("parent" in vars(dict_)) is False\n' in written
    assert "    assert dict(dict_) == " in written  # the builtin is still `dict`
    compile(written, "test.py", "exec")


def _setitem_test(original_after: object, mutant_after: object) -> str:
    made = {"open": "Dict(", "close": ")", "items": [["", "", tree_of({}, set())]]}
    call = {"self": made, "args": [tree_of("y", set()), tree_of(1, set())], "kwargs": {}, "imports": []}
    original = {"result": tree_of(None, set()), "after": {"self": observed_tree(original_after, set())}}
    mutant = {"result": tree_of(None, set()), "after": {"self": observed_tree(mutant_after, set())}}
    located = Located(module="maps", kind="method", qualname="Dict.__setitem__", parameters=["self", "k", "v"])
    return write_test(_MUTANT, ("en",), located, Witness(call, original, mutant, "recorded", ("self",))).source


def test_an_attribute_the_original_holds_but_cannot_write_is_never_asserted_absent() -> None:
    locked, unlocked = Dict(y=1), Dict(y=1)
    locked.guard = threading.Lock()  # no source builds it: left out of what the original holds
    unlocked.guard = None
    assert "guard" in observed_tree(locked, set())["left_out"]
    assert '"guard" in vars' not in _setitem_test(locked, unlocked)
    lacking = Dict(y=1)  # the mutant drops it: that it is there is asserted, not its value
    written = _setitem_test(locked, lacking)
    assert '    assert ("guard" in vars(dict_)) is True\n' in written
    compile(written, "test.py", "exec")


def test_an_exception_the_mutant_raises_a_subclass_of_is_asserted_by_its_exact_type() -> None:
    original = {"raised": {"module": "builtins", "qualname": "KeyError", "message": "'f'"}}
    subclass = {"raised": {"module": "tries", "qualname": "ShortKeyError", "message": "'f'"}}
    written = _method_test("__getitem__", ["f"], original, subclass)
    assert '    with pytest.raises(KeyError, match=r"\'f\'") as raised:\n        bag["f"]\n' in written
    assert "    assert raised.type is KeyError\n" in written
    returned = _method_test("__getitem__", ["f"], original, _returned(1))  # any KeyError tells it apart
    assert "    with pytest.raises(KeyError, match=r\"'f'\"):\n" in returned and "raised.type" not in returned


def test_a_warning_only_the_original_gives_is_expected_with_pytest_warns() -> None:
    warned = {**_returned(None), "warned": [["builtins", "DeprecationWarning"]]}
    call = {"self": None, "args": [], "kwargs": {}, "imports": []}
    located = Located(module="shapes", kind="function", qualname="old_size", parameters=[])
    witness = Witness(call, warned, _returned(None), "recorded", ("warned",))
    written = write_test(_MUTANT, ("en",), located, witness).source
    assert "    with pytest.warns(DeprecationWarning):\n        old_size()\n" in written
    compile(written, "test.py", "exec")
