"""`[tool.mutcheck]` in the project's pyproject.toml, with defaults, validated."""

import tomllib
from dataclasses import dataclass
from pathlib import Path

from mutcheck.problems import InputError, Problem
from mutcheck.report.texts import known_languages


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


_LIST_KEYS = {"target", "tests", "pytest_args"}
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


def load_config(root: Path, overrides: dict[str, object] | None = None) -> Config:
    """Read `[tool.mutcheck]` from `root/pyproject.toml`, then apply non-None `overrides`."""
    source = "pyproject.toml"
    try:
        document = tomllib.loads((root / source).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise InputError([Problem(source, "", "", f"not valid TOML: {error}")]) from error
    table = dict(document.get("tool", {}).get("mutcheck", {}))
    table.update({key: value for key, value in (overrides or {}).items() if value is not None})
    problems = []
    values: dict[str, object] = {}
    for key, value in table.items():
        where = f"tool.mutcheck.{key}"
        if key == "catalog":
            if not isinstance(value, str):
                problems.append(Problem(source, "", where, "must be a string"))
            values[key] = value
        elif key in _LIST_KEYS:
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list | tuple) or not all(isinstance(item, str) for item in items):
                problems.append(Problem(source, "", where, "must be a string or a list of strings"))
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
            kind = _NUMBER_KEYS[key]
            if isinstance(value, bool) or not isinstance(value, int | float) or (kind is int and value != int(value)):
                problems.append(Problem(source, "", where, f"must be a{'n integer' if kind is int else ' number'}"))
                continue
            if value < 0 or (key == "baseline_rounds" and value < 1):
                problems.append(Problem(source, "", where, "must be positive"))
                continue
            values[key] = kind(value)
        else:
            problems.append(Problem(source, "", where, "unknown key"))
    if problems:
        raise InputError(problems)
    return Config(root=root, **values)
