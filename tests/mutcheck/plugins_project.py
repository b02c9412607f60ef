"""A fixture project whose every verdict depends on pytest's plugins, built in or installed: warnings
filters (a mark, a module's `pytestmark`, the ini file, a conftest's `pytest_configure`), logging
capture, anyio's plugin, pytest-mock, pytest-rerunfailures and pytest-timeout. Each catalog entry
says what one plain pytest run says under it (a test that never ends under ALARM is its killer, as a
time-out)."""

from pathlib import Path

from tests.mutcheck.engine_project import catalog_entry, pyproject

SOURCE = '''\
"""History helpers whose tests lean on pytest's plugins."""

import asyncio
import logging
import time
import warnings

LOG = logging.getLogger("plugged")


def signature_of(block):
    signature = block.get("signature")
    if signature is None:
        warnings.warn("a block without a signature", DeprecationWarning, stacklevel=2)
    return signature


def reasoning_of(block):
    text = block.get("reasoning", "")
    if not text:
        warnings.warn("a block without reasoning", UserWarning, stacklevel=2)
    return text


def tool_order(calls):
    ordered = sorted(calls, key=lambda call: call["index"])
    if len(ordered) != len(calls):
        warnings.warn("calls were lost while ordering", RuntimeWarning, stacklevel=2)
    return ordered


def episode_count(episodes):
    if any(episode is None for episode in episodes):
        warnings.warn("an empty episode", FutureWarning, stacklevel=2)
    return len(episodes)


def drop_unsigned(blocks):
    kept = [block for block in blocks if block.get("signature")]
    if len(kept) < len(blocks):
        LOG.warning("dropped %d unsigned blocks", len(blocks) - len(kept))
    return kept


async def gather_calls(calls):
    results = await asyncio.gather(*(call() for call in calls))
    return [result for result in results if result is not None]


def consolidate(blocks, merge):
    if len(blocks) > 1:
        return merge(blocks)
    return blocks


def cached_summary(cache, key, compute):
    if key in cache:
        return cache[key]
    value = compute()
    cache[key] = value
    return value


def wait_for_turn(attempt):
    if attempt > 5:
        time.sleep(3)
    return attempt


def count_down(turns):
    while turns > 0:
        turns -= 1
    return turns
'''

CONFTEST = """\
def pytest_configure(config):
    config.addinivalue_line("filterwarnings", "error::FutureWarning")
"""

TEST_MARKS = """\
import pytest

from plugged import signature_of


@pytest.mark.filterwarnings("error")
def test_a_signed_block_keeps_its_signature():
    assert signature_of({"signature": "s1"}) == "s1"
"""

TEST_MODULE_FILTERS = """\
import pytest

from plugged import reasoning_of

pytestmark = pytest.mark.filterwarnings("error::UserWarning")


def test_reasoning_is_kept():
    assert reasoning_of({"reasoning": "because"}) == "because"
"""

TEST_HISTORY = """\
import logging

import pytest

from plugged import (
    cached_summary,
    consolidate,
    count_down,
    drop_unsigned,
    episode_count,
    gather_calls,
    tool_order,
    wait_for_turn,
)


def test_calls_are_ordered():
    calls = [{"index": 1}, {"index": 0}]
    assert [call["index"] for call in tool_order(calls)] == [0, 1]


def test_episodes_are_counted():
    assert episode_count(["a", "b"]) == 2


def test_dropping_says_how_many(caplog):
    with caplog.at_level(logging.WARNING, logger="plugged"):
        kept = drop_unsigned([{"signature": "s"}, {}])
    assert len(kept) == 1
    assert [record.getMessage() for record in caplog.records] == ["dropped 1 unsigned blocks"]


@pytest.mark.anyio
async def test_gathered_calls_keep_their_results():
    async def answer():
        return 42

    assert await gather_calls([answer, answer]) == [42, 42]


def test_a_single_block_is_not_merged(mocker):
    merge = mocker.Mock(return_value=["merged"])
    assert consolidate([{"text": "a"}], merge) == [{"text": "a"}]
    assert merge.call_count == 0


CACHE = {}


@pytest.mark.flaky(reruns=1)
def test_a_summary_is_computed():
    assert cached_summary(CACHE, "episode", lambda: "summary") == "summary"


@pytest.mark.timeout(1)
def test_the_first_turn_is_quick():
    assert wait_for_turn(1) == 1


@pytest.mark.timeout(5)
def test_no_turns_left_is_quick():
    assert count_down(0) == 0


def test_turns_run_out():
    assert count_down(3) == 0
"""

# id, scope, match, replace, the test a plain pytest run fails under it (None: none fails)
HISTORY = "test_history.py::"
ENTRIES = [
    (
        "MARK",
        "signature_of",
        "signature is None",
        "signature is not None",
        "test_marks.py::test_a_signed_block_keeps_its_signature",
    ),
    ("MODULE", "reasoning_of", "not text", "text", "test_module_filters.py::test_reasoning_is_kept"),
    (
        "INI",
        "tool_order",
        "len(ordered) != len(calls)",
        "len(ordered) == len(calls)",
        HISTORY + "test_calls_are_ordered",
    ),
    ("CONFIGURE", "episode_count", "episode is None", "episode is not None", HISTORY + "test_episodes_are_counted"),
    (
        "LOGGING",
        "drop_unsigned",
        "len(kept) < len(blocks)",
        "len(kept) > len(blocks)",
        HISTORY + "test_dropping_says_how_many",
    ),
    (
        "ASYNC",
        "gather_calls",
        "result is not None",
        "result is None",
        HISTORY + "test_gathered_calls_keep_their_results[asyncio]",
    ),
    ("MOCK", "consolidate", "len(blocks) > 1", "len(blocks) > 0", HISTORY + "test_a_single_block_is_not_merged"),
    ("RERUN", "cached_summary", "return value", "return None", None),
    ("TIMEOUT", "wait_for_turn", "attempt > 5", "attempt > 0", HISTORY + "test_the_first_turn_is_quick"),
    # a loop that never ends, in a test run after one that pytest-timeout timed (and whose end
    # reset the time-out signal's handler): mutcheck's own limit still stops it
    ("ALARM", "count_down", "turns -= 1", "turns -= 0", HISTORY + "test_turns_run_out"),
]

# What each mutant needs of pytest to get its plain run's verdict; a test names each of them.
PLUGIN_OF = {
    "MARK": "a filterwarnings mark",
    "MODULE": "a module's pytestmark",
    "INI": "the ini file's filterwarnings",
    "CONFIGURE": "a filter a conftest adds in pytest_configure",
    "LOGGING": "logging capture (caplog)",
    "ASYNC": "anyio's pytest plugin",
    "MOCK": "pytest-mock",
    "RERUN": "pytest-rerunfailures",
    "TIMEOUT": "pytest-timeout",
    "ALARM": "mutcheck's own time limit after pytest-timeout's",
}


def _entry(mutant_id: str, scope: str, match: str, replace: str, killer: str | None) -> str:
    if killer is None:
        expectation = 'survives = { en = "a rerun passes", zh = "重跑时通过" }'
    else:
        expectation = f'killed_by = ["tests/{killer}"]'
    return catalog_entry(mutant_id, scope, match, replace, expectation, "src/plugged.py", "plugins", "plugins fixture")


def make_plugins_project(root: Path) -> Path:
    # every test's own limit well past pytest-timeout's one second, so that only the plugin can fail
    # the slow turn in time
    settings = pyproject("plugins-fixture", timeout_constant=6.0).replace(
        'pythonpath = ["src"]',
        'pythonpath = ["src"]\nfilterwarnings = ["error::RuntimeWarning"]',
    )
    files = {
        "pyproject.toml": settings,
        "src/plugged.py": SOURCE,
        "tests/conftest.py": CONFTEST,
        "tests/test_marks.py": TEST_MARKS,
        "tests/test_module_filters.py": TEST_MODULE_FILTERS,
        "tests/test_history.py": TEST_HISTORY,
        "mutants/families.toml": '[family.plugins]\nen = "plugins"\nzh = "插件"\n',
        "mutants/plugins.toml": "".join(_entry(*entry) for entry in ENTRIES),
        ".gitignore": "__pycache__/\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root
