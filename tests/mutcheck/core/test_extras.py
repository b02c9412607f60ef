"""mutcheck installed without its extras (`pip install mutcheck`): `run` works, and `comment` and
`--generic` each say in one line which extra to install."""

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.paths import GOLDEN, REPOSITORY

CHECKOUT = REPOSITORY
GOLDEN_RESULTS = GOLDEN / "results.json"


@pytest.fixture(scope="module")
def lean(tmp_path_factory) -> Path:
    """The `bin` folder of a virtual environment with this checkout installed as a user installs it
    from the package index: its own dependencies, no extra."""
    root = tmp_path_factory.mktemp("lean")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(CHECKOUT)], check=True)
    return root / "bin"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return make_engine_project(tmp_path_factory.mktemp("project") / "project")


def mutcheck(bin_folder: Path, *args: str, **environment: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [bin_folder / "mutcheck", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **environment},
        cwd=bin_folder.parent,
    )


def install(bin_folder: Path, extra: str) -> str:
    """The command that adds `extra` to the lean installation: its own Python, from the folder it was
    installed from (no package index holds mutcheck)."""
    return f"{bin_folder / 'python'} -m pip install '{CHECKOUT}[{extra}]'"


def test_the_lean_install_has_neither_pygithub_nor_mutmut(lean):
    probe = "import importlib.util as u; print([m for m in ('github', 'requests', 'mutmut') if u.find_spec(m)])"
    completed = subprocess.run([lean / "python", "-c", probe], capture_output=True, text=True, check=True)
    assert completed.stdout == "[]\n"


def test_comment_without_the_github_extra_names_it(lean):
    completed = mutcheck(
        lean,
        *("comment", "--results", str(GOLDEN_RESULTS), "--repo", "o/n", "--pr", "1"),
        *("--api-url", "http://127.0.0.1:9"),  # should it get as far as posting, nothing leaves the machine
        GITHUB_TOKEN="token-of-the-test",
    )
    assert completed.stderr == f"error: comment: needs PyGithub: {install(lean, 'github')}\n"
    assert completed.returncode == ExitCode.USAGE
    assert "Traceback" not in completed.stdout + completed.stderr


def test_generic_without_the_generic_extra_names_it(lean, project):
    completed = mutcheck(lean, "run", "--project", str(project), "--generic")
    assert completed.stderr == f"error: --generic: needs mutmut: {install(lean, 'generic')}\n"
    assert completed.returncode == ExitCode.USAGE
    assert "Traceback" not in completed.stdout + completed.stderr


def test_generic_from_the_configuration_names_the_setting(lean, tmp_path):
    project = make_engine_project(tmp_path / "project")
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("[tool.mutcheck]\n", "[tool.mutcheck]\ngeneric = true\n"))
    completed = mutcheck(lean, "run", "--project", str(project))
    expected = f"error: pyproject.toml: tool.mutcheck.generic: needs mutmut: {install(lean, 'generic')}\n"
    assert completed.stderr == expected
    assert completed.returncode == ExitCode.USAGE


def test_a_mutmut_too_old_for_mutcheck_is_one_line(lean, project, tmp_path):
    """mutmut 3.7.0 lacks `mutmut.configuration.reset_config`: installed apart from mutcheck, it is
    refused as a version mutcheck does not support, not as a defect of mutcheck."""
    old = tmp_path / "old-mutmut"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(old), "mutmut==3.7.0"]
    subprocess.run(pip, check=True)
    completed = mutcheck(lean, "run", "--project", str(project), "--generic", PYTHONPATH=str(old))
    assert completed.stderr == (
        "error: --generic: the installed mutmut is a version mutcheck does not support "
        f"(at mutmut.configuration): {install(lean, 'generic')}\n"
    )
    assert completed.returncode == ExitCode.USAGE


def test_run_works_without_the_extras(lean, project):
    results = project.parent / "lean-results.json"
    completed = mutcheck(lean, "run", "--project", str(project), "--only", "SWAP", "--json", str(results))
    assert completed.returncode == ExitCode.OK, completed.stdout + completed.stderr
    assert results.exists()


def test_the_command_line_loads_neither_pygithub_nor_mutmut():
    """Where both are installed (this environment), `mutcheck --help` imports neither."""
    probe = (
        "import sys\n"
        "from mutcheck.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "loaded = {name.split('.')[0] for name in sys.modules}\n"
        "print(sorted(loaded & {'github', 'requests', 'mutmut'}), file=sys.stderr)\n"
    )
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "Usage: " in completed.stdout
    assert completed.stderr == "[]\n"


def test_the_command_the_message_gives_adds_the_extra_where_mutcheck_runs(tmp_path):
    root = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(root)], check=True)
    python = root / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(CHECKOUT)], check=True)
    arguments = (
        "comment",
        "--results",
        str(GOLDEN_RESULTS),
        "--repo",
        "o/n",
        "--pr",
        "1",
        "--api-url",
        "http://127.0.0.1:9",
    )
    completed = mutcheck(root / "bin", *arguments, GITHUB_TOKEN="token-of-the-test")
    command = completed.stderr.removeprefix("error: comment: needs PyGithub: ").strip()
    assert command == install(root / "bin", "github")
    subprocess.run([*shlex.split(command), "-q"], check=True)  # as the user would paste it
    probe = "import github, mutcheck; print(github.__name__)"
    assert subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True).stdout == "github\n"
