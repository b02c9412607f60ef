"""Right answers on the shapes real code has (decorators, caches, overloads, closures and tables made at
import, reloads, saved code objects, subprocesses, segfaults): a real run on the shapes fixture,
every verdict and killing-test set compared with one plain pytest per mutant, and the path each
mutant took with the reason it fell back."""

from pathlib import Path

import pytest

from mutcheck.catalog.catalog import load_catalog
from mutcheck.mutation.mutate import apply_mutant
from tests.mutcheck.cli_runs import mutant, run
from tests.mutcheck.naive import naive_failures
from tests.mutcheck.shapes_project import make_shapes_project


@pytest.fixture(scope="module")
def shapes(tmp_path_factory) -> tuple[Path, int, str, dict]:
    project = make_shapes_project(tmp_path_factory.mktemp("shapes") / "project")
    code, output, data = run(project)
    return project, code, output, data


def test_every_verdict_and_killing_set_is_what_one_pytest_per_mutant_says(shapes):
    project, code, output, data = shapes
    catalog = load_catalog(project / "mutants", project, ("en", "zh"))
    for entry in catalog.mutants:
        applied = apply_mutant(entry, project)
        writes = [(edit.path, edit.text, edit.encoding) for edit in applied.files_written()]
        naive = naive_failures(project, writes, ["tests"])
        result = mutant(data, entry.id)
        assert (result["verdict"], set(result["killers"])) == ("killed" if naive else "survived", naive), entry.id
    assert code == 0, output


@pytest.mark.parametrize(
    ("mutant_id", "path", "reason"),
    [
        ("WRAPS", "swap", None),  # the function behind functools.wraps
        ("CONTEXT", "swap", None),  # the generator behind contextmanager
        ("CACHE", "swap", None),  # behind lru_cache
        ("OVERLOAD", "swap", None),  # the implementation, not a stub
        ("CLOSURE", "swap", None),  # the closure tagger made at import
        ("SETTER", "swap", None),  # the setter, not the getter it shares its name with
        ("SEGFAULT", "swap", None),
        ("FREEVAR", "swap", None),  # join_turns, whose cells change, carries the nested flush's edit
        ("LOCALCLASS", "swap", None),  # counter_class, which makes the class at each call
        ("SUPER", "swap", None),  # the method, its class cell kept
        ("TWIN", "swap", None),  # a test of history.preview says nothing of twin.preview's evidence
        # TABLE was built before any test; every test is selected, one of which starts a process that
        # imports the file on disk: a copy, not a fresh host from the fork server
        ("IMPORT", "fallback", ("import-time", "copy")),
        # the code saved at import is the original's: a fresh host forked before the project's code
        # ran imports the mutated text anew
        ("SAVED", "fallback", ("no-evidence", "fork")),
        # the reloaded module's functions are new code objects; a test may have run the file's source
        ("RELOAD", "fallback", ("fresh-code", "copy")),
        ("CLI", "fallback", ("subprocess", "copy")),  # a process the test starts imports the file on disk
    ],
)
def test_each_shape_takes_the_path_that_can_prove_it_ran(shapes, mutant_id, path, reason):
    entry = mutant(shapes[3], mutant_id)
    fallback = entry["fallback"]
    assert (entry["path"], fallback and (fallback["reason"], fallback["where"])) == (path, reason)


def test_a_function_run_at_import_selects_every_test(shapes):
    data = shapes[3]
    assert mutant(data, "IMPORT")["selected"] == list(range(len(data["tests"])))


def test_a_function_of_the_same_name_in_another_file_selects_only_its_own_tests(shapes):
    data = shapes[3]
    async_test = data["tests"].index("tests/test_history.py::test_an_async_preview_is_three_letters")
    assert mutant(data, "TWIN")["selected"] == [async_test]


def test_a_later_test_answered_from_the_cache_is_selected(shapes):
    data = shapes[3]
    cached = data["tests"].index("tests/test_history.py::test_roles_of_chat_again_from_the_cache")
    assert cached in mutant(data, "CACHE")["selected"]


def test_a_segfault_in_the_killer_is_a_kill_and_its_witness_names_the_signal(shapes):
    data = shapes[3]
    entry = mutant(data, "SEGFAULT")
    test = data["tests"].index("tests/test_history.py::test_reading_address_zero_gives_nothing")
    assert entry["verdict"] == "killed" and entry["broken"] is None
    assert entry["outcomes"][str(test)] == "failed"
    assert entry["witnesses"][str(test)].startswith("SIGSEGV (Segmentation fault)")


def test_the_evidence_that_fell_short_names_its_test(shapes):
    entry = mutant(shapes[3], "SAVED")
    assert entry["fallback"]["test"] == "tests/test_history.py::test_a_rebuilt_function_increments"
