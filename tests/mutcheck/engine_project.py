"""A tiny pytest project in a temporary directory. Its full catalog exercises every engine path
(swap, nested scope, fallback, timeout, no coverage, a mutant that breaks the import, a
declared-equivalent mutant, a survivor); catalog tests give it one entry of their own."""

import subprocess
import textwrap
from pathlib import Path


def pyproject(name: str, timeout_constant: float) -> str:
    """A fixture's pyproject.toml: its sources on pytest's path, two workers, short time limits."""
    return f"""\
[project]
name = "{name}"
version = "0"

[tool.pytest.ini_options]
pythonpath = ["src"]

[tool.mutcheck]
target = ["src"]
tests = ["tests"]
jobs = 2
timeout_factor = 2.0
timeout_constant = {timeout_constant}
"""


def families(name: str, en: str, zh: str) -> str:
    """A families.toml with one family."""
    return f'[family.{name}]\nen = "{en}"\nzh = "{zh}"\n'


PYPROJECT = pyproject("engine-fixture", timeout_constant=1.0)
FAMILIES = families("boundary", "boundary conditions", "边界条件")

SOURCE = '''\
"""Engine fixture target."""


def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value


class Counter:
    step = 1

    def __init__(self):
        self.count = 0

    def add(self, amount):
        def checked(step):
            return step if step > 0 else 0

        self.count += checked(amount)
        return self.count

    def tick(self):
        self.count += self.step
        return self.count


def countdown(n):
    while n > 0:
        n -= 1
    return n


def unused(x):
    return x + 1
'''

TESTS = """\
from tiny import Counter, clamp, countdown


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


def test_tick():
    assert Counter().tick() == 1


def test_countdown():
    assert countdown(3) == 0


def test_countdown_from_zero():
    assert countdown(0) == 0
"""


def catalog_entry(
    mutant_id: str,
    scope: str,
    match: str,
    replace: str,
    expectation: str,
    file: str = "src/tiny.py",
    family: str = "boundary",
    origin: str = "engine fixture",
) -> str:
    """One `[[mutant]]` entry of a fixture's catalog; `expectation` as TOML source."""
    return f"""
[[mutant]]
id = "{mutant_id}"
family = "{family}"
file = "{file}"
scope = "{scope}"
match = '''{match}'''
replace = '''{replace}'''
{expectation}
origin = "{origin}"
title = {{ en = "{mutant_id} title", zh = "{mutant_id} 标题" }}
why = {{ en = "{mutant_id} why", zh = "{mutant_id} 原因" }}
"""


def _killed_by(*tests: str) -> str:
    return "killed_by = [" + ", ".join(f'"tests/test_tiny.py::{test}"' for test in tests) + "]"


CATALOG = "".join(
    [
        catalog_entry("SWAP", "clamp", "value < low", "value > low", _killed_by("test_clamp_low", "test_clamp_inside")),
        catalog_entry(
            "NESTED", "Counter.add.checked", "step > 0", "step < 0", _killed_by("test_counter_ignores_negative")
        ),
        catalog_entry("FALLBACK", "Counter", "step = 1", "step = 2", _killed_by("test_tick")),
        catalog_entry("LOOP", "countdown", "n -= 1", "n -= 0", _killed_by("test_countdown")),
        catalog_entry(
            "HANG",
            "countdown",
            "while n > 0:\n    n -= 1\nreturn n",
            "while n > 2:\n    n -= 0\nreturn n - 1",
            _killed_by("test_countdown_from_zero"),
        ),
        catalog_entry("UNREACHED", "unused", "x + 1", "x - 1", _killed_by("test_clamp_low")),
        catalog_entry("BREAKS", "Counter", "step = 1", "step = undefined_name", _killed_by("test_tick")),
        catalog_entry(
            "EQUAL",
            "clamp",
            "value < low",
            "value <= low",
            'equivalent = { en = "returns low either way", zh = "同样返回 low" }',
        ),
        catalog_entry("SURVIVOR", "clamp", "value > high", "value >= high", _killed_by("test_clamp_high")),
    ]
)


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


def entry(**fields: str | None) -> str:
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


def make_project(root: Path, catalog: str = GOOD_ENTRY, families: str = FAMILIES) -> Path:
    """The fixture project with a catalog of the caller's choice."""
    return make_engine_project(root, catalog=catalog, families=families)


ENGLISH_ONLY = entry(replace='"value > low"', title='{ en = "low bound inclusive" }', why='{ en = "why" }')


def english_project(root: Path, catalog: str = ENGLISH_ONLY) -> Path:
    """The fixture as another project may set it up: `languages = ["en"]`, no families.toml."""
    project = make_project(root, catalog)
    (project / "mutants/families.toml").unlink()
    with (project / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write('languages = ["en"]\n')
    return project


def make_engine_project(root: Path, git: bool = False, catalog: str = CATALOG, families: str = FAMILIES) -> Path:
    files = {
        "pyproject.toml": PYPROJECT,
        "src/tiny.py": SOURCE,
        "tests/test_tiny.py": TESTS,
        "mutants/families.toml": families,
        "mutants/catalog.toml": catalog,
        ".gitignore": "__pycache__/\n",
    }
    write_files(root, files)
    if git:
        commit_all(root)
    return root


def write_files(root: Path, files: dict[str, str]) -> Path:
    """Each file's text (dedented) written under `root`, its folders made."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def commit_all(root: Path) -> None:
    """A git repository at `root` with everything in it committed."""
    for command in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "add", "-A"],
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "fixture"],
    ):
        subprocess.run(command, cwd=root, check=True)
