"""A fallback mutant whose code runs while pytest imports the tests is collected as a plain run
collects it: a test module with no selected test that no longer imports under the mutant breaks the
suite, as one plain pytest per mutant says; a mutant whose code runs only inside tests collects only
its tests' modules. Such a mutant runs in a fresh host the fork server made, which imports the
mutated text anew, unless a test reads its file by other means than importing it or starts a
process (which imports the file on disk): then in a copy."""

import pytest

from tests.mutcheck.cli_runs import mutant, run
from tests.mutcheck.engine_project import FAMILIES, catalog_entry, pyproject, write_files
from tests.mutcheck.naive import naive_run_of

REGISTRY = """\
def register(function):
    if function.__name__.startswith("_"):
        raise ValueError("private functions are not registered")
    return function


def lookup(name):
    return name.upper()


def sizes():
    return [1, 2]


def tagged(function):
    function.tag = "public"
    return function
"""

LABELS = """\
def label(name):
    return name.title()


DEFAULT = label("guest")
"""

# a test module of the kind that only applies the project's decorators at import (a typing check)
DECORATED = """\
from registry import register, tagged


@register
def public():
    return 1


@tagged
def shown():
    return 2


def test_a_tagged_function_is_public():
    assert shown.tag == "public"
"""

# a test that starts a Python process only under the mutant: that process imports the file on disk
PROBE = """\
def mode():
    return "inline"


MODE = mode()
"""

PROBE_TESTS = """\
import os
import subprocess
import sys

import probe

ASK = "import sys; sys.path.insert(0, sys.argv[1]); import probe; print(probe.mode())"


def test_a_process_mode_is_confirmed_by_a_process():
    if probe.MODE == "process":
        folder = os.path.dirname(probe.__file__)
        said = subprocess.run([sys.executable, "-c", ASK, folder], capture_output=True, text=True, check=True)
        assert said.stdout.strip() == "inline"
"""

# a test that reads a module's source as text: a fresh host importing the mutated text would show it
# the file on disk, the original
LABEL_TESTS = """\
from pathlib import Path

import labels


def test_the_default_label_is_built_from_the_source():
    assert 'label("guest")' in Path(labels.__file__).read_text()
    assert labels.DEFAULT == "Guest"
"""

TESTS = """\
import pytest

from registry import lookup, register, sizes


def test_a_private_function_is_refused():
    def _private():
        pass

    with pytest.raises(ValueError):
        register(_private)


def test_lookup_shouts():
    assert lookup("a") == "A"


@pytest.mark.parametrize("size", sizes())
def test_a_size_is_positive(size):
    assert size > 0
"""

REFUSED = 'killed_by = ["tests/test_registry.py::test_a_private_function_is_refused"]'
CATALOG = (
    catalog_entry("REFUSE-ALL", "register", 'function.__name__.startswith("_")', "True", REFUSED, "src/registry.py")
    + catalog_entry(
        "LOOKUP",
        "lookup",
        "name.upper()",
        "name",
        'killed_by = ["tests/test_registry.py::test_lookup_shouts"]',
        "src/registry.py",
    )
    + catalog_entry("SIZES", "sizes", "[1, 2]", "[1, 3]", REFUSED, "src/registry.py")
    + catalog_entry(
        "TAG",
        "tagged",
        '"public"',
        '"private"',
        'killed_by = ["tests/test_decorated.py::test_a_tagged_function_is_public"]',
        "src/registry.py",
    )
    + catalog_entry(
        "LABEL",
        "label",
        "name.title()",
        "name.upper()",
        'killed_by = ["tests/test_labels.py::test_the_default_label_is_built_from_the_source"]',
        "src/labels.py",
    )
    + catalog_entry(
        "DEFAULT",
        "<module>",
        'DEFAULT = label("guest")',
        'DEFAULT = label("host")',
        'killed_by = ["tests/test_labels.py::test_the_default_label_is_built_from_the_source"]',
        "src/labels.py",
    )
    + catalog_entry(
        "PROBE",
        "mode",
        '"inline"',
        '"process"',
        'killed_by = ["tests/test_probe.py::test_a_process_mode_is_confirmed_by_a_process"]',
        "src/probe.py",
    )
)


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("fallback-collection") / "project"
    files = {
        "pyproject.toml": pyproject("fallback-collection-fixture", timeout_constant=5.0),
        "src/registry.py": REGISTRY,
        "tests/test_decorated.py": DECORATED,
        "tests/test_registry.py": TESTS,
        "src/labels.py": LABELS,
        "tests/test_labels.py": LABEL_TESTS,
        "src/probe.py": PROBE,
        "tests/test_probe.py": PROBE_TESTS,
        "mutants/families.toml": FAMILIES,
        "mutants/catalog.toml": CATALOG,
    }
    return root, run(write_files(root, files), "--fresh")


def test_a_test_module_that_no_longer_imports_breaks_the_suite_as_a_plain_run_says(fixture_run):
    project, (_, output, data) = fixture_run
    refuse_all = mutant(data, "REFUSE-ALL")
    assert (refuse_all["path"], refuse_all["fallback"]["reason"]) == ("fallback", "import-time")
    assert refuse_all["fallback"]["where"] == "fork"
    naive = naive_run_of(project, "REFUSE-ALL", ["tests"])
    assert (naive.status, naive.failed) == (2, set())  # pytest: an error while collecting, no test run
    assert refuse_all["verdict"] == "broken", output
    assert "test_decorated.py" in refuse_all["broken"]


def test_a_mutant_swapped_in_a_function_that_never_ran_at_import_is_killed_as_before(fixture_run):
    project, (_, _, data) = fixture_run
    lookup = mutant(data, "LOOKUP")
    assert (lookup["path"], lookup["verdict"], set(lookup["killers"])) == (
        "swap",
        "killed",
        naive_run_of(project, "LOOKUP", ["tests"]).failed,
    )


def test_a_mutant_that_changes_which_tests_are_collected_says_so(fixture_run):
    """Its parametrize ids change: the tests it was selected for are no longer there to run."""
    _, (_, _, data) = fixture_run
    sizes = mutant(data, "SIZES")
    assert (sizes["path"], sizes["verdict"]) == ("fallback", "broken")
    assert sizes["broken"] == (
        "the mutant changed which tests are collected: 1 no longer are "
        "(first: tests/test_registry.py::test_a_size_is_positive[2])"
    )


def test_a_mutant_run_at_import_is_imported_anew_by_a_forked_host_and_killed_as_a_plain_run_says(fixture_run):
    project, (_, _, data) = fixture_run
    tag = mutant(data, "TAG")
    assert (tag["path"], tag["fallback"]["reason"], tag["fallback"]["where"]) == ("fallback", "import-time", "fork")
    naive = naive_run_of(project, "TAG", ["tests"])
    assert naive.failed == {"tests/test_decorated.py::test_a_tagged_function_is_public"}
    assert (tag["verdict"], set(tag["killers"])) == ("killed", naive.failed)


def test_a_mutant_whose_file_a_test_reads_as_text_runs_in_a_copy(fixture_run):
    project, (_, _, data) = fixture_run
    label = mutant(data, "LABEL")
    assert (label["path"], label["fallback"]["reason"], label["fallback"]["where"]) == (
        "fallback",
        "import-time",
        "copy",
    )
    naive = naive_run_of(project, "LABEL", ["tests"])
    assert naive.failed == {"tests/test_labels.py::test_the_default_label_is_built_from_the_source"}
    assert (label["verdict"], set(label["killers"])) == ("killed", naive.failed)


def test_a_mutant_under_which_a_test_starts_a_process_runs_again_in_a_copy(fixture_run):
    """Unmutated, the test starts nothing; under the mutant its process imports the mutated file,
    which only a copy has on disk."""
    project, (_, _, data) = fixture_run
    probe = mutant(data, "PROBE")
    assert (probe["path"], probe["fallback"]["reason"], probe["fallback"]["where"]) == (
        "fallback",
        "import-time",
        "copy",
    )
    naive = naive_run_of(project, "PROBE", ["tests"])
    assert naive.failed == {"tests/test_probe.py::test_a_process_mode_is_confirmed_by_a_process"}
    assert (probe["verdict"], set(probe["killers"])) == ("killed", naive.failed)


def test_a_module_statement_s_reason_names_it(fixture_run):
    project, (_, _, data) = fixture_run
    default = mutant(data, "DEFAULT")
    assert (default["path"], default["fallback"]["reason"]) == ("fallback", "module-statement")
    naive = naive_run_of(project, "DEFAULT", ["tests"])
    assert (default["verdict"], set(default["killers"])) == ("killed", naive.failed) != ("killed", set())
