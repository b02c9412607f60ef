"""A project that declares its dependencies in setup.cfg (setuptools' or pbr's) gets the extra its
tests need on the workflow's install line, as one declaring them in pyproject.toml does."""

from pathlib import Path

import yaml
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.scaffold.declared import declared_project

SETUPTOOLS = """[metadata]
name = shop

[options]
python_requires = >=3.12
install_requires =
    packaging

[options.extras_require]
docs = sphinx
tests =
    hypothesis>=6  # the property tests
"""

PBR = """[metadata]
name = shop

[extras]
yaml =
    PyYAML>=5.1.0
"""


def test_setuptools_and_pbr_declarations_read_as_a_project_table(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text(SETUPTOOLS, encoding="utf-8")
    assert declared_project(tmp_path, {})["project"] == {
        "name": "shop",
        "requires-python": ">=3.12",
        "dependencies": ["packaging"],
        "optional-dependencies": {"docs": ["sphinx"], "tests": ["hypothesis>=6"]},
    }
    (tmp_path / "setup.cfg").write_text(PBR, encoding="utf-8")
    (tmp_path / "setup.py").write_text("from setuptools import setup\n\nsetup(pbr=True)\n", encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("# runtime\nattrs\n-r more.txt\n", encoding="utf-8")
    project = declared_project(tmp_path, {"tool": {"mutcheck": {}}})["project"]
    assert project["dependencies"] == ["attrs"] and project["optional-dependencies"] == {"yaml": ["PyYAML>=5.1.0"]}
    assert declared_project(tmp_path, {"project": {"name": "own"}}) == {"project": {"name": "own"}}  # pyproject's wins


def test_init_puts_the_setup_cfg_extra_the_tests_need_on_the_install_line(tmp_path: Path) -> None:
    project = tmp_path / "shop"
    (project / "shop").mkdir(parents=True)
    (project / "shop" / "__init__.py").write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    (project / "tests").mkdir()
    test = "import hypothesis\n\nfrom shop import total\n\n\ndef test_total():\n    assert total([1]) == 1\n"
    (project / "tests" / "test_total.py").write_text(test, encoding="utf-8")
    (project / "setup.cfg").write_text(SETUPTOOLS + "\n[tool:pytest]\npythonpath = .\n", encoding="utf-8")
    arguments = ["init", "--project", str(project), "--github", f"octo/mutcheck@{'f' * 40}", "--skip-install-proof"]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    assert "install: -e .[tests] (collecting tests needs hypothesis: extra tests has it" in result.output
    assert "python: 3.12" in result.output  # setup.cfg's python_requires
    workflow = yaml.safe_load((project / ".github/workflows/mutcheck.yml").read_text(encoding="utf-8"))
    (step,) = [step for step in workflow["jobs"]["mutants"]["steps"] if "actions/run@" in step.get("uses", "")]
    assert step["with"]["install"] == "-e .[tests]"
    assert step["with"]["dependency-files"].split() == ["pyproject.toml", "setup.cfg"]
