"""`init --github` proves its install line as CI will use it: a project whose virtual environment
lives inside it and whose tests need an extra of a dependency; the line is collected in a fresh
environment before any workflow is written. Real venvs, real pip, real pytest."""

import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[3]
REF = "f" * 40

PYPROJECT = """[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "shop"
version = "0.1"
dependencies = [{dependencies}]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""

TEST = """import socks  # PySocks: what requests[socks] brings

from shop.cart import total


def test_total():
    assert socks.PROXY_TYPE_SOCKS5 == 2
    assert total([1, 2]) == 3
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The project, its venv at `.venv/` inside it: mutcheck, the project (editable), requests and PySocks."""
    root = tmp_path_factory.mktemp("venv-inside") / "shop"
    (root / "shop").mkdir(parents=True)
    (root / "shop" / "__init__.py").write_text("", encoding="utf-8")
    (root / "shop" / "cart.py").write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    (root / "tests").mkdir()
    (root / "tests" / "test_cart.py").write_text(TEST, encoding="utf-8")
    (root / "pyproject.toml").write_text(PYPROJECT.format(dependencies='"requests"'), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "venv", str(root / ".venv")], check=True)
    pip = [root / ".venv" / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, str(CHECKOUT), "requests[socks]", "-e", str(root)], check=True)
    return root


def init(project: Path) -> subprocess.CompletedProcess:
    command = [project / ".venv" / "bin" / "mutcheck", "init", "--github", f"octo/mutcheck@{REF}"]
    return subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=1800)


def test_a_line_that_does_not_collect_in_a_fresh_environment_is_refused_and_nothing_is_written(project):
    pyproject = project / "pyproject.toml"
    pyproject.write_text(PYPROJECT.format(dependencies=""), encoding="utf-8")  # requests is no dependency
    try:
        done = init(project)
    finally:
        pyproject.write_text(PYPROJECT.format(dependencies='"requests"'), encoding="utf-8")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(
        "error: .github/workflows/mutcheck.yml: install: `-e .` does not give CI an environment that collects "
        "the tests: collecting tests there fails: ModuleNotFoundError: No module named 'socks'"
    )
    assert "Traceback" not in done.stderr
    assert not (project / ".github").exists() and not (project / "mutants").exists()


PHASES = ("target: ", "install: -e .", "install: proving", "wrote ", "install: proven")


def test_the_venv_inside_is_no_project_code_and_a_dependencys_extra_is_installed_and_proven(project):
    done = init(project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "install: -e . requests[socks] (collecting tests needs pysocks; requests[socks] brings pysocks)" in (
        done.stdout
    )
    assert "install: proven: a fresh environment built from it collects the tests" in done.stdout
    # the choices are said before the proof's minutes begin; the files are written after it
    lines = done.stdout.splitlines()
    at = {prefix: next(i for i, line in enumerate(lines) if line.startswith(prefix)) for prefix in PHASES}
    assert at["target: "] < at["install: -e ."] < at["install: proving"] < at["wrote "] < at["install: proven"]
    workflow = (project / ".github" / "workflows" / "mutcheck.yml").read_text(encoding="utf-8")
    assert 'install: "-e . requests[socks]"' in workflow
