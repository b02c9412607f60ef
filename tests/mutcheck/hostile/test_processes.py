"""Nothing of a run outlives it: what a test starts is killed with the test's process (or, when it left
the session, with the run), nothing is left in TMPDIR, and a fallback
mutant's scratch folder is named without the mutant's id."""

from pathlib import Path

import pytest

from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.hostile.run_project import Run, make_hostile_project


@pytest.fixture(scope="module")
def spawning_run(tmp_path_factory):
    """A whole run in which a test starts `sleep 300` and passes: in the baseline, under a swap
    mutant (in a forked child) and under a fallback mutant (in a fresh host)."""
    folder = tmp_path_factory.mktemp("spawning")
    project = make_hostile_project(folder / "project")
    run = Run(project, folder, "--only", "SPAWN_SWAP", "--only", "FB_SPAWN").start()
    code, stdout, stderr = run.finish()
    left = run.processes_after(10)
    run.kill_leftovers()
    yield run, code, stdout + stderr, left


def test_a_finished_run_leaves_no_process(spawning_run):
    run, code, output, left = spawning_run
    assert code == ExitCode.EXPECTATION_FAILED, output  # both mutants survive: the tests pass under them
    # One marker per process that ran the spawning tests: the baseline's children, the swap
    # child and the fallback host (at least), so every kind of process did start a `sleep`.
    assert len(list(run.markers.glob("spawn-and-pass-*"))) >= 3
    # The same for a `sleep` started in a session of its own, beyond the reach of the run's session.
    assert len(list(run.markers.glob("new-session-*"))) >= 1
    assert left == []


def test_a_fallback_folder_is_not_named_after_the_mutant(spawning_run):
    run, _, _, _ = spawning_run
    # Where each spawning test ran: the run's scratch copy, and the fallback mutant's copy of it.
    folders = {marker.read_text(encoding="utf-8") for marker in run.markers.glob("spawn-and-pass-*")}
    assert len(folders) == 2, folders
    assert not any("FB_SPAWN" in folder for folder in folders), folders


def test_a_finished_run_leaves_no_scratch_folder(spawning_run):
    run, _, _, _ = spawning_run
    # The scratch folders the tests ran in were made in the run's own temporary folder, which is empty now.
    folders = {Path(marker.read_text(encoding="utf-8")) for marker in run.markers.glob("spawn-and-pass-*")}
    assert folders and all(folder.is_relative_to(run.temporary) for folder in folders), folders
    assert not any(folder.exists() for folder in folders), folders
    assert run.scratch_folders() == []  # pytest's `pytest-of-<user>` for `tmp_path` included
