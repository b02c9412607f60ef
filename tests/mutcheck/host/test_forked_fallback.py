"""A fallback mutant in a fresh host from the fork server gets the verdict a plain run gets, where
the project's own import hooks load the mutated module, where pytest's cache carries failures from
run to run (`--lf`), and, run in a copy instead, where a test's worker processes import the file on
disk or a test module reads the file's text at import."""

import pytest

from tests.mutcheck.cli_runs import mutant, run
from tests.mutcheck.engine_project import FAMILIES, catalog_entry, pyproject, write_files
from tests.mutcheck.naive import naive_run_of

# one worker: each fallback host finishes before the next starts, so one's `--lf` record could reach the next
PYPROJECT = (
    pyproject("forked-fallback", timeout_constant=5.0)
    .replace('pythonpath = ["src"]\n', 'pythonpath = ["src"]\naddopts = ["--lf"]\n')
    .replace("jobs = 2", "jobs = 1")
)

# as typeguard's and jaxtyping's import hooks do: first on sys.meta_path, finding through PathFinder
HOOK = """\
import sys
from importlib.machinery import PathFinder


class Instrumenting:
    def find_spec(self, name, path=None, target=None):
        return PathFinder.find_spec(name, path, target) if name == "shout" else None


sys.meta_path.insert(0, Instrumenting())
"""

FORKED = {
    "pyproject.toml": PYPROJECT,
    "tests/conftest.py": HOOK,
    "src/shout.py": "LOUD = True\n",
    "tests/test_shout.py": "from shout import LOUD\n\n\ndef test_loud():\n    assert LOUD\n",
    "src/alpha.py": "A = 1\n",
    "tests/test_alpha.py": "from alpha import A\n\n\ndef test_a():\n    assert A == 1\n",
    "src/beta.py": "B = 2\n",
    "tests/test_beta.py": "from beta import B\n\n\ndef test_b():\n    assert B == 2\n",
    "mutants/families.toml": FAMILIES,
    "mutants/catalog.toml": (
        catalog_entry(
            "SHOUT",
            "<module>",
            "LOUD = True",
            "LOUD = False",
            'killed_by = ["tests/test_shout.py::test_loud"]',
            "src/shout.py",
        )
        + catalog_entry(
            "ALPHA", "<module>", "A = 1", "A = 3", 'killed_by = ["tests/test_alpha.py::test_a"]', "src/alpha.py"
        )
        + catalog_entry(
            "BETA", "<module>", "B = 2", "B = 3", 'killed_by = ["tests/test_beta.py::test_b"]', "src/beta.py"
        )
    ),
}

# a mutant of module code selects every test: one test that starts processes sends them all to copies
COPIED = {
    "pyproject.toml": PYPROJECT.replace('addopts = ["--lf"]\n', ""),
    "src/workers.py": "LOUD = True\n\n\ndef loud(_):\n    return LOUD\n",
    "tests/test_workers.py": """\
import multiprocessing

import workers


def test_a_worker_sees_it_loud():
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.map(workers.loud, [0]) == [True]
""",
    "src/labels.py": 'DEFAULT = "guest"\n',
    "tests/test_labels.py": """\
from pathlib import Path

import labels

SOURCE = Path(labels.__file__).read_text()


def test_the_source_names_the_default():
    assert labels.DEFAULT in SOURCE
""",
    "mutants/families.toml": FAMILIES,
    "mutants/catalog.toml": (
        catalog_entry(
            "WORKERS",
            "<module>",
            "LOUD = True",
            "LOUD = False",
            'killed_by = ["tests/test_workers.py::test_a_worker_sees_it_loud"]',
            "src/workers.py",
        )
        + catalog_entry(
            "LABEL",
            "<module>",
            'DEFAULT = "guest"',
            'DEFAULT = "host"',
            'survives = { en = "the text read at import is the mutated one", zh = "导入时读到的是变异后的文本" }',
            "src/labels.py",
        )
    ),
}


@pytest.fixture(scope="module")
def forked(tmp_path_factory):
    project = write_files(tmp_path_factory.mktemp("forked") / "project", FORKED)
    return run(project, "--fresh")


@pytest.fixture(scope="module")
def copied(tmp_path_factory):
    project = write_files(tmp_path_factory.mktemp("copied") / "project", COPIED)
    return project, run(project, "--fresh")


@pytest.mark.parametrize(
    ("mutant_id", "killer"),
    [
        ("SHOUT", "tests/test_shout.py::test_loud"),  # the project's own finder, first, still finds the text
        ("ALPHA", "tests/test_alpha.py::test_a"),
        ("BETA", "tests/test_beta.py::test_b"),  # after ALPHA's host failed a test: no `--lf` record of it
    ],
)
def test_a_forked_host_kills_as_a_plain_run_does(forked, mutant_id, killer):
    """Each is killed by its own test alone: a plain run with `--lf` and no failure recorded runs
    them all (the naive helper runs pytest without its cache, which `--lf` needs)."""
    _, output, data = forked
    result = mutant(data, mutant_id)
    assert (result["path"], result["fallback"]["where"]) == ("fallback", "fork"), output
    assert (result["verdict"], result["killers"]) == ("killed", [killer]), output


@pytest.mark.parametrize(
    "mutant_id",
    [
        "WORKERS",  # spawned workers import the file on disk
        "LABEL",  # a test module reads the file's text at import
    ],
)
def test_what_needs_the_file_on_disk_runs_in_a_copy(copied, mutant_id):
    project, (_, output, data) = copied
    result = mutant(data, mutant_id)
    assert (result["path"], result["fallback"]["where"]) == ("fallback", "copy"), output
    naive = naive_run_of(project, mutant_id, ["tests"])
    verdict = "killed" if naive.failed else "survived"
    assert (result["verdict"], set(result["killers"])) == (verdict, naive.failed), output
