"""The fixture project `mutcheck harden` is tried on: its source, its tests and the known gaps of
its catalog, one per case harden must handle."""

from pathlib import Path

from tests.mutcheck.engine_project import families, pyproject

SOURCE = '''\
"""History helpers: the harden fixture's target."""

import os
import random
from dataclasses import dataclass, field

DEFAULT_SIZE = 10

@dataclass
class Tracker:
    seen: list = field(default_factory=list)
    is_open: bool = False

    def close(self):
        if not self.is_open:
            return
        self.seen.append("closed")
        self.is_open = False


def merge_blocks(blocks):
    """Blocks in order, a repeated id dropped: the first wins."""
    seen = set()
    kept = []
    for block in blocks:
        if block.get("id") in seen:
            continue
        seen.add(block.get("id"))
        kept.append(block)
    return kept


def stamp(events):
    return {"events": list(events), "nonce": random.random()}


def held(lock):
    if lock.locked():
        return "held"
    return "free"


def pairs(items):
    for index in range(0, len(items) - 1, 2):
        yield items[index], items[index + 1]


async def doubled(number):
    return number * 2 if number > 0 else -1


async def halved(number):
    if number < 0:
        raise ValueError("a negative number has no half here")
    return number // 2


class Window:
    """The last `size` messages of a history (a plain class: compared by identity)."""

    def __init__(self, size, messages=None):
        if size <= 0:
            raise ValueError(f"size must be positive, not {size}")
        self.size = size
        self._messages = list(messages or [])

    def push(self, message):
        if message in self._messages:
            return
        self._messages.append(message)

    def recent(self):
        if len(self._messages) <= self.size:
            return list(self._messages)
        return self._messages[-self.size :]

    @property
    def full(self):
        return len(self._messages) >= self.size


def data_path(name):
    return os.path.join(os.path.dirname(__file__), name)


def labels(items):
    def label(item):
        if item.get("done"):
            return "done"
        return "open"

    return [label(item) for item in items]


def role_of(message):
    role = message.get("role")
    if role not in ("user", "assistant"):
        raise ValueError(f"unknown role {role}")
    return role


def merged_texts(parts):
    """Consecutive text parts joined into one; an image part ends the run."""
    out = []
    for part in parts:
        if part["kind"] not in ("text", "image"):
            raise ValueError(f"unknown part {part['kind']}")
        if _is_text(part) and out and _is_text(out[-1]):
            out[-1] = {"kind": "text", "text": out[-1]["text"] + part["text"]}
        else:
            out.append(part)
    return out


def _is_text(part):
    return part["kind"] == "text"


def merged_turns(messages):
    """Consecutive messages of one role become one turn: a text part after a text part is joined to it."""
    out = []
    for message in messages:
        if out and out[-1]["role"] == message["role"]:
            for part in message["parts"]:
                last = out[-1]["parts"][-1]
                if part["type"] == "text" and last["type"] == "text":
                    out[-1]["parts"][-1] = {"type": "text", "text": last["text"] + part["text"]}
                else:
                    out[-1]["parts"].append(part)
        else:
            out.append({"role": message["role"], "parts": list(message["parts"])})
    return out
'''

TESTS = """\
import asyncio
import threading

import pytest

from histories import (
    Tracker,
    Window,
    data_path,
    doubled,
    halved,
    held,
    labels,
    merge_blocks,
    merged_texts,
    merged_turns,
    pairs,
    role_of,
    stamp,
)


def test_close_records_it():
    tracker = Tracker(is_open=True)
    tracker.close()
    assert tracker.seen == ["closed"]


def test_merge_keeps_distinct_blocks():
    assert merge_blocks([{"id": 1, "text": "a"}, {"id": 2, "text": "b"}]) == [
        {"id": 1, "text": "a"},
        {"id": 2, "text": "b"},
    ]


def test_stamp_keeps_the_events():
    assert stamp(["a"])["events"] == ["a"]


def test_held_answers():
    assert held(threading.Lock()) in ("held", "free")


def test_pairs_pairs():
    assert list(pairs([1, 2])) == [(1, 2)]


def test_doubled():
    assert asyncio.run(doubled(2)) == 4


def test_labels_one_per_item():
    assert len(labels([{"done": True}])) == 1


def test_role_of_a_user():
    assert role_of({"role": "user"}) == "user"


def test_merged_texts_joins_texts():
    texts = [{"kind": "text", "text": "a"}, {"kind": "text", "text": "b"}]
    assert merged_texts(texts) == [{"kind": "text", "text": "ab"}]


def test_merged_texts_keeps_an_image():
    assert merged_texts([{"kind": "image", "url": "u"}]) == [{"kind": "image", "url": "u"}]


def test_merged_turns_keeps_two_roles_apart():
    user = {"role": "user", "parts": [{"type": "text", "text": "a"}]}
    assistant = {"role": "assistant", "parts": [{"type": "text", "text": "b"}]}
    assert len(merged_turns([user, assistant])) == 2


def test_window_keeps_a_message_once():
    window = Window(2)
    window.push("a")
    window.push("a")
    assert window.size == 2


def test_window_recent():
    assert Window(2, ["a", "b"]).recent() == ["a", "b"]


def test_window_full():
    assert Window(1, ["a"]).full in (True, False)


@pytest.mark.anyio
async def test_halved():
    assert await halved(4) == 2


def test_data_path_names_the_file():
    assert data_path("a.txt").endswith("a.txt")
"""


def gap_entry(mutant_id: str, scope: str, match: str, replace: str | None) -> str:
    """A catalog entry of a known gap."""
    edit = f"replace = {replace!r}" if replace is not None else "delete = true"
    return f"""
[[mutant]]
id = "{mutant_id}"
family = "guard"
file = "src/histories.py"
scope = "{scope}"
match = {match!r}
{edit}
origin = "harden fixture"
title = {{ en = "{mutant_id} broken", zh = "{mutant_id} 被破坏" }}
why = {{ en = "the guard of {scope}", zh = "{scope} 的守护" }}
survives = {{ en = "no test asserts it", zh = "没有测试断言它" }}
"""


MUTANTS = {
    # id: (scope, match, replacement or None to delete), and what harden must end with
    "M-STATE": ("Tracker.close", "self.is_open = False", None),
    "M-DEDUPE": ("merge_blocks", 'seen.add(block.get("id"))', None),
    "M-SKIP": ("merge_blocks", 'block.get("id") in seen', "False"),  # M-DEDUPE's test kills it too
    "M-STAMP": ("stamp", "list(events)", "events"),
    "M-LOCK": ("held", "lock.locked()", "True"),
    "M-PAIRS": ("pairs", "len(items) - 1", "len(items)"),
    "M-ASYNC": ("doubled", "number > 0", "number >= 0"),
    "M-NESTED": ("labels.label", 'item.get("done")', "False"),
    "M-ROLE": ("role_of", 'role not in ("user", "assistant")', "False"),
    # only a text after an image tells: no recorded call holds both, the other one's item is added
    "M-MERGE": ("merged_texts", "_is_text(part) and out and _is_text(out[-1])", "_is_text(part) and out"),
    # two changes at once: two messages of one role (the recorded call has two roles), the first not text
    "M-TURNS": ("merged_turns", 'part["type"] == "text" and last["type"] == "text"', 'part["type"] == "text"'),
    # a method of a plain class: `self` written by the constructor call that made it, or (changed
    # since) by its constructor given its attributes; a constructor's guard as a call of the class
    "M-PUSH": ("Window.push", "message in self._messages", "False"),
    "M-RECENT": ("Window.recent", "len(self._messages) <= self.size", "True"),
    "M-SIZE": ("Window.__init__", "size <= 0", "False"),
    "M-FULL": ("Window.full", "len(self._messages) >= self.size", "len(self._messages) > self.size"),
    # a coroutine whose tests are marked for anyio; the original's result is a path of the scratch copy
    "M-HALVED": ("halved", "number < 0", "False"),
    "M-PATH": ("data_path", "os.path.dirname(__file__)", '"."'),
    # module-level code: no call to record, known before any test runs
    "M-DEFAULT": ("<module>", "DEFAULT_SIZE = 10", "DEFAULT_SIZE = 11"),
}


def make_harden_project(root: Path, catalog: str) -> Path:
    """The fixture project at `root` with `catalog` as its one catalog file."""
    (root / "src").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "mutants").mkdir()
    (root / "pyproject.toml").write_text(pyproject("harden-fixture", timeout_constant=5.0), encoding="utf-8")
    (root / "src" / "histories.py").write_text(SOURCE, encoding="utf-8")
    (root / "tests" / "test_histories.py").write_text(TESTS, encoding="utf-8")
    (root / "mutants" / "families.toml").write_text(families("guard", "guards", "守护"), encoding="utf-8")
    (root / "mutants" / "histories.toml").write_text(catalog, encoding="utf-8")
    return root
