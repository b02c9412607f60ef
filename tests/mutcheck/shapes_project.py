"""A fixture project in the shapes real libraries have: a functools.wraps decorator, a contextmanager,
an lru_cache whose later test is answered from the cache, @overload stubs, a closure made at import, a
table built at import, a property setter, a guard whose mutant segfaults its test, a test that
reloads its module, a code object saved at import and made into a function later, a CLI that a
test runs in a subprocess, a nested function whose edit changes what it closes over, a class made
inside a function, a method's last `super()` deleted, and an async twin of a function in another
file. Each catalog entry names the tests a plain pytest run fails under it."""

from pathlib import Path

from tests.mutcheck.engine_project import pyproject

SOURCE = '''\
"""History helpers in the shapes real libraries have."""

import contextlib
import ctypes
import functools
import types
from typing import overload


def logged(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return function(*args, **kwargs)

    return wrapper


@logged
def merge_runs(messages):
    merged = []
    for message in messages:
        if merged and merged[-1]["role"] == message["role"]:
            merged[-1] = {**merged[-1], "content": merged[-1]["content"] + message["content"]}
        else:
            merged.append(dict(message))
    return merged


@contextlib.contextmanager
def episode(log, name):
    log.append(f"open {name}")
    yield log
    if name:
        log.append(f"close {name}")


@functools.lru_cache
def roles(kind):
    if kind == "chat":
        return ("user", "assistant")
    return ("user",)


@overload
def convert(value: int) -> int: ...
@overload
def convert(value: str) -> str: ...
def convert(value):
    if isinstance(value, str):
        return value.upper()
    return value + 1


def tagger(tag):
    def tagged(text):
        if text.startswith(tag):
            return text
        return tag + text

    return tagged


shout = tagger("!")


def build_table():
    return {kind: len(kind) for kind in ("chat", "plain") if kind}


TABLE = build_table()


class Box:
    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, value):
        self._size = value if value >= 0 else 0


def read_byte(address):
    if address == 0:
        return None
    return ctypes.string_at(address)


def sign(number):
    return "+" if number >= 0 else "-"


def increment(number):
    return number + 1


_SAVED = increment.__code__


def rebuilt_increment():
    return types.FunctionType(_SAVED, globals())


def join_turns(events):
    turns = []
    buffer = []

    def flush():
        if buffer:
            turns.append("".join(buffer))
            buffer.clear()

    for event in events:
        if event == "|":
            flush()
        else:
            buffer.append(event)
    flush()
    return turns


def counter_class(start):
    class Counter:
        first = start + 0

        def next(self):
            return self.first

    return Counter


class Speaker:
    def describe(self):
        return "speaker"


class Loud(Speaker):
    def describe(self):
        return super().describe().upper()


def preview(text):
    return text[:3]
'''

# the async twin of a function of history.py: the same qualified name, in another file
TWIN = """\
async def preview(text):
    return text[:3]
"""

CLI = """\
import sys


def shout(text):
    if text.endswith("!"):
        return text
    return text + "!"


if __name__ == "__main__":
    print(shout(sys.argv[1]))
"""

TESTS = """\
import asyncio
import importlib
import os
import subprocess
import sys
from pathlib import Path

import history
import twin
from history import (
    TABLE,
    Box,
    Loud,
    convert,
    counter_class,
    episode,
    join_turns,
    merge_runs,
    read_byte,
    rebuilt_increment,
    roles,
    shout,
)


def test_merge_runs_joins_one_speaker():
    assert merge_runs([{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]) == [
        {"role": "user", "content": "ab"}
    ]


def test_episode_closes():
    with episode([], "e") as log:
        pass
    assert log == ["open e", "close e"]


def test_roles_of_chat():
    assert roles("chat") == ("user", "assistant")


def test_roles_of_chat_again_from_the_cache():
    assert len(roles("chat")) == 2


def test_convert_text():
    assert convert("a") == "A"


def test_convert_a_number_in_another_directory(tmp_path):
    os.chdir(tmp_path)  # pytest leaves it so: the tests after this one run there too
    assert convert(1) == 2


def test_shout_adds_a_tag_once():
    assert shout("!hi") == "!hi"


def test_table_counts_letters():
    assert TABLE == {"chat": 4, "plain": 5}


def test_box_size_is_never_negative():
    box = Box()
    box.size = -3
    assert box.size == 0


def test_reading_address_zero_gives_nothing():
    assert read_byte(0) is None


def test_a_rebuilt_function_increments():
    assert rebuilt_increment()(1) == 2


def test_join_turns_splits_at_bars():
    assert join_turns("ab|c") == ["ab", "c"]


def test_a_local_class_starts_where_asked():
    assert counter_class(3)().next() == 3


def test_a_loud_speaker_shouts():
    assert Loud().describe() == "SPEAKER"


def test_a_preview_is_three_letters():
    assert history.preview("abcdef") == "abc"


def test_an_async_preview_is_three_letters():
    assert asyncio.run(twin.preview("abcdef")) == "abc"


def test_the_cli_adds_one_bang():
    source = Path(__file__).parents[1] / "src"
    command = [sys.executable, "-m", "cli", "hi"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=source)
    assert done.stdout == "hi!\\n"


# last: every test after a reload runs the module's new code objects
def test_sign_after_a_reload():
    module = importlib.reload(history)
    assert module.sign(0) == "+"
"""

# id, scope, match, replace, the tests that fail under it in a plain pytest run
ENTRIES = [
    ("WRAPS", "merge_runs", 'merged[-1]["role"] == message["role"]', "False", ["test_merge_runs_joins_one_speaker"]),
    ("CONTEXT", "episode", "name", "not name", ["test_episode_closes"]),
    (
        "CACHE",
        "roles",
        'kind == "chat"',
        'kind == "plain"',
        ["test_roles_of_chat", "test_roles_of_chat_again_from_the_cache"],
    ),
    (
        "OVERLOAD",
        "convert",
        "isinstance(value, str)",
        "not isinstance(value, str)",
        ["test_convert_text", "test_convert_a_number_in_another_directory"],
    ),
    ("CLOSURE", "tagger.tagged", "text.startswith(tag)", "False", ["test_shout_adds_a_tag_once"]),
    ("IMPORT", "build_table", "len(kind)", "len(kind) + 1", ["test_table_counts_letters"]),
    ("SETTER", "Box.size.setter", "value >= 0", "value <= 0", ["test_box_size_is_never_negative"]),
    ("SEGFAULT", "read_byte", "address == 0", "address == -1", ["test_reading_address_zero_gives_nothing"]),
    ("RELOAD", "sign", "number >= 0", "number > 0", ["test_sign_after_a_reload"]),
    ("SAVED", "increment", "number + 1", "number + 2", ["test_a_rebuilt_function_increments"]),
    # the nested function no longer closes over `turns`: the cells of join_turns change
    ("FREEVAR", "join_turns.flush", 'turns.append("".join(buffer))', "pass", ["test_join_turns_splits_at_bars"]),
    # a class body made at each call of the function around it
    ("LOCALCLASS", "counter_class.Counter", "start + 0", "start + 1", ["test_a_local_class_starts_where_asked"]),
    # the method no longer closes over the class cell that the class body made at import
    ("SUPER", "Loud.describe", "super().describe().upper()", '"speaker"', ["test_a_loud_speaker_shouts"]),
]
CLI_ENTRY = ("CLI", "shout", 'text.endswith("!")', "True", ["test_the_cli_adds_one_bang"])
TWIN_ENTRY = ("TWIN", "preview", "text[:3]", "text[:2]", ["test_an_async_preview_is_three_letters"])


def _entry(mutant_id: str, file: str, scope: str, match: str, replace: str, killers: list[str]) -> str:
    killed_by = ", ".join(f'"tests/test_history.py::{test}"' for test in killers)
    return f"""
[[mutant]]
id = "{mutant_id}"
family = "shapes"
file = "{file}"
scope = "{scope}"
match = '''{match}'''
replace = '''{replace}'''
killed_by = [{killed_by}]
origin = "shapes fixture"
title = {{ en = "{mutant_id}", zh = "{mutant_id}" }}
why = {{ en = "{mutant_id}", zh = "{mutant_id}" }}
"""


def make_shapes_project(root: Path) -> Path:
    # The mutant CONTEXT edits `name` in `if name:` only: its match must be the one `name` there.
    catalog = "".join(_entry(mutant_id, "src/history.py", *rest) for mutant_id, *rest in ENTRIES)
    catalog = catalog.replace(
        "match = '''name'''\nreplace = '''not name'''",
        "match = '''if name:\n    log.append(f\"close {name}\")'''\ndelete = true",
    )
    catalog += _entry(CLI_ENTRY[0], "src/cli.py", *CLI_ENTRY[1:])
    catalog += _entry(TWIN_ENTRY[0], "src/twin.py", *TWIN_ENTRY[1:])
    files = {
        # every warning an error, as strict projects have it: nothing of the run may warn inside the tests
        "pyproject.toml": pyproject("shapes-fixture", timeout_constant=2.0).replace(
            'pythonpath = ["src"]', 'pythonpath = ["src"]\nfilterwarnings = ["error"]'
        ),
        "src/history.py": SOURCE,
        "src/cli.py": CLI,
        "src/twin.py": TWIN,
        "tests/test_history.py": TESTS,
        "mutants/families.toml": '[family.shapes]\nen = "shapes"\nzh = "代码形态"\n',
        "mutants/shapes.toml": catalog,
        ".gitignore": "__pycache__/\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root
