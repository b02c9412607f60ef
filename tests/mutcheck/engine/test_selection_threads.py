"""Test selection sees every thread: a test that reaches the target from `threading.Thread`, a
`ThreadPoolExecutor` or `asyncio.to_thread` is selected for the mutant, and kills it (a test on
the main thread reaches each function too, without telling the mutant apart)."""

import textwrap

import pytest

from tests.mutcheck.cli_runs import mutant, outcome, run
from tests.mutcheck.engine_project import entry, make_project

POOL = '''\
"""Functions the fixture's tests call from other threads."""


def positive(value):
    return value > 0


def even(value):
    return value % 2 == 0


def small(value):
    return value < 10
'''

POOL_TESTS = """\
import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from pool import even, positive, small


def test_on_the_main_thread():
    assert (positive(5), even(4), small(3)) == (True, True, True)


def test_positive_in_a_thread():
    seen = []
    thread = threading.Thread(target=lambda: seen.append(positive(0)))
    thread.start()
    thread.join()
    assert seen == [False]


def test_even_in_an_executor():
    with ThreadPoolExecutor(max_workers=2) as executor:
        assert list(executor.map(even, [1, 2])) == [False, True]


def test_small_in_to_thread():
    assert asyncio.run(asyncio.to_thread(small, 10)) is False
"""

CASES = {
    "THREAD": ("positive", "value > 0", "value >= 0", "test_positive_in_a_thread"),
    "EXECUTOR": ("even", "value % 2 == 0", "value % 4 == 0", "test_even_in_an_executor"),
    "TO_THREAD": ("small", "value < 10", "value <= 10", "test_small_in_to_thread"),
}


@pytest.fixture(scope="module")
def threads_run(tmp_path_factory) -> tuple[int, str, dict]:
    catalog = "\n".join(
        entry(
            id=f'"{mutant_id}"',
            file='"src/pool.py"',
            scope=f'"{scope}"',
            match=f'"{match}"',
            replace=f'"{replace}"',
            killed_by=f'["tests/test_pool.py::{test}"]',
        )
        for mutant_id, (scope, match, replace, test) in CASES.items()
    )
    project = make_project(tmp_path_factory.mktemp("threads") / "project", catalog)
    (project / "src/pool.py").write_text(textwrap.dedent(POOL), encoding="utf-8")
    (project / "tests/test_pool.py").write_text(textwrap.dedent(POOL_TESTS), encoding="utf-8")
    return run(project)


@pytest.mark.parametrize("mutant_id", CASES)
def test_a_test_that_reaches_the_target_from_another_thread_is_selected_and_kills(threads_run, mutant_id):
    _, output, data = threads_run
    entry = mutant(data, mutant_id)
    test = CASES[mutant_id][3]
    selected = [data["tests"][index] for index in entry["selected"]]
    assert selected == ["tests/test_pool.py::test_on_the_main_thread", f"tests/test_pool.py::{test}"], output
    assert (outcome(data, entry, "test_on_the_main_thread"), outcome(data, entry, test)) == ("passed", "failed")
    assert (entry["verdict"], entry["expectation_met"]) == ("killed", True)


def test_the_run_meets_every_expectation(threads_run):
    code, output, _ = threads_run
    assert code == 0, output
