"""A small project for reuse's tests: mutant M (a clamp's guard) is killed exactly when the value its
test clamps is above the cap, and that value comes from whatever a test makes it come from (a data
file, a variable, a module, …); mutant OTHER stands on none of it. Runs with and without reuse,
and what tests compare of them."""

import json
import textwrap
from pathlib import Path

from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.cli_runs import run

CORE = '''\
"""Clamping."""


def limit(value, cap):
    if value > cap:
        return cap
    return value


def double(value):
    return value * 2
'''

CATALOG = """\
[[mutant]]
id = "M"
family = "guards"
file = "src/pkg/core.py"
scope = "limit"
match = "value > cap"
replace = "False"
survives = { en = "as the value says", zh = "取决于数值" }
reviewed = true
origin = "the fixture"
title = { en = "no clamping", zh = "不再限制" }
why = { en = "a value above the cap comes back as the cap", zh = "超过上限的值应返回上限" }

[[mutant]]
id = "OTHER"
family = "guards"
file = "src/pkg/core.py"
scope = "double"
match = "value * 2"
replace = "value + 2"
killed_by = ["tests/test_other.py::test_double"]
origin = "the fixture"
title = { en = "doubling adds", zh = "加倍变为相加" }
why = { en = "doubling multiplies", zh = "加倍是相乘" }
"""

PYPROJECT = """\
[project]
name = "reuse-fixture"
version = "15"

[tool.pytest.ini_options]
pythonpath = ["src"]

[tool.mutcheck]
target = ["src/pkg"]
tests = {tests}
jobs = 1
timeout_constant = 5.0
"""

# The test that clamps the value: it kills M when the value is above 10.
CLAMPS = """\
from pkg.core import limit
{imports}

def test_clamps({arguments}):
    value = {value}
    assert limit(value, 10) == min(value, 10)
"""

OTHER_TESTS = "from pkg.core import double\n\n\ndef test_double():\n    assert double(3) == 6\n"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def make(root: Path, files: dict[str, str], tests: tuple[str, ...] = ("tests",)) -> Path:
    """The project, with `files` added (or put in place of the defaults)."""
    write(
        root,
        {
            "pyproject.toml": PYPROJECT.format(tests=json.dumps(list(tests))),
            "src/pkg/__init__.py": "",
            "src/pkg/core.py": CORE,
            "mutants/guards.toml": CATALOG,
            "mutants/families.toml": '[family.guards]\nen = "guards"\nzh = "守卫"\n',
            "tests/test_other.py": OTHER_TESTS,
            **files,
        },
    )
    return root


def clamps(value: str, imports: str = "", arguments: str = "") -> str:
    """A test file whose test clamps `value` (an expression)."""
    return CLAMPS.format(value=value, imports=imports, arguments=arguments)


def verdicts(data: dict) -> dict[str, tuple[str, list[str]]]:
    return {entry["id"]: (entry["verdict"], sorted(entry["killers"])) for entry in data["mutants"]}


def reused_tests(data: dict, mutant_id: str) -> int:
    entry = next(entry for entry in data["mutants"] if entry["id"] == mutant_id)
    return (entry.get("reuse") or {}).get("kept", 0)


def both(root: Path, *args: str) -> tuple[dict, dict]:
    """A run with reuse, then one with --fresh: their results (each exits 0 or 1, never worse)."""
    results = []
    for extra in ((), ("--fresh",)):
        code, output, data = run(root, *args, *extra)
        assert code in (ExitCode.OK, ExitCode.EXPECTATION_FAILED), output
        results.append(data)
    return results[0], results[1]
