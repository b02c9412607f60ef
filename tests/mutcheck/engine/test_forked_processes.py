"""A test that runs the target code in a process it forks (a `multiprocessing` pool's worker, the
default on Linux before Python 3.14): the baseline counts what the worker ran for that test, so the
test runs under the code's mutants, swapped in, and the verdict and killing tests are a plain run's."""

import pytest

from tests.mutcheck.engine_project import catalog_entry
from tests.mutcheck.plain_run import killed_as_in_a_plain_run

TABLE = """\
def build_table(width):
    rows = []
    for index in range(width):
        rows.append(index * 2)
    return rows
"""

# The worker ends by `os._exit` (an executor's shutdown) or by the SIGTERM of a pool's `terminate()`.
WORKERS = {
    "an executor's worker": """\
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from table import build_table


def test_in_a_worker():
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as executor:
        assert executor.submit(build_table, 4).result() == [0, 2, 4, 6]
""",
    "a pool's worker, terminated": """\
import multiprocessing

from table import build_table


def test_in_a_worker():
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(build_table, (4,)) == [0, 2, 4, 6]
""",
}

HERE = """\
from table import build_table


def test_has_its_width():
    assert len(build_table(4)) == 4
"""


@pytest.mark.parametrize("worker", WORKERS)
def test_code_a_forked_worker_runs_is_killed_by_the_test_that_forked_it(tmp_path, worker):
    killer = "tests/test_pool.py::test_in_a_worker"
    catalog = catalog_entry(
        "ROWS",
        "build_table",
        "rows.append(index * 2)",
        "rows.append(index * 3)",
        f'killed_by = ["{killer}"]',
        file="src/table.py",
    )
    files = {"src/table.py": TABLE, "tests/test_pool.py": WORKERS[worker], "tests/test_here.py": HERE}
    files["mutants/catalog.toml"] = catalog
    _, entry = killed_as_in_a_plain_run(tmp_path, "forked-worker", files, "ROWS", [killer])
    assert entry["path"] == "swap"  # the worker is forked from the process the mutant is swapped into
