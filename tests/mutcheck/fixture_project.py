"""A tiny pytest project in a temporary directory, for exercising mutcheck end to end."""

import textwrap
from pathlib import Path

PYPROJECT = """\
[project]
name = "tiny"
version = "0"

[tool.pytest.ini_options]
pythonpath = ["src"]

[tool.mutcheck]
target = ["src"]
tests = ["tests"]
"""

FAMILIES = """\
[family.boundary]
en = "boundary conditions"
zh = "边界条件"
"""

SOURCE = '''\
"""Tiny target."""


def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value


class Counter:
    def __init__(self):
        self.count = 0

    def add(self, amount):
        def checked(step):
            return step if step > 0 else 0

        self.count += checked(amount)
        return self.count
'''

TESTS = """\
from tiny import Counter, clamp


def test_clamp_low():
    assert clamp(-1, 0, 10) == 0


def test_clamp_high():
    assert clamp(11, 0, 10) == 10


def test_clamp_inside():
    assert clamp(5, 0, 10) == 5


def test_counter_ignores_negative():
    counter = Counter()
    counter.add(2)
    assert counter.add(-5) == 2
"""

GOOD_ENTRY = """\
[[mutant]]
id = "B1"
family = "boundary"
file = "src/tiny.py"
scope = "clamp"
match = "value < low"
replace = "value <= low"
killed_by = ["tests/test_tiny.py::test_clamp_low"]
origin = "fixture"
title = { en = "low bound inclusive", zh = "下界包含" }
why = { en = "why", zh = "原因" }
"""


def make_project(root: Path, catalog: str = GOOD_ENTRY, families: str = FAMILIES) -> Path:
    files = {
        "pyproject.toml": PYPROJECT,
        "src/tiny.py": SOURCE,
        "tests/test_tiny.py": TESTS,
        "mutants/families.toml": families,
        "mutants/catalog.toml": catalog,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def entry(**fields: str) -> str:
    """GOOD_ENTRY with fields replaced (value as TOML source) or removed (value None)."""
    lines = GOOD_ENTRY.splitlines()
    result = []
    for line in lines:
        key = line.split(" = ", 1)[0]
        if key in fields:
            if fields[key] is not None:
                result.append(f"{key} = {fields[key]}")
            continue
        result.append(line)
    present = {line.split(" = ", 1)[0] for line in lines}
    result += [f"{key} = {value}" for key, value in fields.items() if key not in present and value is not None]
    return "\n".join(result) + "\n"
