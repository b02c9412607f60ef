"""The test written for a witness whose method was called through its class, on a `self` of another type."""

from mutcheck.catalog.catalog import Mutant
from mutcheck.harden.test_source import write_test
from mutcheck.harden.values import tree_of
from mutcheck.harden.witness import Witness

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
    located = {"module": "shapes", "kind": "method", "qualname": "Bag.union", "parameters": ["self", "other"]}
    original, mutant = {"result": tree_of("Bag", set())}, {"result": tree_of("list", set())}
    written = write_test(_MUTANT, ("en",), located, Witness(call, original, mutant, "variation", ("result",)))
    assert "    bag = [1, 2]\n    result = Bag.union(bag, [3])\n" in written.source
    assert ("shapes", "Bag") in written.imports
    compile(written.source, "test.py", "exec")


def test_a_bound_call_is_made_on_the_rebuilt_object() -> None:
    built = {"open": "Bag(", "close": ")", "items": [["", "", tree_of([1, 2], set())]]}
    call = {"self": built, "args": [tree_of([3], set())], "kwargs": {}, "imports": [["shapes", "Bag"]]}
    located = {"module": "shapes", "kind": "method", "qualname": "Bag.union", "parameters": ["self", "other"]}
    original, mutant = {"result": tree_of(3, set())}, {"result": tree_of(2, set())}
    written = write_test(_MUTANT, ("en",), located, Witness(call, original, mutant, "recorded", ("result",)))
    assert "    bag = Bag([1, 2])\n    result = bag.union([3])\n" in written.source
