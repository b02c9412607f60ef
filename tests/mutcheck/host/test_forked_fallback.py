"""A fallback mutant in a fresh host from the fork server gets the verdict a plain run gets, where
the project's own import hooks load the mutated module, where pytest's cache carries failures from
run to run (`--lf`), where a test forks workers, where doctests and `inspect` read the module's
source; and, run in a copy instead, where a test's worker
processes import the file on disk, where a test module reads the file's text at import, and where a
process a test forked reads the file or starts one that imports it."""

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
BARE = PYPROJECT.replace('addopts = ["--lf"]\n', "")  # without `--lf`

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
    "pyproject.toml": BARE,
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


# processes a test forks without exec hold the fresh host's memory: the mutated module among it
FORKING = {
    "pyproject.toml": BARE,
    "src/pool_loud.py": "LOUD = True\n\n\ndef loud(_):\n    return LOUD\n",
    "tests/test_pool.py": """\
import multiprocessing

import pool_loud


def test_a_forked_worker_sees_it_loud():
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.map(pool_loud.loud, [0]) == [True]
""",
    "mutants/families.toml": FAMILIES,
    "mutants/catalog.toml": catalog_entry(
        "POOL",
        "<module>",
        "LOUD = True",
        "LOUD = False",
        'killed_by = ["tests/test_pool.py::test_a_forked_worker_sees_it_loud"]',
        "src/pool_loud.py",
    ),
}

# ... unless such a process reads the mutated file's text, or starts a process that imports it from disk
SURVIVES = 'survives = { en = "the text on disk is the mutated one", zh = "磁盘上的文本是变异后的" }'
# each alone in its project: a mutant of module code runs every test, and the other's mark would send it to a copy
FORKED_READER = {
    "pyproject.toml": BARE,
    "src/reader_label.py": 'DEFAULT = "guest"\n',
    "tests/test_reader.py": """\
import os
from pathlib import Path

import reader_label


def test_the_forked_child_finds_the_default_in_the_source():
    pid = os.fork()
    if pid == 0:
        os._exit(0 if reader_label.DEFAULT in Path(reader_label.__file__).read_text() else 1)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
""",
    "mutants/families.toml": FAMILIES,
    "mutants/catalog.toml": catalog_entry(
        "READER", "<module>", 'DEFAULT = "guest"', 'DEFAULT = "host"', SURVIVES, "src/reader_label.py"
    ),
}
FORKED_STARTER = {
    "pyproject.toml": BARE,
    "src/start_value.py": 'VALUE = "a"\n',
    "tests/test_starter.py": """\
import os
import subprocess
import sys

import start_value


def test_a_process_the_forked_child_starts_sees_the_same_value():
    pid = os.fork()
    if pid == 0:
        code = f"import start_value, sys; sys.exit(start_value.VALUE != {start_value.VALUE!r})"
        env = {**os.environ, "PYTHONPATH": os.path.dirname(start_value.__file__)}
        os._exit(subprocess.run([sys.executable, "-c", code], env=env).returncode)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
""",
    "mutants/families.toml": FAMILIES,
    "mutants/catalog.toml": catalog_entry(
        "STARTER", "<module>", 'VALUE = "a"', 'VALUE = "b"', SURVIVES, "src/start_value.py"
    ),
}
# a test's own `inspect.getsource`, with no doctest to have filled `linecache` while collecting
INSPECTED = {
    "pyproject.toml": BARE,
    "src/motto.py": 'MOTTO = "calm"\n',
    "tests/test_motto.py": """\
import inspect

import motto


def test_the_source_spells_the_motto():
    assert '"calm"' in inspect.getsource(motto)
""",
    "mutants/families.toml": FAMILIES,
    "mutants/catalog.toml": catalog_entry(
        "MOTTO",
        "<module>",
        'MOTTO = "calm"',
        'MOTTO = "loud"',
        'killed_by = ["tests/test_motto.py::test_the_source_spells_the_motto"]',
        "src/motto.py",
    ),
}


# the module's source read for its doctests and by `inspect`: `linecache` holds the mutant's text;
# but not a test's own read of it
SOURCE_READ = {
    "pyproject.toml": PYPROJECT.replace('addopts = ["--lf"]', 'addopts = ["--doctest-modules"]').replace(
        'tests = ["tests"]', 'tests = ["src", "tests"]'
    ),
    "src/greet.py": """\
'''Greetings.'''

GREETING = "hi"


def greet():
    '''
    >>> greet()
    'hi'
    '''
    return GREETING
""",
    "tests/test_greet.py": """\
import inspect

import greet


def test_the_source_spells_the_greeting():
    assert '"hi"' in inspect.getsource(greet)
""",
    "src/shy.py": 'NAME = "hi"\n',
    "tests/test_shy.py": """\
from pathlib import Path

import shy


def test_a_changed_name_is_in_the_source():
    if shy.NAME != "hi":  # read only under the mutant: never in the baseline
        assert f'"{shy.NAME}"' in Path(shy.__file__).read_text()
""",
    "mutants/families.toml": FAMILIES,
    "mutants/catalog.toml": catalog_entry(
        "GREETING",
        "<module>",
        'GREETING = "hi"',
        'GREETING = "yo"',
        'killed_by = ["src/greet.py::greet.greet", "tests/test_greet.py::test_the_source_spells_the_greeting"]',
        "src/greet.py",
    )
    + catalog_entry("SHY", "<module>", 'NAME = "hi"', 'NAME = "yo"', SURVIVES, "src/shy.py"),
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


@pytest.mark.parametrize(
    ("files", "mutant_id", "where", "tests"),
    [
        (FORKING, "POOL", "fork", ["tests"]),  # multiprocessing's `fork` workers
        # doctests and `inspect.getsource` read the source through `linecache`
        (SOURCE_READ, "GREETING", "fork", ["src", "tests"]),
        (SOURCE_READ, "SHY", "copy", ["src", "tests"]),  # the fresh host sees a test open the file
        (INSPECTED, "MOTTO", "fork", ["tests"]),
        (FORKED_READER, "READER", "copy", ["tests"]),  # a forked child reads the source on disk
        (FORKED_STARTER, "STARTER", "copy", ["tests"]),  # a forked child starts python, which imports it from disk
    ],
)
def test_what_the_fresh_host_serves_runs_in_it_and_what_it_cannot_in_a_copy(tmp_path, files, mutant_id, where, tests):
    """A fork without exec is no process started anew, and `linecache` holds the mutant's text: the
    fresh host serves them; a forked child that reads the replaced file or starts a process says so
    (the fresh host's mark), and a copy decides."""
    project = write_files(tmp_path / "project", files)
    _, output, data = run(project, "--fresh", "--jobs", "1")
    result = mutant(data, mutant_id)
    assert (result["path"], result["fallback"]["where"]) == ("fallback", where), output
    naive = naive_run_of(project, mutant_id, tests)
    verdict = "killed" if naive.failed else "survived"
    assert (result["verdict"], set(result["killers"])) == (verdict, naive.failed), output
