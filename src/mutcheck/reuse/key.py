"""The run's key: what every outcome of a run stands on, whatever its tests read — the settings that
change an outcome, Python, the installed distributions (their names, versions and path files, and
the finders of editable installs, by their bytes), mutcheck itself, the environment variables that
the interpreter and pytest read before any test can be watched, and what pytest takes from every
file it could take its configuration from. Two runs with different keys reuse nothing of each other's.
"""

import json
import os
import site
import sys
import sysconfig
import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

import iniconfig

from mutcheck import __version__
from mutcheck.catalog.options import RunOptions
from mutcheck.reuse.module_code import digest

# Where pytest looks for its configuration, in each folder from the tests' up to the root.
CONFIG_FILES = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
# The sections of these files pytest reads (a `[pytest]` section in setup.cfg is its error).
_PYTEST_SECTIONS = {"tox.ini": ("pytest",), "setup.cfg": ("tool:pytest", "pytest")}
# The files `pytest_config` takes by what pytest reads of them; any other by its bytes.
READ_IN_PART = frozenset({"pyproject.toml", *_PYTEST_SECTIONS})
# Read by the interpreter or pytest themselves (at their start, before any test), by prefix or whole.
_READ_AT_START = ("PYTHON", "PYTEST_", "LC_", "PY_COLORS", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "TERM")
_READ_AT_START_WHOLE = ("LANG", "LANGUAGE", "TZ")
_OWN = ("PYTEST_CURRENT_TEST",)


@cache
def mutcheck_itself() -> str:
    """mutcheck's version and its own files (an editable install changes without a new version)."""
    package = Path(__file__).resolve().parents[1]
    files = sorted(path for path in package.rglob("*") if path.is_file() and "__pycache__" not in path.parts)
    return digest(
        "\0".join([__version__, *(f"{path.relative_to(package)}:{digest(path.read_bytes())}" for path in files)])
    )


def _site_folders() -> list[str]:
    """Where distributions are installed for this interpreter, and the folders PYTHONPATH adds:
    the same however mutcheck was started (a script, `python -m`, a profiler)."""
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    folders += [sysconfig.get_path(name) for name in ("purelib", "platlib")]
    folders += [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    return list(dict.fromkeys(os.path.abspath(folder) for folder in folders))


def installed(path: Iterable[str] | None = None) -> str:
    """The distributions installed on `path` (default: the site folders, see `_site_folders`): their
    metadata folders' names (name and version), their path files and editable finders by their
    bytes (an editable install pointed at another checkout changes its `.pth` or its finder, not its
    version)."""
    parts = []
    for folder in _site_folders() if path is None else path:
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in entries:
            if name.endswith((".dist-info", ".egg-info", ".egg-link")):
                parts.append(f"{folder}/{name}")
            elif name.endswith(".pth") or (name.startswith("__editable__") and name.endswith(".py")):
                try:
                    parts.append(f"{folder}/{name}:{digest(Path(folder, name).read_bytes())}")
                except OSError:
                    parts.append(f"{folder}/{name}:")
    return digest("\n".join(parts))


def start_variables(environment: Mapping[str, str]) -> dict[str, str]:
    """The environment variables the interpreter and pytest read at their start."""
    return {
        name: value
        for name, value in environment.items()
        if (name.startswith(_READ_AT_START) or name in _READ_AT_START_WHOLE) and name not in _OWN
    }


def pytest_config(path: Path) -> str | None:
    """What pytest takes from a file it may take its settings from, as a digest; None where there is
    none. Of pyproject.toml, its `tool.pytest` table (pytest 9's `[tool.pytest]`, with
    `[tool.pytest.ini_options]` inside it); of tox.ini and setup.cfg, the sections pytest reads
    (`[pytest]`, `[tool:pytest]`), parsed as pytest parses them; each with whether it is there. The
    project's own table, its dependencies, tox's or another tool's settings are nothing pytest
    reads, and code that reads them is seen doing so. Of any other file (pytest.ini, `-c FILE`), or
    one pytest could not parse, every byte."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        if path.name == "pyproject.toml":
            tool = tomllib.loads(data.decode("utf-8")).get("tool")
            read = {"tool.pytest": tool.get("pytest") if isinstance(tool, dict) else None}
        elif path.name in _PYTEST_SECTIONS:
            parsed = iniconfig.IniConfig(str(path), data=data.decode("utf-8"))
            read = {
                name: dict(parsed[name].items()) if name in parsed else None for name in _PYTEST_SECTIONS[path.name]
            }
        else:
            return digest(data)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, iniconfig.ParseError):
        return digest(data)
    return digest(f"{path.name} " + json.dumps(read, sort_keys=True, default=str))


def config_files(root: Path, tests: Iterable[str]) -> dict[str, str]:
    """Every file pytest could take its configuration from (see CONFIG_FILES), in each folder from
    the tests' folders up to the file system's root, by what pytest takes from it (see `pytest_config`)."""
    folders: set[Path] = set()
    for test in [*tests, "."]:
        folder = (root / test).resolve()
        folder = folder if folder.is_dir() else folder.parent
        folders |= {folder, *folder.parents}
    found = {}
    for folder in sorted(folders):
        for name in CONFIG_FILES:
            value = pytest_config(folder / name)
            if value is not None:
                found[str(folder / name)] = value
    return found


def run_key(options: RunOptions, environment: Mapping[str, str]) -> dict[str, str]:
    """The key's parts, each a digest, by name (so that a changed one can be named). Its settings
    are every one marked as changing outcomes (see `RunOptions.outcomes`)."""
    return {
        "python": digest(sys.version + sys.prefix),  # the interpreter, and the environment it runs in
        "packages": installed(),
        "mutcheck": mutcheck_itself(),
        "settings": digest(json.dumps(options.outcomes(), sort_keys=True)),
        "variables": digest(json.dumps(start_variables(environment), sort_keys=True)),
        "config": digest(json.dumps(config_files(options.config.root, options.config.tests), sort_keys=True)),
    }
