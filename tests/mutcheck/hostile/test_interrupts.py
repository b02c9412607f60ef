"""Whole `mutcheck run`s interrupted with SIGINT, SIGTERM and SIGKILL at several moments: the
working tree stays byte-identical, no process of the run is left, and no scratch folder (after a
SIGKILL: once the next run has started). SIGINT and SIGTERM end the run with one line and exit
130 or 143, cleanup done, from the first moment mutcheck can catch them.

Each moment is reached through a marker file written by the fixture's misbehaving test, never a
fixed sleep. SIGINT and SIGTERM are checked the moment mutcheck has exited (it waits for its
cleanup); after SIGKILL, which mutcheck cannot see, its host notices and stops the rest.
"""

import re
import signal
import time
from pathlib import Path

import pytest

from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.hostile.run_project import Run, make_hostile_project, tree_digest

# moment: (arguments, HOSTILE_MOMENT, the marker of the misbehaving test that shows it has come)
# --fresh: a run the store could answer whole would start no test (the SIGKILL cases' next run is one)
MOMENTS = {
    "collection": (["--only", "SPAWN_SWAP", "--fresh"], "collection", "block"),
    "baseline": (["--only", "SPAWN_SWAP", "--fresh"], "baseline", "block"),
    "swap mutant": (["--only", "BLOCK", "--fresh"], None, "block"),
    "fallback mutant ignoring SIGALRM": (["--only", "FB_SPIN", "--fresh"], None, "spin"),
    "test that spawned a subprocess": (["--only", "SPAWN", "--fresh"], None, "spawn"),
}
EXIT_CODES = {signal.SIGINT: ExitCode.INTERRUPTED, signal.SIGTERM: ExitCode.TERMINATED, signal.SIGKILL: -signal.SIGKILL}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return make_hostile_project(tmp_path_factory.mktemp("interrupted") / "project")


def _internal_error(stderr: str) -> str:
    """The details an internal error left in its file, for the failure message."""
    found = re.search(r"details in (\S+)", stderr)
    return Path(found[1]).read_text(encoding="utf-8") if found and Path(found[1]).is_file() else ""


def _interrupted_line(signum: int) -> str:
    return f"interrupted ({signal.Signals(signum).name}): scratch folders removed"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_an_interrupted_run_leaves_nothing(project, tmp_path, moment, signum):
    arguments, hostile_moment, marker = MOMENTS[moment]
    before = tree_digest(project)
    run = Run(project, tmp_path, *arguments, moment=hostile_moment).start()
    try:
        run.wait_for_marker(marker)
        run.send(signum)
        code, stdout, stderr = run.finish()
        left = run.processes() if signum != signal.SIGKILL else run.processes_after(10)
    finally:
        run.kill_leftovers()
    assert code == EXIT_CODES[signum], stdout + stderr
    if signum != signal.SIGKILL:
        assert stderr.splitlines() == [_interrupted_line(signum)], stderr
        assert "Traceback" not in stdout
        assert run.scratch_folders() == []
    assert left == []
    assert tree_digest(project) == before
    if signum == signal.SIGKILL:
        assert run.scratch_folders(), "the killed run could not remove its scratch folder"
        next_run = Run(project, tmp_path, "--only", "SPAWN_SWAP").start()
        next_code, next_stdout, next_stderr = next_run.finish()
        said = next_stdout + next_stderr + _internal_error(next_stderr)  # before its folders go
        next_run.kill_leftovers()
        assert next_code == ExitCode.EXPECTATION_FAILED, said
        assert run.scratch_folders() == []


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_an_interruption_while_mutcheck_starts_is_one_line(project, tmp_path, signum):
    """Sent as soon as mutcheck catches the signals, while it is still loading its modules."""
    run = Run(project, tmp_path).start()
    try:
        deadline = time.monotonic() + 30
        while not run.catches(signal.SIGTERM) and run.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
        assert run.process.poll() is None and run.catches(signal.SIGTERM), "mutcheck never caught SIGTERM"
        run.send(signum)
        code, stdout, stderr = run.finish()
    finally:
        run.kill_leftovers()
    assert code == EXIT_CODES[signum], stdout + stderr
    assert stderr.splitlines() == [_interrupted_line(signum)], stderr
    assert run.processes() == []
    assert run.scratch_folders() == []


def test_a_signal_wrapped_by_class_creation_is_still_an_interruption():
    """SIGTERM landing while a library defines a class reaches us as RuntimeError from __set_name__."""
    import signal

    from click.testing import CliRunner

    from mutcheck.cli import main
    from mutcheck.sandbox.interrupt import Interrupted

    class Field:
        def __set_name__(self, owner, name):
            raise Interrupted(signal.SIGTERM)

    @main.command("define-a-class", hidden=True)
    def define_a_class():
        type("Set", (), {"lbrace": Field()})

    import pytest

    try:
        with pytest.raises(Interrupted):  # on to `interrupt.handled`: one line and exit 143, not exit 5
            CliRunner().invoke(main, ["define-a-class"])
    finally:
        main.commands.pop("define-a-class")
