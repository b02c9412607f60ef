"""`mutcheck run` on a project installed the usual development way: an editable install (setuptools
or hatchling, src or flat layout, each editable mode's own mechanism) or PYTHONPATH. The tests
must import the scratch copy, on the swap and on the fallback path, or every mutant would be
reported unreached while plain pytest kills it."""

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.mutcheck.site_venvs import venv_seeing_ours

SOURCE = '''\
"""A tiny package."""


class Clamp:
    high = 10

    def __call__(self, value):
        return min(value, self.high)
'''

CATALOG = """\
[[mutant]]
id = "SWAP"
family = "boundary"
file = "{file}"
scope = "Clamp.__call__"
match = "min(value, self.high)"
replace = "max(value, self.high)"
killed_by = ["tests/test_clamp.py::test_clamp"]
origin = "fixture"
title = {{ en = "upper bound lost", zh = "上界丢失" }}
why = {{ en = "why", zh = "原因" }}

[[mutant]]
id = "FALLBACK"
family = "boundary"
file = "{file}"
scope = "Clamp"
match = "high = 10"
replace = "high = 11"
killed_by = ["tests/test_clamp.py::test_clamp"]
origin = "fixture"
title = {{ en = "bound moved", zh = "边界移动" }}
why = {{ en = "why", zh = "原因" }}
"""

SETUPTOOLS = '[build-system]\nrequires = ["setuptools>=64"]\nbuild-backend = "setuptools.build_meta"\n'
HATCHLING = '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'

# name: (backend and its settings, package folder, pip options, the file the install writes, what it says)
CASES = {
    "setuptools_src": (SETUPTOOLS, "src/setuptools_src", [], "__editable__.setuptools_src-0.pth", "/src"),
    "setuptools_flat": (
        SETUPTOOLS + '\n[tool.setuptools]\npackages = ["setuptools_flat"]\n',
        "setuptools_flat",
        [],
        "__editable___setuptools_flat_0_finder.py",
        "MAPPING",
    ),
    "setuptools_mapped": (
        SETUPTOOLS + '\n[tool.setuptools]\npackages = ["setuptools_mapped"]\n'
        'package-dir = { setuptools_mapped = "lib" }\n',
        "lib",
        [],
        "__editable___setuptools_mapped_0_finder.py",
        "/lib'",
    ),
    "setuptools_strict": (
        SETUPTOOLS,
        "src/setuptools_strict",
        ["--config-settings", "editable_mode=strict"],
        "__editable__.setuptools_strict-0.pth",
        "/build/__editable__.",
    ),
    "hatchling_src": (
        HATCHLING + '\n[tool.hatch.build.targets.wheel]\npackages = ["src/hatchling_src"]\n',
        "src/hatchling_src",
        [],
        "_editable_impl_hatchling_src.pth",
        "/src",
    ),
    "hatchling_exact": (
        HATCHLING + '\n[tool.hatch.build.targets.wheel]\npackages = ["src/hatchling_exact"]\ndev-mode-exact = true\n',
        "src/hatchling_exact",
        [],
        "_editable_impl_hatchling_exact.py",
        "map_module",
    ),
}


def _git(project: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=project, check=True)


def make_package(root: Path, name: str, build_system: str, folder: str) -> Path:
    """A committed project with the package `name` in `folder`, one test and a two-entry catalog;
    no pytest `pythonpath`, so only the install (or PYTHONPATH) makes it importable."""
    files = {
        "pyproject.toml": f'{build_system}\n[project]\nname = "{name}"\nversion = "0"\n\n'
        f'[tool.mutcheck]\ntarget = ["{folder}"]\ntests = ["tests"]\njobs = 2\n',
        f"{folder}/__init__.py": SOURCE,
        "tests/test_clamp.py": f"from {name} import Clamp\n\n\ndef test_clamp():\n"
        "    assert Clamp()(11) == 10\n    assert Clamp()(3) == 3\n",
        "mutants/families.toml": '[family.boundary]\nen = "boundary"\nzh = "边界"\n',
        "mutants/catalog.toml": CATALOG.format(file=f"{folder}/__init__.py"),
        ".gitignore": "build/\n*.egg-info/\n__pycache__/\n",
    }
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(textwrap.dedent(text), encoding="utf-8")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "package")
    return root


@dataclass(frozen=True)
class Venv:
    python: Path
    site_packages: Path
    projects: Path  # one project per case, each installed editable


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Venv:
    """A virtual environment that sees this one's packages (mutcheck, pytest, pip) as a site folder,
    with the build backends installed, and every case's package installed editable."""
    python, site_packages = venv_seeing_ours(tmp_path_factory.mktemp("venv"))
    pip = [python, "-m", "pip", "install", "-q", "--no-deps"]
    subprocess.run(
        [*pip, "--ignore-installed", "setuptools>=70.1", "hatchling", "editables", "pathspec", "trove-classifiers"],
        check=True,
    )
    projects = tmp_path_factory.mktemp("projects")
    by_options: dict[tuple[str, ...], list[str]] = {}  # one pip run per set of options: pip is slow to start
    for name, (build_system, folder, options, _, _) in CASES.items():
        project = make_package(projects / name, name, build_system, folder)
        by_options.setdefault(tuple(options), []).extend(["-e", str(project)])
    for options, editables in by_options.items():
        subprocess.run([*pip, "--no-build-isolation", *options, *editables], check=True)
    return Venv(python, site_packages, projects)


def run_mutcheck(python: Path, project: Path, environment: dict[str, str]) -> tuple[int, dict[str, dict]]:
    results = project.parent / f"{project.name}-results.json"
    completed = subprocess.run(
        [python, "-m", "mutcheck", "run", "--project", str(project), "--json", str(results)],
        capture_output=True,
        text=True,
        env=environment,
    )
    assert results.exists(), completed.stdout + completed.stderr
    mutants = {mutant["id"]: mutant for mutant in json.loads(results.read_text())["mutants"]}
    return completed.returncode, mutants


def _without_pythonpath() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


@pytest.mark.parametrize("name", CASES)
def test_an_editable_install_imports_the_scratch_copy_on_both_paths(venv, name):
    *_, installed, says = CASES[name]
    assert says in (venv.site_packages / installed).read_text(), "the install mode this case stands for"
    code, mutants = run_mutcheck(venv.python, venv.projects / name, _without_pythonpath())
    assert {(mutant_id, m["path"], m["verdict"]) for mutant_id, m in mutants.items()} == {
        ("SWAP", "swap", "killed"),
        ("FALLBACK", "fallback", "killed"),
    }
    assert code == 0


def test_a_pythonpath_into_the_checkout_imports_the_scratch_copy_on_both_paths(tmp_path):
    project = make_package(tmp_path / "project", "by_pythonpath", SETUPTOOLS, "src/by_pythonpath")
    environment = {**_without_pythonpath(), "PYTHONPATH": str(project / "src")}
    code, mutants = run_mutcheck(Path(sys.executable), project, environment)
    assert {(mutant_id, m["path"], m["verdict"]) for mutant_id, m in mutants.items()} == {
        ("SWAP", "swap", "killed"),
        ("FALLBACK", "fallback", "killed"),
    }
    assert code == 0


def test_a_module_the_copy_leaves_out_still_imports_from_the_checkout(tmp_path):
    """A git-ignored `_version.py` (setuptools-scm, hatch-vcs) is not in the scratch copy; the
    package must still import it, while the mutated modules come from the copy."""
    project = make_package(tmp_path / "project", "with_version", SETUPTOOLS, "src/with_version")
    package = project / "src/with_version"
    (package / "_version.py").write_text('VERSION = "1.0"\n', encoding="utf-8")
    (project / ".gitignore").write_text((project / ".gitignore").read_text() + "_version.py\n", encoding="utf-8")
    init = package / "__init__.py"
    init.write_text("from ._version import VERSION  # noqa: F401\n" + init.read_text(), encoding="utf-8")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "version file")
    environment = {**_without_pythonpath(), "PYTHONPATH": str(project / "src")}
    code, mutants = run_mutcheck(Path(sys.executable), project, environment)
    assert {(mutant_id, m["path"], m["verdict"]) for mutant_id, m in mutants.items()} == {
        ("SWAP", "swap", "killed"),
        ("FALLBACK", "fallback", "killed"),
    }
    assert code == 0


def test_a_flat_module_still_imports_after_a_test_changes_directory(tmp_path):
    """Nothing installs a flat-layout project here: it imports because the working directory leads
    sys.path, as `python -m pytest` puts it, absolute, so a test that changes directory first still
    finds it."""
    project = make_package(tmp_path / "project", "flat_cwd", SETUPTOOLS, "flat_cwd")
    (project / "tests/test_clamp.py").write_text(
        "import os\n\n\ndef test_clamp(tmp_path):\n    os.chdir(tmp_path)\n    from flat_cwd import Clamp\n\n"
        "    assert Clamp()(11) == 10\n    assert Clamp()(3) == 3\n",
        encoding="utf-8",
    )
    _git(project, "commit", "-qam", "a test that changes directory")
    code, mutants = run_mutcheck(Path(sys.executable), project, _without_pythonpath())
    assert {(mutant_id, m["path"], m["verdict"]) for mutant_id, m in mutants.items()} == {
        ("SWAP", "fallback", "killed"),  # imported only inside the test: no live function to swap
        ("FALLBACK", "fallback", "killed"),
    }
    assert code == 0
