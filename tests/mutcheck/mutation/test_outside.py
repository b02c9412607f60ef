"""Where an edit outside one function body sits: a module statement, a class body, a function's
header (decorator, default, annotation), at any depth of compound statements and nested functions."""

import pytest

from mutcheck.core.source_text import Span
from mutcheck.mutation.outside import place_of

SOURCE = """\
import functools

LIMIT = 3
if LIMIT:
    TABLE = {"a": 1}


def tagged(name="plain"):
    return name


@functools.lru_cache(maxsize=LIMIT)
def cached(value: int = 2) -> int:
    return value


class Box:
    size = LIMIT

    def grow(self, by=1):
        return self.size + by

    try:
        WIDTH = 2
    except NameError:
        WIDTH = 3


def outer():
    @functools.wraps(tagged)
    def inner(flag=True):
        return flag
    return inner


def café(x="é"): return x


match LIMIT:
    case 3:
        CHOSEN = "three"
"""


def span_of(text: str, occurrence: int = 0) -> Span:
    """The span of the `occurrence`-th `text` in SOURCE (one line)."""
    lines = SOURCE.splitlines()
    found = [(number, line.index(text)) for number, line in enumerate(lines, 1) if text in line]
    line, column = found[occurrence]
    return Span(line, column, line, column + len(text))


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("LIMIT = 3", "module-statement"),
        ('{"a": 1}', "module-statement"),  # inside an `if` of the module
        ('"plain"', "function-header"),  # a default
        ("maxsize=LIMIT", "function-header"),  # a decorator
        ("int = 2", "function-header"),  # an annotation and a default
        ("size = LIMIT", "class-body"),
        ("by=1", "function-header"),  # a method's default
        ("WIDTH = 2", "class-body"),  # in a `try` of the class body
        ("WIDTH = 3", "class-body"),  # in its handler
        ("functools.wraps(tagged)", "function-header"),  # a nested function's decorator
        ("flag=True", "function-header"),
        ("return flag", "outside-function"),  # a body: no place of these kinds
        ('x="é"', "function-header"),  # columns are characters, not UTF-8 bytes
        ('CHOSEN = "three"', "module-statement"),  # in a `case` of a module-level `match`
    ],
)
def test_each_place_is_named(text, place):
    assert place_of(SOURCE, span_of(text)) == place


def test_a_span_across_two_module_statements_is_a_module_statement():
    first, last = span_of("LIMIT = 3"), span_of("TABLE = ")
    assert place_of(SOURCE, Span(first.start_line, 0, last.end_line, 4)) == "module-statement"


def test_a_file_that_does_not_parse_is_outside_function():
    assert place_of("def (:\n", Span(1, 0, 1, 3)) == "outside-function"
