"""Variations of recorded calls, guided by the mutant's edit: one leaf or one item changed at a time, bounded.

The edit says where to look: a constant it touches (a string such as `"anthropic/"`, a number) is
added to, removed from or put in place of the recorded strings and numbers; a flipped branch is
reached by flipping booleans, emptying, filling or leaving out (None) a string, filling an empty
mapping, dropping, repeating or reordering items. Each variation changes one place of one
recorded call, and there are at most `LIMIT` of them per mutant.
"""

import ast
import copy
import json
import textwrap
from collections.abc import Iterator
from typing import Any

from mutcheck.harden.values import format_tree, tree_of

LIMIT = 1000
_ITEMS = 6  # the first items of a container that are dropped or repeated one by one


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


def _places(tree: dict[str, Any], path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], dict[str, Any]]]:
    """Every node of a tree with its path (item indexes), depth first."""
    yield path, tree
    for index, (_, _, item) in enumerate(tree.get("items", [])):
        yield from _places(item, (*path, index))


def _at(tree: dict[str, Any], path: tuple[int, ...]) -> dict[str, Any]:
    for index in path:
        tree = tree["items"][index][2]
    return tree


def _near_edit(node: dict[str, Any], strings: list[str]) -> bool:
    """Whether a node's source holds one of the edit's strings (a key or value the edit reads)."""
    text = format_tree(node)
    return any(format_tree(tree_of(constant, set())) in text for constant in strings)


def _tree_variants(
    tree: dict[str, Any], strings: list[str], numbers: list[int], near: bool
) -> Iterator[dict[str, Any]]:
    """The variants at the places near the edit (`near`), deepest first, or at the others."""
    places = [(path, node) for path, node in _places(tree) if _near_edit(node, strings) == near]
    for path, node in sorted(places, key=lambda place: -len(place[0])):
        if "text" in node:
            try:
                value = ast.literal_eval(node["text"])
            except (ValueError, SyntaxError):
                continue
            for changed in _leaf_values(value, strings, numbers):
                variant = copy.deepcopy(tree)
                _at(variant, path)["text"] = format_tree(tree_of(changed, set()))
                yield variant
            continue
        items = node["items"]
        if not items and node["open"] == "{":  # an empty mapping filled: a guard on its truth is reached
            variant = copy.deepcopy(tree)
            _at(variant, path)["items"] = [['"key": ', '["key"]', {"text": '"value"'}]]
            yield variant
        for index in range(min(len(items), _ITEMS)):
            variant = copy.deepcopy(tree)
            del _at(variant, path)["items"][index]
            yield variant
            if node["open"] in ("[", "("):  # repeated: a guard against duplicates is reached
                variant = copy.deepcopy(tree)
                _at(variant, path)["items"].insert(index + 1, copy.deepcopy(items[index]))
                yield variant
        if len(items) > 1 and node["open"] in ("[", "("):
            variant = copy.deepcopy(tree)
            _at(variant, path)["items"].reverse()
            yield variant


def variations(calls: list[dict[str, Any]], strings: list[str], numbers: list[int]) -> list[dict[str, Any]]:
    """Up to LIMIT distinct calls, each a recorded call with one place changed (at each place, the
    edit's constants first): first at places near the edit, then elsewhere, round-robin over the
    calls so that every call gets some."""
    per_call = [_call_variants(call, strings, numbers, near) for near in (True, False) for call in calls]
    seen = {json.dumps(call, sort_keys=True) for call in calls}
    found: list[dict[str, Any]] = []
    while per_call and len(found) < LIMIT:
        for variants in [*per_call[: len(calls)]]:
            variant = next(variants, None)
            if variant is None:
                per_call.remove(variants)
                continue
            key = json.dumps(variant, sort_keys=True)
            if key not in seen and len(found) < LIMIT:
                seen.add(key)
                found.append(variant)
    return found


def _call_variants(
    call: dict[str, Any], strings: list[str], numbers: list[int], near: bool
) -> Iterator[dict[str, Any]]:
    base = {key: call[key] for key in ("self", "args", "kwargs", "imports")}
    for index, tree in enumerate(base["args"]):
        for variant in _tree_variants(tree, strings, numbers, near):
            yield {**base, "args": [*base["args"][:index], variant, *base["args"][index + 1 :]]}
    for name, tree in base["kwargs"].items():
        for variant in _tree_variants(tree, strings, numbers, near):
            yield {**base, "kwargs": {**base["kwargs"], name: variant}}
    if base["self"] is not None:
        for variant in _tree_variants(base["self"], strings, numbers, near):
            yield {**base, "self": variant}
