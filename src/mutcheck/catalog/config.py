"""`[tool.mutcheck]` in the project's pyproject.toml, with defaults, validated."""

import math
import os
from dataclasses import dataclass, replace
from pathlib import Path

from mutcheck.core.problems import InputError, Problem
from mutcheck.core.project_paths import outside_project
from mutcheck.core.texts import known_languages
from mutcheck.core.toml_file import read_toml


@dataclass(frozen=True)
class Config:
    root: Path
    target: tuple[str, ...] = ("src",)
    catalog: str = "mutants"
    tests: tuple[str, ...] = ("tests",)
    pytest_args: tuple[str, ...] = ()
    jobs: int = 0  # 0: one worker per CPU
    timeout_factor: float = 5.0
    timeout_constant: float = 1.0
    baseline_rounds: int = 1
    generic: bool = False  # also run mutmut's generic operator mutants
    strict_generic: bool = False  # generic survivors fail the run
    languages: tuple[str, ...] = ("en", "zh")  # every catalog text has exactly these; reports show them
    profile: str | None = None  # the `[tool.mutcheck.profile.NAME]` applied over the table, if any

    @property
    def catalog_dir(self) -> Path:
        return self.root / self.catalog


Profiles = dict[str, dict[str, object]]
_PROFILES = "profile"  # [tool.mutcheck.profile.NAME]: another catalog, target or suite in the same project
_PATH_KEYS = ("target", "tests")
_LIST_KEYS = {*_PATH_KEYS, "pytest_args"}
_NUMBER_KEYS = {"jobs": int, "timeout_factor": float, "timeout_constant": float, "baseline_rounds": int}


def _language_problems(value: object) -> list[str]:
    if not isinstance(value, list | tuple) or not value or not all(isinstance(item, str) for item in value):
        return ["must be a non-empty list of language codes"]
    known = known_languages()
    problems = [f"unknown language {code!r} (known: {', '.join(known)})" for code in value if code not in known]
    duplicates = sorted({code for code in value if value.count(code) > 1})
    return problems + [f"{code!r} is listed twice" for code in duplicates]


def find_project_root(start: Path) -> Path:
    """The nearest directory at or above `start` with a pyproject.toml."""
    for directory in (start, *start.parents):
        if (directory / "pyproject.toml").is_file():
            return directory
    raise InputError([Problem(str(start), "", "", "no pyproject.toml here or in any parent directory")])


def _number_problem(key: str, value: object) -> str | None:
    """What is wrong with a number setting, or None."""
    kind = _NUMBER_KEYS[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a{'n integer' if kind is int else ' number'}"
    if not math.isfinite(value):
        return "must be a finite number"
    if kind is int and value != int(value):
        return "must be an integer"
    if kind is int and value < 1:
        return "must be positive"
    if value < 0:
        return "must not be negative"
    return None


def _setting(root: Path, key: str, value: object) -> tuple[object, list[str]]:
    """A setting as Config holds it, and what is wrong with it (nothing when the list is empty)."""
    if key == "catalog":
        reason = "must be a string" if not isinstance(value, str) else outside_project(root, value)
        return value, [reason] if reason else []
    if key in _LIST_KEYS:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list | tuple) or not all(isinstance(item, str) for item in items):
            return value, ["must be a string or a list of strings"]
        if any("\x00" in item for item in items):  # no command line or path can hold one
            return value, ["must not contain a NUL character"]
        paths = [item.split("::", 1)[0] for item in items] if key in _PATH_KEYS else []  # a test path may name a test
        return tuple(items), [reason for path in paths if (reason := _path_problem(root, path))]
    if key == "languages":
        problems = _language_problems(value)
        return (value if problems else tuple(value)), problems
    if key in ("generic", "strict_generic"):
        return value, [] if isinstance(value, bool) else ["must be true or false"]
    if key in _NUMBER_KEYS:
        reason = _number_problem(key, value)
        return (value if reason else _NUMBER_KEYS[key](value)), [reason] if reason else []
    return value, ["unknown key"]


def _path_problem(root: Path, path: str) -> str | None:
    """What is wrong with a configured path, or None: it must be inside the project and exist."""
    reason = outside_project(root, path)
    if reason is None and not (root / path).exists():
        return f"no such file or directory: {path!r}"
    return reason


def _mutcheck_table(document: dict[str, object], source: str) -> dict[str, object]:
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise InputError([Problem(source, "", "tool", "must be a table")])
    table = tool.get("mutcheck", {})
    if not isinstance(table, dict):
        raise InputError([Problem(source, "", "tool.mutcheck", "must be a table ([tool.mutcheck])")])
    return table


def _profiles(table: dict[str, object], source: str) -> Profiles:
    """The `[tool.mutcheck.profile.NAME]` tables, taken out of `table`."""
    profiles = table.pop(_PROFILES, {})
    if not isinstance(profiles, dict):
        raise InputError([Problem(source, "", f"tool.mutcheck.{_PROFILES}", "must be a table of tables")])
    for name, profile in profiles.items():
        if not isinstance(profile, dict):
            raise InputError([Problem(source, "", f"tool.mutcheck.{_PROFILES}.{name}", "must be a table")])
    return profiles


def _chosen_profile(profiles: Profiles, profile: str | None) -> tuple[dict[str, object], list[Problem]]:
    """The chosen profile's table, or what is wrong with the choice (then the table alone applies)."""
    if profile is None or profile in profiles:
        return profiles.get(profile, {}), []
    known = ", ".join(sorted(profiles)) or "none"
    message = f"no [tool.mutcheck.{_PROFILES}.{profile}] in pyproject.toml (known: {known})"
    return {}, [Problem("--profile", profile, "", message)]


def load_config(root: Path, overrides: dict[str, object] | None = None, profile: str | None = None) -> Config:
    """Read `[tool.mutcheck]` from `root/pyproject.toml`, then the keys of its `profile.<profile>`
    table over it, then non-None `overrides` (command-line options, named as such in problems).
    Every profile is validated, chosen or not. A `jobs` from the file is capped at the CPU count."""
    source = "pyproject.toml"
    document, problems = read_toml(root / source, source)
    if problems:
        raise InputError(problems)
    table = _mutcheck_table(document, source)
    profiles = _profiles(table, source)
    chosen, problems = _chosen_profile(profiles, profile)
    given = {key: value for key, value in (overrides or {}).items() if value is not None}

    def at(key: str, message: str) -> Problem:
        """A problem with a setting, named by its command-line option or profile when it was given there."""
        if key in given:
            return Problem("--" + key.replace("_", "-"), "", "", message)
        if key in chosen:
            return Problem(source, "", f"tool.mutcheck.{_PROFILES}.{profile}.{key}", message)
        return Problem(source, "", f"tool.mutcheck.{key}", message)

    for name, other in profiles.items():
        if other is not chosen:
            problems += [
                Problem(source, "", f"tool.mutcheck.{_PROFILES}.{name}.{key}", reason)
                for key, value in other.items()
                for reason in _setting(root, key, value)[1]
            ]
    values: dict[str, object] = {}
    for key, value in {**table, **chosen, **given}.items():
        values[key], reasons = _setting(root, key, value)
        problems += [at(key, reason) for reason in reasons]
    if problems:
        raise InputError(problems)
    config = Config(root=root, profile=profile, **values)
    if config.timeout_factor == 0 and config.timeout_constant == 0:
        message = "timeout_factor and timeout_constant are both 0: every test would time out"
        raise InputError([at("timeout_constant", message)])
    if ("jobs" in table or "jobs" in chosen) and "jobs" not in given:
        return replace(config, jobs=min(config.jobs, os.cpu_count() or 1))
    return config
