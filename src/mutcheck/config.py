"""`[tool.mutcheck]` in the project's pyproject.toml, with defaults, validated."""

import math
import os
from dataclasses import dataclass, replace
from pathlib import Path

from mutcheck.problems import InputError, Problem
from mutcheck.project_paths import outside_project
from mutcheck.report.texts import known_languages
from mutcheck.toml_file import read_toml


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

    @property
    def catalog_dir(self) -> Path:
        return self.root / self.catalog


_PATH_KEYS = ("target", "tests")
_LIST_KEYS = {*_PATH_KEYS, "pytest_args"}
_NUMBER_KEYS = {"jobs": int, "timeout_factor": float, "timeout_constant": float, "baseline_rounds": int}


def _language_problems(value: object, source: str, where: str) -> list[Problem]:
    if not isinstance(value, list | tuple) or not value or not all(isinstance(item, str) for item in value):
        return [Problem(source, "", where, "must be a non-empty list of language codes")]
    known = known_languages()
    problems = [
        Problem(source, "", where, f"unknown language {code!r} (known: {', '.join(known)})")
        for code in value
        if code not in known
    ]
    duplicates = sorted({code for code in value if value.count(code) > 1})
    problems += [Problem(source, "", where, f"{code!r} is listed twice") for code in duplicates]
    return problems


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


def _path_problems(root: Path, key: str, paths: tuple[str, ...], source: str) -> list[Problem]:
    """Each path inside the project and existing (a test path may name a test after `::`)."""
    problems = []
    for path in paths:
        file = path.split("::", 1)[0] if key == "tests" else path
        reason = outside_project(root, file)
        if reason is None and not (root / file).exists():
            reason = f"no such file or directory: {file!r}"
        if reason is not None:
            problems.append(Problem(source, "", f"tool.mutcheck.{key}", reason))
    return problems


def _mutcheck_table(document: dict[str, object], source: str) -> dict[str, object]:
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise InputError([Problem(source, "", "tool", "must be a table")])
    table = tool.get("mutcheck", {})
    if not isinstance(table, dict):
        raise InputError([Problem(source, "", "tool.mutcheck", "must be a table ([tool.mutcheck])")])
    return table


def load_config(root: Path, overrides: dict[str, object] | None = None) -> Config:
    """Read `[tool.mutcheck]` from `root/pyproject.toml`, then apply non-None `overrides` (command-line
    options, named as such in problems). A `jobs` from the file is capped at the CPU count."""
    source = "pyproject.toml"
    document, problems = read_toml(root / source, source)
    if problems:
        raise InputError(problems)
    table = _mutcheck_table(document, source)
    given = {key: value for key, value in (overrides or {}).items() if value is not None}

    def at(key: str, message: str) -> Problem:
        """A problem with a setting, named by its command-line option when it was given there."""
        if key in given:
            return Problem("--" + key.replace("_", "-"), "", "", message)
        return Problem(source, "", f"tool.mutcheck.{key}", message)

    values: dict[str, object] = {}
    for key, value in {**table, **given}.items():
        where = f"tool.mutcheck.{key}"
        if key == "catalog":
            reason = "must be a string" if not isinstance(value, str) else outside_project(root, value)
            if reason is not None:
                problems.append(Problem(source, "", where, reason))
                continue
            values[key] = value
        elif key in _LIST_KEYS:
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list | tuple) or not all(isinstance(item, str) for item in items):
                problems.append(Problem(source, "", where, "must be a string or a list of strings"))
                continue
            if any("\x00" in item for item in items):  # no command line or path can hold one
                problems.append(Problem(source, "", where, "must not contain a NUL character"))
                continue
            values[key] = tuple(items)
        elif key == "languages":
            language_problems = _language_problems(value, source, where)
            problems += language_problems
            if not language_problems:
                values[key] = tuple(value)
        elif key in ("generic", "strict_generic"):
            if not isinstance(value, bool):
                problems.append(Problem(source, "", where, "must be true or false"))
                continue
            values[key] = value
        elif key in _NUMBER_KEYS:
            reason = _number_problem(key, value)
            if reason is not None:
                problems.append(at(key, reason))
                continue
            values[key] = _NUMBER_KEYS[key](value)
        else:
            problems.append(Problem(source, "", where, "unknown key"))
    config = Config(root=root, **values)
    for key in _PATH_KEYS:
        if key in values:
            problems += _path_problems(root, key, values[key], source)
    if config.timeout_factor == 0 and config.timeout_constant == 0:
        problems.append(
            at("timeout_constant", "timeout_factor and timeout_constant are both 0: every test would time out")
        )
    if problems:
        raise InputError(problems)
    if "jobs" in table and "jobs" not in given:
        return replace(config, jobs=min(config.jobs, os.cpu_count() or 1))
    return config
