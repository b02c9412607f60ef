"""What a project declares it installs, as pyproject's `[project]` table says it: from pyproject.toml,
else from setup.cfg (setuptools' `[metadata]` and `[options]`, its extras, pbr's `[extras]` and the
requirements.txt pbr reads)."""

import configparser
from pathlib import Path

from mutcheck.core.problems import InputError, Problem


def _lines(value: str) -> list[str]:
    """A setup.cfg list: one requirement per line (or `;`-free comma list on one line), comments dropped."""
    items = [line.split("#", 1)[0].strip() for line in value.splitlines()]
    if len(items) == 1 and "," in items[0] and ";" not in items[0]:
        items = [item.strip() for item in items[0].split(",")]
    return [item for item in items if item]


def _requirements_file(path: Path) -> list[str]:
    """Requirement lines of a requirements file (options, includes and comments left out)."""
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [line.split("#", 1)[0].strip() for line in lines if line.strip() and line.strip()[0] not in "#-"]


def declared_project(root: Path, document: dict[str, object]) -> dict[str, object]:
    """`document` (pyproject.toml's) with a `project` table: its own, or one read from setup.cfg
    when it has none; InputError naming setup.cfg when that does not parse."""
    if isinstance(document.get("project"), dict) or not (root / "setup.cfg").is_file():
        return document
    parser = configparser.RawConfigParser()
    try:
        parser.read(root / "setup.cfg", encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError) as error:
        message = f"cannot be read: {str(error).splitlines()[0]}"
        raise InputError([Problem("setup.cfg", "", "", message)]) from error
    project: dict[str, object] = {}
    if parser.has_option("metadata", "name"):
        project["name"] = parser.get("metadata", "name").strip()
    if parser.has_option("options", "python_requires"):
        project["requires-python"] = parser.get("options", "python_requires").strip()
    setup_py = root / "setup.py"
    pbr = parser.has_section("pbr") or (setup_py.is_file() and "pbr" in setup_py.read_text(errors="replace"))
    requires = _lines(parser.get("options", "install_requires", fallback=""))
    project["dependencies"] = requires or (_requirements_file(root / "requirements.txt") if pbr else [])
    extras: dict[str, list[str]] = {}
    for section in ("options.extras_require", "extras"):  # setuptools', pbr's
        if parser.has_section(section):
            extras.update({name: _lines(value) for name, value in parser.items(section)})
    if extras:
        project["optional-dependencies"] = extras
    return {**document, "project": project}
