"""A fixture shared by several tests (module, class, package or session scope) runs its setup in the
first test that asks for it; the others take the value it made. Under a mutant of the code that setup
runs, every test that uses the fixture runs, and the verdict and killing tests are a plain run's."""

import pytest

from tests.mutcheck.engine_project import catalog_entry
from tests.mutcheck.plain_run import killed_as_in_a_plain_run

TABLE = """\
def build_table(width):
    rows = []
    for index in range(width):
        rows.append(index * 2)
    return rows


def lookup(rows, index):
    return rows[index]
"""

# the first test of each module sets the fixture up and checks only its length; the later ones use its values
SHARED_TESTS = """\
import pytest

from table import build_table, lookup


@pytest.fixture(scope="{scope}")
def rows():
    return build_table(4)


@pytest.fixture(scope="{scope}")
def doubled(rows):  # a shared fixture set up from another: the outer one's value is made by the inner's
    return [value * 2 for value in rows]


def test_rows_has_its_width(rows, doubled):
    assert len(rows) == 4 and len(doubled) == 4


def test_the_last_row(rows):
    assert lookup(rows, 3) == 6


def test_doubled(doubled):
    assert doubled[1] == 4


def test_unrelated():
    assert lookup([1, 2], 0) == 1
"""

KILLERS = ["tests/test_table.py::test_doubled", "tests/test_table.py::test_the_last_row"]


def _run_against_a_plain_run(
    root, name: str, tests: dict[str, str], killers: list[str], table: str = TABLE
) -> tuple[dict, dict]:
    """`build_table`'s mutant run by mutcheck and by a plain pytest run over the fixture project with
    `tests`: both kill it by `killers`. The run's results and the mutant's entry."""
    killed_by = "killed_by = [" + ", ".join(f'"{killer}"' for killer in killers) + "]"
    catalog = catalog_entry(
        "ROWS", "build_table", "rows.append(index * 2)", "rows.append(index * 3)", killed_by, file="src/table.py"
    )
    files = {"src/table.py": table, **tests, "mutants/catalog.toml": catalog}
    return killed_as_in_a_plain_run(root, name, files, "ROWS", killers)


# every test uses it and the last tears it down; its value (None) carries nothing from test to test
AUTOUSE = """\
import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def environment():
    os.environ["TABLE_MODE"] = "test"
    yield
    del os.environ["TABLE_MODE"]
"""


@pytest.mark.parametrize("scope", ["module", "session"])
def test_a_mutant_of_code_a_shared_fixture_runs_is_killed_by_the_tests_that_use_its_value(tmp_path, scope):
    tests = {"tests/test_table.py": SHARED_TESTS.format(scope=scope), "tests/conftest.py": AUTOUSE}
    data, entry = _run_against_a_plain_run(tmp_path, "shared-fixture", tests, KILLERS)
    selected = {data["tests"][index] for index in entry["selected"]}
    assert "tests/test_table.py::test_unrelated" not in selected  # it uses neither fixture, only `environment`


CONFTEST = """\
import pytest

from table import build_table


@pytest.fixture(scope="session")
def rows():
    return build_table(4)
"""

FIRST_MODULE = """\
def test_rows_has_its_width(rows):
    assert len(rows) == 4
"""

# a module fixture asks for the session one by name: it was set up in the other module's test already
ASKING_MODULE = """\
import pytest


@pytest.fixture(scope="module")
def view(request):
    return list(request.getfixturevalue("rows"))


def test_view_has_its_width(view):
    assert len(view) == 4


def test_view_s_last_row(view):
    assert view[3] == 6
"""


def test_a_fixture_that_asks_for_a_shared_one_by_name_hands_its_users_what_that_one_s_setup_ran(tmp_path):
    killer = "tests/test_view.py::test_view_s_last_row"
    tests = {"tests/conftest.py": CONFTEST, "tests/test_rows.py": FIRST_MODULE, "tests/test_view.py": ASKING_MODULE}
    _run_against_a_plain_run(tmp_path, "asked-fixture", tests, [killer])


CACHED_TABLE = """\
import functools


@functools.lru_cache(maxsize=None)
def build_table(width):
    rows = []
    for index in range(width):
        rows.append(index * 2)
    return tuple(rows)
"""

# Each: the test files, the tests a plain run fails under the mutant, and the target module.
SHARED_VALUE_SHAPES = {
    # the teardown runs the code, in the teardown of the module's last test, which uses no fixture
    "torn down": (
        {
            "tests/test_table.py": """\
import pytest

from table import build_table, lookup


@pytest.fixture(scope="module")
def rows():
    value = [0, 2, 4, 6]
    yield value
    assert build_table(4) == value


def test_uses(rows):
    assert rows


def test_last_unrelated():
    assert lookup([1, 2], 0) == 1
"""
        },
        ["tests/test_table.py::test_last_unrelated"],
        TABLE,
    ),
    # an earlier test fills the shared value; a later one reads it
    "filled by a test": (
        {
            "tests/test_table.py": """\
import pytest

from table import build_table


@pytest.fixture(scope="module")
def rows():
    return []


def test_fill(rows):
    rows.extend(build_table(4))
    assert len(rows) == 4


def test_value(rows):
    assert rows[3] == 6
"""
        },
        ["tests/test_table.py::test_value"],
        TABLE,
    ),
    # the setup takes the value from a cache another module's test filled: no code starts in it
    "a cache read in the setup": (
        {
            "tests/test_a.py": """\
from table import build_table


def test_a_len():
    assert len(build_table(4)) == 4
""",
            "tests/test_b.py": """\
import pytest

from table import build_table


@pytest.fixture(scope="module")
def view():
    return build_table(4)


def test_b_first(view):
    assert len(view) == 4


def test_b_value(view):
    assert view[3] == 6
""",
        },
        ["tests/test_b.py::test_b_value"],
        CACHED_TABLE,
    ),
    # a thread the setup started finishes the value while the first test runs
    "finished by a thread": (
        {
            "tests/test_table.py": """\
import threading

import pytest

from table import build_table


@pytest.fixture(scope="module")
def late():
    box = {"ready": threading.Event()}

    def work():
        box["ready"].wait()
        box["rows"] = build_table(4)

    box["thread"] = threading.Thread(target=work)
    box["thread"].start()
    return box


def test_first(late):
    late["ready"].set()
    late["thread"].join()
    assert len(late["rows"]) == 4


def test_late_value(late):
    assert late["rows"][3] == 6
"""
        },
        ["tests/test_table.py::test_late_value"],
        TABLE,
    ),
    # the setup has a Python subprocess run the code and reads what it wrote
    "a subprocess in the setup": (
        {
            "tests/test_table.py": """\
import os
import subprocess
import sys
from pathlib import Path

import pytest

SOURCES = str(Path(__file__).parents[1] / "src")


@pytest.fixture(scope="module")
def view(tmp_path_factory):
    path = tmp_path_factory.mktemp("table") / "rows.txt"
    code = f"import table; open({str(path)!r}, 'w').write(','.join(map(str, table.build_table(4))))"
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([SOURCES, os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, "-c", code], check=True, env=environment)
    return [int(value) for value in path.read_text().split(",")]


def test_first(view):
    assert len(view) == 4


def test_value(view):
    assert view[3] == 6
"""
        },
        ["tests/test_table.py::test_value"],
        TABLE,
    ),
}


@pytest.mark.parametrize("shape", SHARED_VALUE_SHAPES)
def test_what_reaches_a_test_through_a_shared_value_runs_under_the_mutant(tmp_path, shape):
    tests, killers, table = SHARED_VALUE_SHAPES[shape]
    _run_against_a_plain_run(tmp_path, "shared-value", tests, killers, table)
