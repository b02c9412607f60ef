"""The project's pytest settings read without pytest: those of one configuration file, and those of
the file pytest would take them from."""

import configparser
import re
import tomllib
from pathlib import Path

# The files pytest reads its settings from, in the order it looks for them, and their section.
_FILES = {
    "pytest.ini": "pytest",
    ".pytest.ini": "pytest",
    "pyproject.toml": "tool.pytest",
    "tox.ini": "pytest",
    "setup.cfg": "tool:pytest",
}
_DISTRIBUTION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def ini_settings(path: Path) -> dict[str, object]:
    """The pytest settings of one file, values as written (a string, or a list in TOML): its
    [pytest] or [tool:pytest] section, or pyproject.toml's [tool.pytest.ini_options] and pytest 9's
    [tool.pytest]; {} when it has none or cannot be read."""
    try:
        if path.name == "pyproject.toml":
            tool = tomllib.loads(path.read_text(encoding="utf-8")).get("tool")
            table = tool.get("pytest") if isinstance(tool, dict) else None
            if not isinstance(table, dict):
                return {}
            ini_options = table.get("ini_options")
            native = {key: value for key, value in table.items() if key != "ini_options"}
            return {**(ini_options if isinstance(ini_options, dict) else {}), **native}
        parser = configparser.ConfigParser(interpolation=None)
        parser.read(path, encoding="utf-8")
        section = _FILES.get(path.name, "pytest")
        return dict(parser[section]) if parser.has_section(section) else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, configparser.Error):
        return {}


def project_settings(root: Path) -> dict[str, object]:
    """The settings of the file pytest would take them from in `root`: the first of its files that
    has a pytest section (pytest.ini even without one)."""
    for name in _FILES:
        path = root / name
        if path.is_file() and ((settings := ini_settings(path)) or name in ("pytest.ini", ".pytest.ini")):
            return settings
    return {}


def required_distributions(value: object) -> set[str]:
    """The distribution names of `required_plugins` (`pytest-xdist>=3` names pytest-xdist), whether
    given as one string or a list."""
    entries = value.split() if isinstance(value, str) else [str(entry) for entry in value or []]
    return {match.group(0) for entry in entries if (match := _DISTRIBUTION_NAME.match(entry.strip()))}
