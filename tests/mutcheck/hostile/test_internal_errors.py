"""An exception mutcheck does not expect ends in one line and exit 5, its traceback in a file."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import mutcheck.catalog.options
import mutcheck.catalog.project_catalog
from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.engine_project import make_project

LINE = re.compile(r"internal error: RuntimeError: a defect; details in (\S+)")


def _defect(*_args, **_kwargs):
    raise RuntimeError("a defect\nwith a second line")


def _details(output: str) -> Path:
    match = LINE.fullmatch(output.strip())
    assert match, output
    return Path(match.group(1))


def test_an_unexpected_exception_in_run_is_one_line_and_exit_5(tmp_path, monkeypatch):
    project = make_project(tmp_path / "project")
    monkeypatch.setattr(mutcheck.catalog.options, "load_config", _defect)  # `run` reads its configuration there
    result = CliRunner().invoke(main, ["run", "--project", str(project)])
    assert result.exit_code == ExitCode.INTERNAL_ERROR, result.output
    details = _details(result.output)
    text = details.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "with a second line" in text
    assert "Traceback" not in result.output
    details.unlink()


def test_every_command_has_the_same_boundary(tmp_path, monkeypatch):
    project = make_project(tmp_path / "project")
    # every command reads the catalog through project_catalog
    monkeypatch.setattr(mutcheck.catalog.project_catalog, "load_catalog", _defect)
    for command in (["list"], ["check"], ["show", "B1"]):
        result = CliRunner().invoke(main, [*command, "--project", str(project)])
        assert result.exit_code == ExitCode.INTERNAL_ERROR, (command, result.output)
        _details(result.output).unlink()


def test_the_installed_entry_point_prints_no_traceback(tmp_path):
    """A real process: stderr is the one line, stdout is empty."""
    project = make_project(tmp_path / "project")
    program = (
        "import sys, mutcheck.catalog.options\n"
        "def defect(*a, **k): raise RuntimeError('a defect')\n"
        "mutcheck.catalog.options.load_config = defect\n"
        "from mutcheck.cli import main\n"
        "main(['run', '--project', sys.argv[1]])\n"
    )
    done = subprocess.run([sys.executable, "-c", program, str(project)], capture_output=True, text=True, check=False)
    assert done.returncode == ExitCode.INTERNAL_ERROR, done.stderr
    assert done.stdout == ""
    _details(done.stderr).unlink()


@pytest.mark.parametrize("command", [["list"], ["init"]], ids=["rich-output", "click-output"])
def test_an_output_nobody_reads_ends_quietly_not_as_an_internal_error(tmp_path, command):
    """`mutcheck … | head`: the reader is gone before mutcheck writes; that is no defect of ours."""
    import os

    project = make_project(tmp_path / "project")
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with EPIPE, as after `head` has exited
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "mutcheck", *command, "--project", str(project)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        os.close(write_end)
    assert completed.returncode == ExitCode.OUTPUT_CLOSED, completed.stderr
    assert completed.stderr == ""
