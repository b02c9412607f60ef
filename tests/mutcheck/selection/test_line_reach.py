"""Line reach: which lines of a span a test can be seen to run, the source compiled for real (a
survivor whose lines no test ran, end to end: `engine/test_no_coverage.py`)."""

import pytest

from mutcheck.core.module_scope import reach_name
from mutcheck.core.source_text import Span
from mutcheck.selection.line_reach import FileLines, line_reach

SOURCE = """\
import functools

LIMIT = 3


def merge(blocks):
    merged = []
    for block in blocks:
        if block.get("signature"):
            merged.append(dict(block, signed=True))
        else:
            merged.append(block)
    return merged


class Store:
    size = LIMIT

    def keep(self, item, key=lambda item: item):
        global LIMIT
        return [key(item)]


def table():
    return {"limit": LIMIT}


TABLE = table()


def adder(step):
    return lambda value: value + step


def factory():
    class Local:
        pick = lambda self: 1  # noqa: E731

    return Local
"""


@pytest.fixture(scope="module")
def lines_of():
    return FileLines(SOURCE, "source.py")


def _reach(lines_of, first, last, executed, import_reached=(), in_subprocesses=(), started=None):
    span = Span(first, 4, last, 10)
    started = started if started is not None else [set() for _ in executed]
    return line_reach(lines_of, span, executed, set(import_reached), set(in_subprocesses), started)


def test_each_line_with_code_is_its_function_s_or_runs_elsewhere(lines_of):
    def named(*qualnames: str) -> set[str]:
        return {reach_name("source.py", qualname) for qualname in qualnames}

    # a function's `def` line and the prologue before its first RESUME (the closure's cell, line 31)
    # run outside it; a lambda made in a function is its maker's, one made in a class body no one's
    assert {name: sorted(lines) for name, lines in lines_of.of_function.items()} == {
        reach_name("source.py", "merge"): [7, 8, 9, 10, 12, 13],
        reach_name("source.py", "Store.keep"): [21],
        reach_name("source.py", "table"): [25],
        reach_name("source.py", "adder"): [32],
        reach_name("source.py", "factory"): [36, 39],
    }
    assert {line: holders for line, holders in lines_of.in_functions.items()} == {
        **dict.fromkeys([7, 8, 9, 10, 12, 13], named("merge")),
        21: named("Store.keep"),
        25: named("table"),
        32: named("adder"),
        36: named("factory"),
        39: named("factory"),
    }
    # line 36 is factory's (it makes the class) and the class body's, whose code runs outside factory
    outside = {1, 3, 6, 16, 17, 19, 24, 28, 31, 35, 36, 37}
    assert outside <= lines_of.elsewhere


def test_a_span_in_a_function_nested_in_one_that_ran_at_import_is_not_seen(lines_of):
    nested = {reach_name("source.py", "adder.<locals>.<lambda>")}
    assert _reach(lines_of, 32, 32, [{32}], import_reached=nested) is None
    elsewhere = {reach_name("source.py", "adderx")}  # a name that only begins like it
    assert _reach(lines_of, 32, 32, [{32}], import_reached=elsewhere).tests == [0]


def test_a_branch_no_test_entered_never_ran_and_its_function_s_tests_did_not_run_it(lines_of):
    executed = [{7, 8, 9, 12, 13}, {7, 8, 13}]  # one test ran the `else` branch, one an empty loop
    reach = _reach(lines_of, 10, 10, executed)
    assert (reach.lines, reach.never_ran, reach.tests) == ([10], [10], [])
    reach = _reach(lines_of, 9, 12, executed)  # `else:` carries no code of its own
    assert (reach.lines, reach.never_ran, reach.tests) == ([9, 10, 12], [10], [0])


def test_lines_that_also_run_outside_a_test_or_hold_no_code_are_not_seen(lines_of):
    everything = [set(range(1, 40))]
    assert _reach(lines_of, 3, 3, everything) is None  # module level
    assert _reach(lines_of, 17, 17, everything) is None  # a class body
    assert (
        _reach(lines_of, 19, 19, everything) is None
    )  # a default lambda: its body runs in a test, its making at import
    assert _reach(lines_of, 20, 20, everything) is None  # `global`: no code
    assert _reach(lines_of, 6, 6, everything) is None  # a `def` line: the module runs it
    run_while_importing = {reach_name("source.py", "table")}
    assert _reach(lines_of, 25, 25, everything, import_reached=run_while_importing) is None
    assert _reach(lines_of, 21, 21, everything, in_subprocesses={0}) is None  # lines run elsewhere go unseen
    assert _reach(lines_of, 25, 25, everything).tests == [0]


def test_a_lambda_made_in_a_function_is_that_function_s_code(lines_of):
    # `adder` makes the lambda on line 32, whose body (the same line) runs when the lambda is called
    assert _reach(lines_of, 32, 32, [{32}, set()]).tests == [0]
    assert _reach(lines_of, 32, 32, [set(), set()]).never_ran == [32]


def test_a_span_of_whole_lines_is_its_own_lines_and_an_insertion_has_none(lines_of):
    whole_lines = line_reach(lines_of, Span(10, 0, 11, 0), [{9, 12}], set(), set(), [set()])
    assert whole_lines.lines == [10]  # not line 11, where the span ends at column 0
    assert line_reach(lines_of, Span(12, 0, 12, 0), [{12}], set(), set(), [set()]) is None


def test_a_function_that_started_without_a_line_of_it_seen_leaves_the_lines_unseen(lines_of):
    # another tracer in its place, a thread already running: the function started, no line was seen
    assert _reach(lines_of, 10, 10, [set()], started=[{reach_name("source.py", "merge")}]) is None
    assert _reach(lines_of, 10, 10, [{7, 8, 13}], started=[{reach_name("source.py", "merge")}]).tests == []
    assert _reach(lines_of, 10, 10, [set()], started=[{reach_name("source.py", "table")}]).never_ran == [10]
