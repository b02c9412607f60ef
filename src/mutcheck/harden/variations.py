"""Variations of recorded calls, guided by the mutant's edit: one leaf or one item changed at a time, bounded.

The edit says where to look: a constant it touches (a string such as `"anthropic/"`, a number) is
added to, removed from or put in place of the recorded strings and numbers; a flipped branch is
reached by flipping booleans, putting another member of its enum in a member's place, emptying,
filling or leaving out (None) a string, filling an empty mapping, dropping, repeating or reordering
items, putting None in an item's place, giving a container's items in another kind of collection (a
set's as a list, a list's as a tuple; a collection's or a string's items as a one-pass iterator),
or calling a method through its class on the items its object was built from (guards on a type).
Two kinds of item seldom meet in one recorded call (a text part followed by an image, a call
carrying a signature): an item or a key that another recorded call holds at the same place is added
too. Each variation changes one place of one recorded call (or a string at every place that holds
it, as a model name passed and kept in an item's metadata is), and there are at most `LIMIT` of
them per call of `variations`.
"""

import ast
import copy
import json
import re
import textwrap
from collections.abc import Iterator
from typing import Any

from mutcheck.harden.values import Tree, format_tree, tree_of
from mutcheck.harden.wire import Call

LIMIT = 2000
_ITEMS = 6  # the first items of a container that are dropped or repeated one by one
_DONORS = 6  # items or keys from other recorded values added at one place

# the other kinds of collection a container's items are given in: a guard on the argument's type
# (`isinstance(other, set)`, `set(other)` before a second pass, `len(other)`) is reached
_RETYPED = {
    "{": [("[", "]"), ("iter([", "])")],
    "frozenset({": [("[", "]"), ("iter([", "])")],
    "[": [("(", ")"), ("iter([", "])")],
    "(": [("[", "]"), ("iter([", "])")],
}

Shape = tuple[str, ...]  # an argument's name, then the accessors to a node, list indexes as [*]
Donors = dict[Shape, list[list[Any]]]  # the items recorded at each shape, each once


def edit_constants(*texts: str) -> tuple[list[str], list[int]]:
    """The string and integer constants in the edit's original and replacement code."""
    strings: list[str] = []
    numbers: list[int] = []
    for text in texts:
        try:
            tree = ast.parse(textwrap.dedent(text))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value not in strings:
                strings.append(node.value)
            elif isinstance(node, ast.Constant) and type(node.value) is int and node.value not in numbers:
                numbers.append(node.value)
    return strings, numbers


def _leaf_values(value: object, strings: list[str], numbers: list[int]) -> Iterator[object]:
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        for number in numbers:
            yield from (number, number - 1, number + 1)
        yield from (value + 1, value - 1, 0)
    elif isinstance(value, str):
        for constant in strings:
            if constant and constant in value:
                yield value.replace(constant, "", 1)
                yield value.replace(constant, constant.upper(), 1)
            else:
                yield from (constant, constant + value, value + constant)
        yield value + "x" if not value else ""
        yield None  # an optional name or model left out


def _places(tree: Tree, shape: Shape, path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Shape, Tree]]:
    """Every node of a tree with its path (item indexes) and shape, depth first."""
    yield path, shape, tree
    for index, (_, accessor, item) in enumerate(tree.get("items", [])):
        yield from _places(item, (*shape, re.sub(r"^\[\d+\]$", "[*]", accessor)), (*path, index))


def donors(calls: list[Call]) -> Donors:
    """The items of the lists, tuples and dicts of every recorded call, by shape: what a variation
    can add at the same shape of another call."""
    found: Donors = {}
    for call in calls:
        for slot, tree in _slots(call):
            for _, shape, node in _places(tree, (slot,)):
                for item in node.get("items", []):
                    if _kind(node) and item not in found.setdefault(shape, []):
                        found[shape].append(item)
    return found


def _slots(call: Call) -> Iterator[tuple[str, Tree]]:
    yield from ((str(index), tree) for index, tree in enumerate(call["args"]))
    yield from call["kwargs"].items()
    if call["self"] is not None:
        yield "self", call["self"]


def _kind(node: Tree) -> str:
    """ "sequence" for a list or plain tuple, "dict" for a dict, "" for anything else."""
    if node.get("open") in ("[", "("):
        return "sequence"
    if node.get("open") == "{" and all(accessor for _, accessor, _ in node["items"]):
        return "dict"  # a set's items have no accessor
    return ""


def _edited(tree: Tree, path: tuple[int, ...], items: list[list[Any]]) -> Tree:
    """A copy of the tree with the node at `path` holding `items` (a one-item tuple keeps its comma)."""
    variant = copy.deepcopy(tree)
    node = _at(variant, path)
    node["items"] = [copy.deepcopy(item) for item in items]  # a repeated item is a copy: it can change alone
    if node["open"] == "(":
        node["close"] = ",)" if len(items) == 1 else ")"
    return variant


def _with_node(tree: Tree, path: tuple[int, ...], node: Tree) -> Tree:
    """A copy of the tree with `node` in place of the node at `path`."""
    variant = copy.deepcopy(tree)
    replaced = _at(variant, path)
    replaced.clear()
    replaced.update(copy.deepcopy(node))
    return variant


def _changed_texts(text: str, edit: tuple[list[str], list[int]]) -> list[str]:
    """The sources of a literal leaf's changed values; ValueError or SyntaxError when it is none."""
    return [format_tree(tree_of(changed, set())) for changed in _leaf_values(ast.literal_eval(text), *edit)]


def _at(tree: Tree, path: tuple[int, ...]) -> Tree:
    for index in path:
        tree = tree["items"][index][2]
    return tree


def _near_edit(node: Tree, strings: list[str]) -> bool:
    """Whether a node's source holds one of the edit's strings (a key or value the edit reads)."""
    text = format_tree(node)
    return any(format_tree(tree_of(constant, set())) in text for constant in strings)


def _tree_variants(
    tree: Tree, shape: Shape, edit: tuple[list[str], list[int]], pool: Donors, near: bool
) -> Iterator[Tree]:
    """The variants at the places near the edit (`near`), or at the others: one from each place in
    turn, deepest first, so that a bounded run reaches every place."""
    places = sorted(_places(tree, shape), key=lambda place: -len(place[0]))
    at_places = [_variants_at(tree, path, place_shape, node, edit, pool, near) for path, place_shape, node in places]
    while at_places:
        for variants in [*at_places]:
            variant = next(variants, None)
            if variant is None:
                at_places.remove(variants)
            else:
                yield variant


def _variants_at(
    tree: Tree,
    path: tuple[int, ...],
    shape: Shape,
    node: Tree,
    edit: tuple[list[str], list[int]],
    pool: Donors,
    near: bool,
) -> Iterator[Tree]:
    """At one place: the items or keys other calls hold there (near when they hold the edit's
    strings), then its own changes."""
    place_near = _near_edit(node, edit[0])
    for item in _additions(node, pool.get(shape, [])):
        if (place_near or _near_edit(item[2], edit[0])) == near:
            yield _edited(tree, path, [*node["items"], item])
            if _kind(node) == "sequence":
                yield _edited(tree, path, [item, *node["items"]])
    if place_near == near:
        yield from _place_variants(tree, path, node, edit, unwrap=shape[:1] != ("self",) or bool(path))


def _additions(node: Tree, recorded: list[list[Any]]) -> list[list[Any]]:
    """The items recorded at this shape in other calls that the node lacks: for a dict, keys it has not."""
    kind = _kind(node)
    if kind == "dict":
        keys = {accessor for _, accessor, _ in node["items"]}
        return [item for item in recorded if item[1] not in keys][:_DONORS]
    if kind == "sequence":
        trees = [item[2] for item in node["items"]]
        return [item for item in recorded if item[2] not in trees][:_DONORS]
    return []


def _place_variants(
    tree: Tree, path: tuple[int, ...], node: Tree, edit: tuple[list[str], list[int]], unwrap: bool
) -> Iterator[Tree]:
    """One leaf changed, or one container's items dropped, repeated, reversed or an empty mapping filled,
    or (`unwrap`) an object built from a collection given as that collection instead."""
    if "text" in node:
        try:
            texts = _changed_texts(node["text"], edit)
        except (ValueError, SyntaxError):
            texts = node.get("others", [])  # an enum member: another member of its enum
        for text in texts:
            yield _with_node(tree, path, {**node, "text": text})
        if _is_string(node["text"]) and len(ast.literal_eval(node["text"])) > 1:  # its characters, one pass
            yield _with_node(tree, path, {"text": f"iter({node['text']})"})
        return
    held = _held(node)
    if unwrap and held is not None:  # `setlist([1, 2])` passed as `[1, 2]`, and as a one-pass iterator
        yield _with_node(tree, path, held)
        if held["open"] == "[":
            yield _with_node(tree, path, _retyped(held["items"], "iter([", "])"))
    items = node["items"]
    # an item or field of another type, or an object passed as an argument (not `self`) given as None:
    # a guard on its type (`isinstance(x, dict)`, `isinstance(other, Interval)`) is reached
    if path or (unwrap and node["open"].endswith("(") and node["open"] != "("):
        yield _with_node(tree, path, {"text": "None"})
    for open_, close in _RETYPED.get(node["open"], ()) if _kind(node) != "dict" else ():
        yield _with_node(tree, path, _retyped(items, open_, close))
    if not items and node["open"] == "{":  # an empty mapping filled: a guard on its truth is reached
        yield _edited(tree, path, [['"key": ', '["key"]', {"text": '"value"'}]])
    for index in range(min(len(items), _ITEMS)):
        yield _edited(tree, path, items[:index] + items[index + 1 :])
        if _kind(node) == "sequence":  # repeated: a guard against duplicates is reached
            yield _edited(tree, path, [*items[: index + 1], items[index], *items[index + 1 :]])
    if len(items) > 1 and _kind(node) == "sequence":
        yield _edited(tree, path, items[::-1])


def _retyped(items: list[list[Any]], open_: str, close: str) -> Tree:
    """The same items in another kind of collection (a set's as a list, a list's as a one-pass iterator)."""
    accessor = "[{}]" if open_ in ("[", "(") else ""
    if open_ == "(" and len(items) == 1:
        close = ",)"
    retyped = [[prefix, accessor.format(index), item] for index, (prefix, _, item) in enumerate(items)]
    return {"open": open_, "close": close, "items": retyped}


def _held(node: Tree) -> Tree | None:
    """The list, set or dict an object's source builds it from (`OrderedSet([1, 2])`), if that is all it takes."""
    if node.get("open", "(") == "(" or not node["open"].endswith("(") or len(node["items"]) != 1:
        return None
    prefix, _, held = node["items"][0]
    return held if not prefix and held.get("open") in ("[", "{") else None


def _unbound_self(call: Call) -> Iterator[Call]:
    """A method called through its class on the collection its object was built from
    (`OrderedSet.union([1, 2], ...)`): a guard on the type of `self` is reached."""
    held = None if call["self"] is None or call.get("unbound") else _held(call["self"])
    if held is not None:
        yield {**call, "self": held, "unbound": True}


def variations(
    calls: list[Call],
    strings: list[str],
    numbers: list[int],
    pool: Donors | None = None,
    known: list[Call] | None = None,
) -> list[Call]:
    """Up to LIMIT distinct calls, each one of `calls` (its index is the variant's `parent`) with one
    place changed (at each place, the edit's constants first): first at places near the edit, then
    elsewhere, round-robin over the calls so that every call gets some. The items added come from
    `pool` (by default, the calls' own); a call in `known` is not made again."""
    pool = donors(calls) if pool is None else pool
    per_call = [
        (parent, _call_variants(call, (strings, numbers), pool, near))
        for near in (True, False)
        for parent, call in enumerate(calls)
    ]
    seen = {_key(call) for call in [*calls, *(known or [])]}
    found: list[Call] = []
    while per_call and len(found) < LIMIT:
        for parent, variants in [*per_call[: len(calls)]]:
            variant = next(variants, None)
            if variant is None:
                per_call.remove((parent, variants))
                continue
            key = _key(variant)
            if key not in seen and len(found) < LIMIT:
                seen.add(key)
                found.append({**variant, "parent": parent})
    return found


def _key(call: Call) -> str:
    return json.dumps({name: call.get(name) for name in ("self", "args", "kwargs", "class")}, sort_keys=True)


def novel(varied: list[Call], varied_lines: list[list[int]], parents_lines: list[list[int]]) -> list[Call]:
    """The variations that ran a line of the function their recorded call did not (each new set of
    lines once): those worth a second change, as a fuzzer keeps the inputs that reach new code."""
    found, seen = [], set()
    for variant, lines in zip(varied, varied_lines, strict=True):
        new = frozenset(lines) - set(parents_lines[variant["parent"]])
        if new and (variant["parent"], new) not in seen:
            seen.add((variant["parent"], new))
            found.append({name: value for name, value in variant.items() if name != "parent"})
    return found


def _call_variants(call: Call, edit: tuple[list[str], list[int]], pool: Donors, near: bool) -> Iterator[Call]:
    base = {key: call[key] for key in ("self", "args", "kwargs", "imports", "unbound", "class") if key in call}
    yield from _everywhere(base, edit, near)
    if not near:
        yield from _unbound_self(base)
    for index, tree in enumerate(base["args"]):
        for variant in _tree_variants(tree, (str(index),), edit, pool, near):
            yield {**base, "args": [*base["args"][:index], variant, *base["args"][index + 1 :]]}
    for name, tree in base["kwargs"].items():
        for variant in _tree_variants(tree, (name,), edit, pool, near):
            yield {**base, "kwargs": {**base["kwargs"], name: variant}}
    if base["self"] is not None:
        for variant in _tree_variants(base["self"], ("self",), edit, pool, near):
            yield {**base, "self": variant}


def _everywhere(call: Call, edit: tuple[list[str], list[int]], near: bool) -> Iterator[Call]:
    """A string the call holds at more than one place (a model name passed as an argument and kept in
    an item's metadata), changed at all of them at once: a guard comparing the two is reached."""
    found: dict[str, int] = {}
    for _, tree in _slots(call):
        for _, _, node in _places(tree, ()):
            if _is_string(node.get("text", "")):
                found[node["text"]] = found.get(node["text"], 0) + 1
    for text, count in found.items():
        if count < 2 or _near_edit({"text": text}, edit[0]) != near:
            continue
        for replacement in _changed_texts(text, edit):
            yield _replaced(call, text, replacement)


def _replaced(value: Any, text: str, replacement: str) -> Any:
    """A copy of a call or tree with every leaf written `text` written `replacement`."""
    if isinstance(value, dict):
        if value.get("text") == text and "items" not in value:
            return {**value, "text": replacement}
        return {key: _replaced(item, text, replacement) for key, item in value.items()}
    if isinstance(value, list):
        return [_replaced(item, text, replacement) for item in value]
    return value


def _is_string(text: str) -> bool:
    """Whether a leaf's source is a string literal (quoted either way)."""
    try:
        return isinstance(ast.literal_eval(text), str)
    except (ValueError, SyntaxError):
        return False  # an enum member, a constructor
