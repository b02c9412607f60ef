"""mutcheck vs naive where start-up dominates: the target imports a heavy dependency.

The benchmark generates, in a scratch folder, a dependency package of many modules (compiled,
as an installed package is), a small target that imports it, a quick suite and a catalog.
A naive run pays the import in every pytest process, one per mutant; mutcheck pays it once
and forks. Prints both wall times, the ratio (median of three rounds) and mutcheck's phases.
"""

import compileall
import os
import tempfile
import textwrap
from pathlib import Path

from common import cleanup, compare_with_naive

MODULES = 200  # of the heavy dependency
CLASSES = 10  # dataclasses per module
FIELDS = 8  # per dataclass
ROUNDS = 3


def _heavy_module(number: int) -> str:
    """A module whose import does work, as typed models do: dataclasses built at import."""
    classes = "".join(
        f"\n\n@dataclass\nclass Model{number}_{index}:\n"
        + "".join(f"    field{field}: int = {field}\n" for field in range(FIELDS))
        + f"\n    def total(self):\n        return sum(vars(self).values()) + {index}\n"
        for index in range(CLASSES)
    )
    return f'"""Generated module {number}."""\n\nfrom dataclasses import dataclass\n' + classes


TARGET = '''\
"""The target: small functions in a module that imports the heavy dependency."""

import heavy  # noqa: F401


def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value


def merge_adjacent(parts):
    merged = []
    for part in parts:
        if merged and merged[-1][0] == part[0] and part[0] == "text":
            merged[-1] = (part[0], merged[-1][1] + part[1])
        else:
            merged.append(part)
    return merged


def drop_trailing_thought(parts):
    if parts and parts[-1][0] == "thought" and not parts[-1][1]:
        return parts[:-1]
    return parts
'''

TESTS = """\
import pytest

from app import clamp, drop_trailing_thought, merge_adjacent


@pytest.mark.parametrize("value, expected", [(-1, 0), (0, 0), (5, 5), (10, 10), (11, 10)])
def test_clamp(value, expected):
    assert clamp(value, 0, 10) == expected


def test_merge_two_texts():
    assert merge_adjacent([("text", "a"), ("text", "b")]) == [("text", "ab")]


def test_merge_keeps_thoughts_apart():
    assert merge_adjacent([("thought", "a"), ("thought", "b")]) == [("thought", "a"), ("thought", "b")]


def test_merge_keeps_order():
    assert merge_adjacent([("text", "a"), ("thought", "x"), ("text", "b")]) == [
        ("text", "a"), ("thought", "x"), ("text", "b")]


def test_drop_empty_trailing_thought():
    assert drop_trailing_thought([("text", "a"), ("thought", "")]) == [("text", "a")]


def test_keep_signed_trailing_thought():
    assert drop_trailing_thought([("text", "a"), ("thought", "sig")]) == [("text", "a"), ("thought", "sig")]


def test_keep_empty_list():
    assert drop_trailing_thought([]) == []


def test_keep_empty_trailing_text():
    assert drop_trailing_thought([("text", "a"), ("text", "")]) == [("text", "a"), ("text", "")]
"""

MUTANTS = [
    ("clamp", "value < low", "value <= low", "equivalent"),
    ("clamp", "value < low", "value > low", "tests/test_app.py::test_clamp"),
    ("clamp", "value > high", "value < high", "tests/test_app.py::test_clamp"),
    ("clamp", "return low", "return high", "tests/test_app.py::test_clamp"),
    ("merge_adjacent", 'part[0] == "text"', "True", "tests/test_app.py::test_merge_keeps_thoughts_apart"),
    ("merge_adjacent", "merged[-1][0] == part[0]", "True", "tests/test_app.py::test_merge_keeps_order"),
    ("merge_adjacent", "merged[-1][1] + part[1]", "part[1]", "tests/test_app.py::test_merge_two_texts"),
    ("drop_trailing_thought", "not parts[-1][1]", "True", "tests/test_app.py::test_keep_signed_trailing_thought"),
    (
        "drop_trailing_thought",
        'parts[-1][0] == "thought"',
        "True",
        "tests/test_app.py::test_keep_empty_trailing_text",
    ),
    ("drop_trailing_thought", "parts[:-1]", "parts", "tests/test_app.py::test_drop_empty_trailing_thought"),
]


def _catalog() -> str:
    entries = []
    for number, (scope, match, replace, expectation) in enumerate(MUTANTS, start=1):
        expected = (
            'equivalent = { en = "returns low either way", zh = "两种写法都返回 low" }'
            if expectation == "equivalent"
            else f'killed_by = ["{expectation}"]'
        )
        entries.append(
            textwrap.dedent(f"""\
            [[mutant]]
            id = "S{number}"
            family = "startup"
            file = "src/app/__init__.py"
            scope = "{scope}"
            match = '{match}'
            replace = '{replace}'
            {expected}
            origin = "bench_startup"
            title = {{ en = "S{number}", zh = "S{number}" }}
            why = {{ en = "benchmark", zh = "基准" }}
            """)
        )
    return "\n".join(entries)


def generate(root: Path) -> Path:
    heavy = root / "deps" / "heavy"
    heavy.mkdir(parents=True)
    for number in range(MODULES):
        (heavy / f"m{number}.py").write_text(_heavy_module(number), encoding="utf-8")
    imports = "".join(f"from heavy import m{number}  # noqa: F401\n" for number in range(MODULES))
    (heavy / "__init__.py").write_text('"""A heavy dependency."""\n' + imports, encoding="utf-8")
    compileall.compile_dir(heavy, quiet=1)  # installed packages come compiled
    project = root / "project"
    files = {
        "pyproject.toml": '[project]\nname = "startup-bench"\nversion = "0"\n\n'
        '[tool.pytest.ini_options]\npythonpath = ["src"]\n\n'
        '[tool.mutcheck]\ntarget = ["src"]\ntests = ["tests"]\n',
        "src/app/__init__.py": TARGET,
        "tests/test_app.py": TESTS,
        "mutants/families.toml": '[family.startup]\nen = "start-up benchmark"\nzh = "启动基准"\n',
        "mutants/catalog.toml": _catalog(),
    }
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    return project


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="mutcheck-bench-"))
    project = generate(root)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root / "deps"), os.environ.get("PYTHONPATH")]))
    print(f"heavy modules: {MODULES}")
    results, _, _ = compare_with_naive(project, ["tests"], ROUNDS)
    print(f"mutcheck exit status: {results['summary']['exit_code']}")
    cleanup(project)


if __name__ == "__main__":
    main()
