"""A function whose result another keeps (a memo filled by an earlier test): its mutants run the
keeper's tests too, and the verdict is a plain run's."""

import pytest

from tests.mutcheck.engine_project import catalog_entry
from tests.mutcheck.plain_run import killed_as_in_a_plain_run

MEMO = """\
class Patterns:
    def __init__(self):
        self._memo = {}

    def _build(self, width):
        return "-" * width

    def _padded(self, width):
        return self._build(width) + "|"

    def __call__(self, width):
        if width not in self._memo:
            value = self._padded(width)
            self._memo[width] = value
        return self._memo[width]


PATTERNS = Patterns()


def rule(width):
    return PATTERNS(width)


def plain(width):
    return "=" * width
"""

# the same memo reached through a local name: `memo` is the object's own dict, not one the call made
ALIASED = MEMO.replace(
    """        if width not in self._memo:
            value = self._padded(width)
            self._memo[width] = value
        return self._memo[width]""",
    """        memo = self._memo
        if width not in memo:
            memo[width] = self._padded(width)
        return memo[width]""",
)

# the memo filled by a function nested in the one a later test calls
NESTED = MEMO.replace(
    """    def __call__(self, width):
        if width not in self._memo:
            value = self._padded(width)
            self._memo[width] = value
        return self._memo[width]""",
    """    def __call__(self, width):
        def fill():
            self._memo[width] = self._padded(width)

        if width not in self._memo:
            fill()
        return self._memo[width]""",
)


CALL = """\
    def __call__(self, width):
        if width not in self._memo:
            value = self._padded(width)
            self._memo[width] = value
        return self._memo[width]"""


def _keeper(body: str) -> str:
    """MEMO with another `__call__` keeping `_padded`'s result."""
    assert CALL in MEMO
    return MEMO.replace(CALL, body)


# the memo a module-level name, rebound through `global`
GLOBAL = _keeper(
    """\
    def __call__(self, width):
        global _KEPT
        if _KEPT is None:
            _KEPT = self._padded(width)
        return _KEPT"""
).replace("PATTERNS = Patterns()", "_KEPT = None\nPATTERNS = Patterns()")

# a list the call made, filled, then stored in the object
PUBLISHED = _keeper(
    """\
    def __call__(self, width):
        if width not in self._memo:
            parts = []
            parts.append(self._padded(width))
            self._memo[width] = parts
        return self._memo[width][0]"""
)

# the value taken through an assignment expression
WALRUS = _keeper(
    """\
    def __call__(self, width):
        if width not in self._memo and (value := self._padded(width)):
            self._memo[width] = value
        return self._memo[width]"""
)

# stored with `setattr`
SETATTR = _keeper(
    """\
    def __call__(self, width):
        name = f"_kept_{width}"
        if not hasattr(self, name):
            setattr(self, name, self._padded(width))
        return getattr(self, name)"""
)

# a property that computes once and keeps its value in the object
CACHED_PROPERTY = _keeper(
    """\
    @functools.cached_property
    def three(self):
        return self._padded(3)

    def __call__(self, width):
        return self.three"""
).replace("class Patterns:", "import functools\n\n\nclass Patterns:")

# the first test fills the memo and checks only the length; the second takes the memo's value
MEMO_TESTS = """\
from memo import plain, rule


def test_rule_has_its_width():
    assert len(rule(3)) == 4


def test_rule_is_dashes():
    assert rule(3) == "---|"


def test_plain():
    assert plain(2) == "=="
"""


@pytest.mark.parametrize(
    "source",
    [MEMO, ALIASED, NESTED, GLOBAL, PUBLISHED, WALRUS, SETATTR, CACHED_PROPERTY],
    ids=["attribute", "local name", "nested keeper", "global", "published", "walrus", "setattr", "cached_property"],
)
def test_a_mutant_whose_result_a_memo_hands_to_a_later_test_is_killed_by_that_test_as_a_plain_run_says(
    tmp_path, source
):
    assert source is MEMO or source != MEMO  # the replacement took place
    catalog = catalog_entry(
        "MEMO",
        "Patterns._build",
        '"-" * width',
        '"+" * width',
        'killed_by = ["tests/test_memo.py::test_rule_is_dashes"]',
        file="src/memo.py",
    )
    files = {"src/memo.py": source, "tests/test_memo.py": MEMO_TESTS, "mutants/catalog.toml": catalog}
    killed_as_in_a_plain_run(tmp_path, "memo-fixture", files, "MEMO", ["tests/test_memo.py::test_rule_is_dashes"])
