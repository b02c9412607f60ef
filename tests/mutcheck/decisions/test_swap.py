"""Code swapping decided in process: which code objects a mutant changes, which live functions carry
them (found by their code, however they are held), and the marker that proves the mutated code ran."""

import ast
from pathlib import Path

import pytest

from mutcheck.core.module_scope import reach_name
from mutcheck.host.swap import (
    LiveFunctions,
    code_fingerprint,
    evidence_code,
    marked_module,
    prepare_swap,
    swap_chain,
    swap_unit,
)
from tests.mutcheck.decisions.loaded import load

DECORATED = """\
import functools


def logged(function):
    @functools.wraps(function)
    def wrapper(*args):
        return function(*args)

    return wrapper


def tagger(tag):
    def tagged(text):
        return tag + text

    return tagged


shout = tagger("!")


@logged
def double(n):
    return n * 2


@functools.lru_cache
def square(n):
    return n * n


class Box:
    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, value):
        self._size = value
"""


def compiled(source: str):
    return compile(source, "m.py", "exec", dont_inherit=True)


def test_a_frozenset_constant_is_compared_whatever_its_order():
    """The command compiles the mutant, the host its original: their string hashes, and so a
    frozenset's order, differ. 1 and 9 share a slot, so insertion order decides the iteration."""
    code = compiled("def f(x):\n    return x in {1, 9}")
    function = code.co_consts[0]
    first = function.replace(
        co_consts=tuple(frozenset([1, 9]) if isinstance(c, frozenset) else c for c in function.co_consts)
    )
    second = function.replace(
        co_consts=tuple(frozenset([9, 1]) if isinstance(c, frozenset) else c for c in function.co_consts)
    )
    assert repr([c for c in first.co_consts if isinstance(c, frozenset)]) != repr(
        [c for c in second.co_consts if isinstance(c, frozenset)]
    )
    in_the_command = code_fingerprint(first)
    code_fingerprint.cache_clear()  # another process: no fingerprint of an equal code object to reuse
    assert in_the_command == code_fingerprint(second)


@pytest.mark.parametrize(
    ("mutated", "innermost"),
    [
        (DECORATED.replace("return n * 2", "return n * 3"), "double"),
        (DECORATED.replace("return tag + text", "return text + tag"), "tagger.<locals>.tagged"),
        (DECORATED.replace("self._size = value", "self._size = -value"), "Box.size"),
        # the closure loses its free variable: tagger makes no cell for it any more, so tagger changed
        (DECORATED.replace("        return tag + text", "        return text"), "tagger"),
        # a nested function's default is made when its enclosing function runs
        (DECORATED.replace("def tagged(text):", "def tagged(text=None):"), "tagger"),
    ],
)
def test_a_change_inside_a_function_body_is_swapped_there(mutated, innermost):
    chain = swap_chain(compiled(DECORATED), compiled(mutated))
    assert chain is not None and chain[-1][0].co_qualname == innermost


@pytest.mark.parametrize(
    "mutated",
    [
        DECORATED.replace("def double(n):", "def double(n=1):"),  # a default: made when the module runs
        DECORATED.replace("shout = tagger", "shout = tagger('?') or tagger"),  # a module statement
        DECORATED.replace("@logged\ndef double", "def double"),  # a decorator
        DECORATED.replace("class Box:\n", "class Box:\n    limit = 3\n"),  # a class statement
    ],
)
def test_a_change_outside_one_function_body_is_not_swapped(mutated):
    original, changed = compiled(DECORATED), compiled(mutated)
    assert code_fingerprint(original) != code_fingerprint(changed)
    assert swap_chain(original, changed) is None


@pytest.mark.parametrize(
    "mutated",
    [
        DECORATED.replace("    return wrapper\n", "    return wrapper if function else None\n    # one line more\n"),
        DECORATED.replace("        self._size = value", "        pass"),  # the setter assigns no attribute
    ],
)
def test_what_a_class_records_of_its_own_source_does_not_stop_a_swap(mutated):
    """Python 3.13 stores a class body's first line and the attributes its methods assign as constants
    of the class body: a function edited above it, or a method that stops assigning, is still one
    function body's change (earlier Pythons record neither)."""
    assert swap_chain(compiled(DECORATED), compiled(mutated)) is not None


def test_a_change_in_a_lambda_is_marked_in_the_function_that_makes_it():
    """A lambda has no statement to hold the marker; it runs only inside the function that holds it."""
    source = "def sort_by_size(parts):\n    return sorted(parts, key=lambda part: len(part))\n"
    mutated = source.replace("len(part)", "-len(part)")
    chain = swap_chain(compiled(source), compiled(mutated))
    assert chain[-1][0].co_qualname == "sort_by_size.<locals>.<lambda>"
    assert evidence_code(chain).co_qualname == "sort_by_size"
    assert marked_module(ast.parse(mutated), "m.py", compiled(source), compiled(mutated)) is not None


def test_a_swap_lies_inside_the_scope_that_selects_its_tests():
    mutated = compiled(DECORATED.replace("return tag + text", "return text + tag"))
    assert swap_unit(compiled(DECORATED), mutated, "tagger") == "tagger.<locals>.tagged"
    assert swap_unit(compiled(DECORATED), mutated, "double") is None


def test_a_nested_function_s_edit_that_changes_its_cells_is_swapped_in_the_function_around_it():
    """Deleting the closure's only use of `tag` changes what tagger makes cells for: tagger carries it."""
    mutated = compiled(DECORATED.replace("        return tag + text", "        return text"))
    assert swap_unit(compiled(DECORATED), mutated, "tagger.<locals>.tagged") == "tagger"
    assert swap_unit(compiled(DECORATED), mutated, "logged.<locals>.wrapper") is None  # not its holder


def test_a_nested_function_s_default_is_not_swapped_as_its_own_edit():
    """tagger evaluates the default each time it runs, where tests that never call the closure see it."""
    mutated = compiled(DECORATED.replace("def tagged(text):", "def tagged(text=None):"))
    assert swap_unit(compiled(DECORATED), mutated, "tagger.<locals>.tagged") is None


LOCAL_CLASS = """\
def counter_class(start):
    class Counter:
        first = start + 0

        def next(self):
            return self.first

    return Counter


class Settings:
    first = 0
"""


def test_a_class_body_made_inside_a_function_is_swapped_in_that_function():
    mutated = compiled(LOCAL_CLASS.replace("start + 0", "start + 1"))
    chain = swap_chain(compiled(LOCAL_CLASS), mutated)
    assert chain is not None and chain[-1][0].co_qualname == "counter_class"
    assert swap_unit(compiled(LOCAL_CLASS), mutated, "counter_class.<locals>.Counter") == "counter_class"
    # a class made at import has no function around it to carry the edit
    assert swap_chain(compiled(LOCAL_CLASS), compiled(LOCAL_CLASS.replace("first = 0", "first = 1"))) is None


def test_live_functions_are_found_by_their_code_whatever_holds_them(tmp_path):
    module, path = load(tmp_path, DECORATED, "decorated_live")
    live = LiveFunctions([path])
    original = compiled(DECORATED)
    code = {c.co_qualname: c for c in _every_code(original)}
    assert live.carrying(path, code["double"]) == [module.double.__wrapped__]  # behind functools.wraps
    assert live.carrying(path, code["tagger.<locals>.tagged"]) == [module.shout]  # a closure made at import
    setter = next(c for c in _every_code(original) if c.co_qualname == "Box.size" and c.co_argcount == 2)
    assert live.carrying(path, setter) == [module.Box.size.fset]  # not the getter, whose name it shares
    assert (reach_name(path, "square"), module.square) in live.caches


def test_a_swapped_closure_made_at_import_runs_the_mutant_and_its_marker_counts(tmp_path):
    module, path = load(tmp_path, DECORATED, "decorated_swap")
    mutated_source = DECORATED.replace("return tag + text", "return text + tag")
    marked = marked_module(ast.parse(mutated_source), path, compiled(DECORATED), compiled(mutated_source))
    original = compile(Path(path).read_text(), path, "exec", dont_inherit=True)
    swap, reason = prepare_swap(LiveFunctions([path]), path, original, marked, "tagger.<locals>.tagged")
    assert reason is None
    assert swap.evidence == reach_name(path, "tagger.<locals>.tagged")
    before = swap.marker.count()
    swap.apply()
    assert module.shout("hi") == "hi!"
    assert module.tagger("?")("a") == "a?"  # one made after the swap is the mutant too
    assert swap.marker.count() == before + 2


def test_a_function_no_live_object_carries_cannot_be_swapped(tmp_path):
    source = "def helper():\n    return 1\n\n\ndel helper\n"
    _, path = load(tmp_path, source, "deleted_helper")
    mutated = source.replace("return 1", "return 2")
    marked = marked_module(ast.parse(mutated), path, compiled(source), compiled(mutated))
    original = compile(source, path, "exec", dont_inherit=True)
    assert prepare_swap(LiveFunctions([path]), path, original, marked, "helper") == (None, "no-live-function")


def _every_code(code):
    yield code
    for constant in code.co_consts:
        if hasattr(constant, "co_code"):
            yield from _every_code(constant)
