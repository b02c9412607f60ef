"""Witnesses: calls whose replay on the mutant does something the original does not, and why a call is no witness."""

import dataclasses
import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from mutcheck.harden.wire import Call, Observed

RECORDED, VARIATION, TWO_CHANGES = "recorded", "variation", "two-changes"
SAME = "the mutant does what the original does"
UNBUILDABLE = "its source does not build the arguments again"
UNWRITABLE_RESULT = "the original's result cannot be written as source"
UNSTEADY = "non-deterministic: two replays of the original differ (a time, a random value, an id?)"
NOT_REPRODUCED = "replayed from source, the original does not do what it did under the tests"
UNFINISHED = "a replay did not finish (the mutant may loop forever: no test can be written for that)"
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")  # an object's id in a repr: another in every run


@dataclass(frozen=True)
class Witness:
    call: Call  # self, args, kwargs (trees) and the imports they need
    original: Observed  # what the original did: result or raised, after, and their imports
    mutant: Observed
    origin: str  # RECORDED, VARIATION or TWO_CHANGES
    differs: tuple[str, ...]  # "result", "raised", or the name of an argument changed in place

    @property
    def size(self) -> int:
        return len(json.dumps(self.call)) + len(json.dumps(self.original.get("result")))


def _observable(outcome: Observed) -> Observed:
    """What a test can assert of a call: its value, the type it raised (messages are left out:
    they are worded, not behaviour), the categories of the warnings it gave, the arguments afterwards."""
    raised = outcome.get("raised")
    return {
        "result": _unordered(outcome.get("result")),
        "raised": None if raised is None else (raised["module"], raised["qualname"]),
        "warned": [tuple(pair) for pair in outcome.get("warned", [])],
        "after": {name: _unordered(tree) for name, tree in outcome.get("after", {}).items()},
    }


def _unordered(tree: Any) -> Any:
    """A tree with each mapping's items in one order: `==` on a dict (a defaultdict, a Counter) does
    not see the order its keys came in, which a set's iteration (another in each process) decides."""
    if not isinstance(tree, dict) or "items" not in tree:
        return tree
    items = [[prefix, accessor, _unordered(item)] for prefix, accessor, item in tree["items"]]
    if tree["open"].endswith("{") and not tree["open"].startswith("collections.OrderedDict"):
        items.sort(key=lambda item: (item[1], json.dumps(item[2], sort_keys=True)))
    return {**tree, "items": items}


def differences(original: Observed, mutant: Observed) -> tuple[str, ...]:
    """Which observable parts of two outcomes differ."""
    first, second = _observable(original), _observable(mutant)
    found = [part for part in ("result", "raised", "warned") if first[part] != second[part]]
    names = sorted(set(first["after"]) | set(second["after"]))
    found += [name for name in names if first["after"].get(name) != second["after"].get(name)]
    return tuple(found)


def _settled_message(rounds: list[Observed]) -> Observed:
    """The first replay's outcome; its exception's message left out (None) when the replays' differ."""
    first = rounds[0]
    raised = first.get("raised")
    if raised is None or all((other.get("raised") or {}).get("message") == raised["message"] for other in rounds):
        return first
    return {**first, "raised": {**raised, "message": None}}


def without_places(witness: Witness, places: tuple[str, ...]) -> Witness | None:
    """The witness as a test can hold it wherever it lives: None when its call or what the original
    gave holds one of `places` (the scratch copy's or the checkout's path, which differ where the test
    runs, or a memory address); an exception message holding one is left out of the test."""
    outcome = {name: witness.original.get(name) for name in ("result", "after")}
    text = json.dumps([witness.call, outcome])
    if any(place in text for place in places) or _ADDRESS.search(text):
        return None
    raised = witness.original.get("raised")
    message = (raised or {}).get("message") or ""
    if raised is not None and (any(place in message for place in places) or _ADDRESS.search(message)):
        return dataclasses.replace(witness, original={**witness.original, "raised": {**raised, "message": None}})
    return witness


def witnesses(
    calls: list[Call],
    originals: list[list[Observed]],
    mutants: list[list[Observed]],
    origin: str,
    skipped: Counter[str],
) -> list[Witness]:
    """The calls that tell the mutant from the original; `skipped` counts why each other call is none.

    A call counts only when the original did the same on every replay (and, for a recorded call,
    what it did under the tests): a value that changes from run to run (a time, a random number,
    an id) is no witness, nor is a call whose source does not build what the tests passed.
    """
    found = []
    for call, rounds, (mutant,) in zip(calls, originals, mutants, strict=True):
        first = rounds[0]
        if any("unbuildable" in outcome for outcome in (*rounds, mutant)):
            skipped[UNBUILDABLE] += 1
        elif any("unfinished" in outcome for outcome in (*rounds, mutant)):
            skipped[UNFINISHED] += 1
        elif any(differences(first, other) for other in rounds[1:]):
            skipped[UNSTEADY] += 1
        elif "recorded" in call and set(differences(call["recorded"], first)) - {
            "warned"
        }:  # the tests' filters hid them
            skipped[NOT_REPRODUCED] += 1
        elif "unwritable" in first:
            skipped[f"{UNWRITABLE_RESULT} ({first['unwritable']})"] += 1
        elif differs := differences(first, mutant):
            found.append(Witness(call, _settled_message(rounds), mutant, origin, differs))
        else:
            skipped[SAME] += 1
    # A call the original refuses (raises on) tells the two apart too, but a reader learns more from a value
    return sorted(found, key=lambda witness: ("raised" in witness.original, witness.size))
