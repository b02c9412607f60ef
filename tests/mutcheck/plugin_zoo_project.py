"""A fixture project that uses twenty-odd of the most used pytest plugins at once, each in its usual
place (addopts, ini keys, marks, fixtures), with a catalog whose every verdict depends on one of
them: the run must equal one plain pytest run per mutant with all of them loaded.

The plugins, installed by `nox -s plugins` from `plugin_zoo_requirements.txt`: the entry's plugin decides its verdict
(`PLUGIN_OF`); pytest-cov, pytest-html, pytest-sugar and pytest-instafail shape every run (addopts,
the terminal reporter replaced), and pytest-xdist is loaded (its `-n` in addopts, switched off inside
a run, is `test_project_options.py`'s: here it would start two workers for each plain run)."""

import json
import random
import zlib
from pathlib import Path

from tests.mutcheck.engine_project import families, write_files

# the import names that tell they are installed
MODULES = [
    "anyio",
    "pytest_asyncio",
    "pytest_benchmark",
    "pytest_check",
    "pytest_cov",
    "pytest_env",
    "pytest_freezer",
    "pytest_html",
    "pytest_httpserver",
    "pytest_instafail",
    "pytest_metadata",
    "pytest_mock",
    "pytest_order",
    "pytest_randomly",
    "pytest_repeat",
    "pytest_rerunfailures",
    "pytest_socket",
    "pytest_sugar",
    "pytest_timeout",
    "xdist",
    "syrupy",
    "hypothesis",
]

SEED = 20261205  # pytest-randomly's, in addopts
PYPROJECT = f"""\
[project]
name = "plugin-zoo"
version = "0"

[tool.pytest.ini_options]
pythonpath = ["src"]
addopts = [
    "-p", "randomly", "--randomly-seed={SEED}",
    "--cov=zoo", "--cov-report=",
    "--disable-socket", "--allow-unix-socket",
    "--benchmark-disable",
    "--html=report.html", "--self-contained-html",
    "--metadata", "history", "v2",
    "--instafail",
]
env = ["HISTORY_WINDOW=3"]
asyncio_mode = "strict"
asyncio_default_fixture_loop_scope = "function"

[tool.mutcheck]
target = ["src"]
tests = ["tests"]
jobs = 2
timeout_factor = 2.0
timeout_constant = 6.0
"""

SOURCE = '''\
"""History helpers whose tests lean on pytest's plugins."""

import asyncio
import datetime
import os
import random
import socket
import urllib.request

REGISTRY = []
TURNS = {"turn": 0}
ATTEMPTS = {"count": 0}


async def merge_episodes(episodes):
    await asyncio.sleep(0)
    return [step for episode in episodes for step in episode]


async def first_signed(blocks):
    await asyncio.sleep(0)
    return next((block for block in blocks if block.get("signature")), None)


def clock():
    return 0


def stamp(block):
    return {**block, "at": clock()}


def wait_for_tool(calls):
    while not calls:
        pass
    return calls[0]


def reconnect():
    ATTEMPTS["count"] += 1
    return ATTEMPTS["count"] >= 2


def window(messages):
    return messages[-int(os.environ["HISTORY_WINDOW"]) :]


def pick_example(examples):
    return random.choice(examples)


def register(name):
    if REGISTRY and REGISTRY[0] != "first":
        raise ValueError("the first registration must come first")
    REGISTRY.append(name)
    return len(REGISTRY)


def _remote(key):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM):
        pass
    return {"r1": "thought"}.get(key, "")


def reasoning_text(block, cache={"r1": "thought"}):
    key = block["id"]
    if key in cache:
        return cache[key]
    return _remote(key)


def join_signatures(signatures):
    return "+".join(signatures)


def header(version):
    return f"history {version}"


def next_turn():
    TURNS["turn"] += 1
    return TURNS["turn"]


def tool_order(calls):
    return sorted(calls, key=lambda call: call["index"])


def render(turns):
    return " | ".join(f"{role}: {text}" for role, text in turns)


def age_days(day):
    return (datetime.date.today() - day).days


def fetch_signature(url):
    with urllib.request.urlopen(url) as response:
        return response.read().decode()


def dedupe(items):
    seen = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen
'''

CONFTEST = """\
from hypothesis import settings

settings.register_profile("fixture", derandomize=True, database=None, max_examples=50)
settings.load_profile("fixture")
"""

TESTS = {
    "test_async.py": """\
import pytest

from zoo import first_signed, merge_episodes


@pytest.mark.asyncio
async def test_episodes_merge_in_order():
    assert await merge_episodes([[1], [2, 3]]) == [1, 2, 3]


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_first_signed_block_is_found(anyio_backend):
    assert await first_signed([{"signature": None}, {"signature": "s"}]) == {"signature": "s"}
""",
    "test_mocked.py": """\
from zoo import stamp


def test_a_block_is_stamped_with_the_clock(mocker):
    mocker.patch("zoo.clock", return_value=5)
    assert stamp({"id": 1}) == {"id": 1, "at": 5}
""",
    "test_timed.py": """\
import pytest

from zoo import wait_for_tool


@pytest.mark.timeout(1)
def test_the_first_call_is_waited_for():
    assert wait_for_tool(["call"]) == "call"
""",
    "test_flaky.py": """\
import pytest

from zoo import reconnect


@pytest.mark.flaky(reruns=2)
def test_a_reconnect_succeeds_on_a_retry():
    assert reconnect()
""",
    "test_environment.py": """\
from zoo import window


def test_the_window_is_the_configured_size():
    assert window([1, 2, 3, 4, 5]) == [3, 4, 5]
""",
    "test_random.py": """\
from zoo import pick_example


def test_the_example_is_the_seeded_one():
    assert pick_example(list(range(100))) == EXPECTED
""",
    "test_ordered.py": """\
import pytest

from zoo import REGISTRY, register


@pytest.mark.order(2)
def test_the_second_registration_follows():
    register("second")
    assert REGISTRY == ["first", "second"]


@pytest.mark.order(1)
def test_the_first_registration():
    assert register("first") == 1
""",
    "test_offline.py": """\
from zoo import reasoning_text


def test_a_cached_reasoning_needs_no_network():
    assert reasoning_text({"id": "r1"}) == "thought"
""",
    "test_benchmarked.py": """\
from zoo import join_signatures


def test_signatures_join_quickly(benchmark):
    assert benchmark(join_signatures, ["a", "b"]) == "a+b"
""",
    "test_reported.py": """\
from pytest_html import extras as html

from zoo import header


def test_the_header_names_the_history_version(metadata, extras):
    extras.append(html.text(header(metadata["history"]), name="header"))
    assert header(metadata["history"]) == "history v2"
""",
    "test_repeated.py": """\
import pytest

from zoo import next_turn


@pytest.mark.repeat(3)
def test_turns_count_up_to_three():
    assert next_turn() <= 3
""",
    "test_soft.py": """\
from pytest_check import check

from zoo import tool_order


def test_calls_come_back_in_index_order():
    ordered = tool_order([{"index": 1}, {"index": 0}])
    check.equal([call["index"] for call in ordered], [0, 1])
""",
    "test_snapshot.py": """\
from zoo import render


def test_rendered_history(snapshot):
    assert render([("user", "hi"), ("assistant", "hello")]) == snapshot
""",
    "__snapshots__/test_snapshot.ambr": """\
# serializer version: 1
# name: test_rendered_history
  'user: hi | assistant: hello'
# ---
""",
    "test_frozen.py": """\
import datetime

from zoo import age_days


def test_a_block_from_yesterday_is_a_day_old(freezer):
    freezer.move_to("2026-01-02")
    assert age_days(datetime.date(2026, 1, 1)) == 1
""",
    "test_served.py": """\
import pytest

from zoo import fetch_signature


@pytest.mark.enable_socket
def test_a_signature_is_fetched(httpserver):
    httpserver.expect_request("/signature").respond_with_data("sig")
    assert fetch_signature(httpserver.url_for("/signature")) == "sig"
""",
    "test_properties.py": """\
from hypothesis import given, strategies as st

from zoo import dedupe


@given(st.lists(st.integers(0, 3)))
def test_dedupe_keeps_each_item_once(items):
    assert sorted(dedupe(items)) == sorted(set(items))
""",
}

# id, scope, match, replace, the tests a plain pytest run fails under it (node ids under tests/)
ENTRIES = [
    (
        "ASYNCIO",
        "merge_episodes",
        "[step for episode in episodes for step in episode]",
        "[episode for episode in episodes]",
        ["test_async.py::test_episodes_merge_in_order"],
    ),
    (
        "ANYIO",
        "first_signed",
        'block.get("signature")',
        'not block.get("signature")',
        ["test_async.py::test_the_first_signed_block_is_found[asyncio]"],
    ),
    ("MOCK", "stamp", "clock()", "0", ["test_mocked.py::test_a_block_is_stamped_with_the_clock"]),
    ("TIMEOUT", "wait_for_tool", "not calls", "calls", ["test_timed.py::test_the_first_call_is_waited_for"]),
    (
        "RERUN",
        "reconnect",
        'ATTEMPTS["count"] >= 2',
        'ATTEMPTS["count"] >= 4',
        ["test_flaky.py::test_a_reconnect_succeeds_on_a_retry"],
    ),
    (
        "ENV",
        "window",
        '"HISTORY_WINDOW"',
        '"HISTORY_SIZE"',
        ["test_environment.py::test_the_window_is_the_configured_size"],
    ),
    (
        "RANDOMLY",
        "pick_example",
        "random.choice(examples)",
        "examples[0]",
        ["test_random.py::test_the_example_is_the_seeded_one"],
    ),
    (
        "ORDER",
        "register",
        "REGISTRY.append(name)",
        "REGISTRY.insert(0, name)",
        ["test_ordered.py::test_the_second_registration_follows"],
    ),
    (
        "SOCKET",
        "reasoning_text",
        "key in cache",
        "False",
        ["test_offline.py::test_a_cached_reasoning_needs_no_network"],
    ),
    ("BENCHMARK", "join_signatures", '"+".join', '"".join', ["test_benchmarked.py::test_signatures_join_quickly"]),
    (
        "METADATA",
        "header",
        'f"history {version}"',
        'f"history {version!r}"',
        ["test_reported.py::test_the_header_names_the_history_version"],
    ),
    (
        "REPEAT",
        "next_turn",
        'TURNS["turn"] += 1',
        'TURNS["turn"] += 2',
        # pytest-randomly shuffles the three: [3-3] runs first, so it is the one that passes
        ["test_repeated.py::test_turns_count_up_to_three[1-3]", "test_repeated.py::test_turns_count_up_to_three[2-3]"],
    ),
    ("CHECK", "tool_order", 'call["index"]', '-call["index"]', ["test_soft.py::test_calls_come_back_in_index_order"]),
    ("SNAPSHOT", "render", '" | ".join', '" / ".join', ["test_snapshot.py::test_rendered_history"]),
    (
        "FREEZER",
        "age_days",
        "(datetime.date.today() - day).days",
        "(datetime.date.today() - day).days + 1",
        ["test_frozen.py::test_a_block_from_yesterday_is_a_day_old"],
    ),
    (
        "HTTPSERVER",
        "fetch_signature",
        "urllib.request.urlopen(url)",
        'urllib.request.urlopen(url + "s")',
        ["test_served.py::test_a_signature_is_fetched"],
    ),
    ("HYPOTHESIS", "dedupe", "item not in seen", "True", ["test_properties.py::test_dedupe_keeps_each_item_once"]),
]

# What each mutant needs of pytest's plugins to get its plain run's verdict; a test names each.
PLUGIN_OF = {
    "ASYNCIO": "pytest-asyncio",
    "ANYIO": "anyio",
    "MOCK": "pytest-mock",
    "TIMEOUT": "pytest-timeout",
    "RERUN": "pytest-rerunfailures",
    "ENV": "pytest-env",
    "RANDOMLY": "pytest-randomly",
    "ORDER": "pytest-order",
    "SOCKET": "pytest-socket",
    "BENCHMARK": "pytest-benchmark",
    "METADATA": "pytest-metadata and pytest-html",
    "REPEAT": "pytest-repeat",
    "CHECK": "pytest-check",
    "SNAPSHOT": "syrupy",
    "FREEZER": "pytest-freezer",
    "HTTPSERVER": "pytest-httpserver",
    "HYPOTHESIS": "hypothesis",
}


def _entry(mutant_id: str, scope: str, match: str, replace: str, killers: list[str]) -> str:
    return f"""
[[mutant]]
id = "{mutant_id}"
family = "plugged"
file = "src/zoo.py"
scope = "{scope}"
match = '''{match}'''
replace = '''{replace}'''
killed_by = {json.dumps([f"tests/{killer}" for killer in killers])}
origin = "the plugin zoo"
title = {{ en = "{mutant_id} needs {PLUGIN_OF[mutant_id]}", zh = "{mutant_id} 依赖 {PLUGIN_OF[mutant_id]}" }}
why = {{ en = "Its verdict holds only as pytest runs the test.", zh = "只有按 pytest 的方式运行测试，判定才成立。" }}
"""


def _seeded_example() -> int:
    """What `random.choice(range(100))` gives in the random test: pytest-randomly seeds each test's
    call with its seed plus the CRC-32 of the test's id."""
    test = b"tests/test_random.py::test_the_example_is_the_seeded_one"
    return random.Random(SEED + zlib.crc32(test)).choice(range(100))


def make_plugin_zoo_project(root: Path) -> Path:
    files = {
        "pyproject.toml": PYPROJECT,
        "src/zoo.py": SOURCE,
        "tests/conftest.py": CONFTEST,
        **{f"tests/{name}": text for name, text in TESTS.items()},
        "mutants/families.toml": families("plugged", "verdicts that need a plugin", "依赖插件的判定"),
        "mutants/catalog.toml": "".join(_entry(*entry) for entry in ENTRIES),
    }
    files["tests/test_random.py"] = files["tests/test_random.py"].replace("EXPECTED", str(_seeded_example()))
    return write_files(root, files)
