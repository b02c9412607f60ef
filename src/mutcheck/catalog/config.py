"""`[tool.mutcheck]` in the project's pyproject.toml, with defaults, validated."""

import math
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from mutcheck.catalog.setting_kind import CHOICE, OUTCOME, PLACE, setting
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.project_paths import outside_project
from mutcheck.core.texts import known_languages
from mutcheck.core.toml_file import read_toml


@dataclass(frozen=True)
class Target:
    """One `[tool.mutcheck.targets.NAME]`: code, the tests that guard it, and its catalog."""

    name: str
    target: tuple[str, ...]
    tests: tuple[str, ...]
    catalog: str


@dataclass(frozen=True)
class Config:
    """Each field marked by what it can change (see `setting_kind`)."""

    root: Path = setting(PLACE)
    target: tuple[str, ...] = setting(OUTCOME, ("src",))
    catalog: str = setting(CHOICE, "mutants")
    tests: tuple[str, ...] = setting(OUTCOME, ("tests",))
    pytest_args: tuple[str, ...] = setting(OUTCOME, ())
    jobs: int = setting(CHOICE, 0)  # 0: one worker per CPU
    timeout_factor: float = setting(OUTCOME, 5.0)
    timeout_constant: float = setting(OUTCOME, 1.0)
    baseline_rounds: int = setting(OUTCOME, 1)
    generic: bool = setting(CHOICE, False)  # also run mutmut's generic operator mutants
    strict_generic: bool = setting(CHOICE, False)  # generic survivors fail the run
    languages: tuple[str, ...] = setting(CHOICE, ("en", "zh"))  # every catalog text has exactly these, shown in order
    # The `[tool.mutcheck.profile.NAME]` applied over the table, if any: what it sets is in the other fields.
    profile: str | None = setting(PLACE, None)
    # Several targets, each run against its own tests and catalog; then `target` and `tests` are
    # all of theirs and `catalog` the first one's. Empty: the table's target is the only one.
    targets: tuple[Target, ...] = setting(CHOICE, ())
    target_name: str | None = setting(CHOICE, None)  # the target this configuration is one of, when there are several

    @property
    def catalog_dir(self) -> Path:
        return self.root / self.catalog

    def each_target(self) -> list["Config"]:
        """One configuration per target (this one when there is a single target)."""
        if not self.targets:
            return [self]
        return [
            replace(self, target=t.target, tests=t.tests, catalog=t.catalog, targets=(), target_name=t.name)
            for t in self.targets
        ]

    def target_of(self, file: str) -> "Config":
        """The configuration of the target `file` belongs to (this one when none, or one target, holds it)."""
        return next(
            (one for one in self.each_target() if any(_contains(self.root, path, file) for path in one.target)), self
        )

    def holds(self, file: str) -> bool:
        """Whether a target of the project holds `file` (relative to the root)."""
        return any(_contains(self.root, path, file) for one in self.each_target() for path in one.target)

    def chosen_targets(self, names: tuple[str, ...]) -> "Config":
        """Only the targets named (all of them when none is); an unknown name is an InputError."""
        known = [target.name for target in self.targets]
        unknown = [name for name in names if name not in known]
        if unknown:
            message = f"no such target (known: {', '.join(known) or 'none: the project has one target'})"
            raise InputError([Problem("--target", name, "", message) for name in unknown])
        if not names:
            return self
        return _with_targets(self, tuple(t for t in self.targets if t.name in names))


Profiles = dict[str, dict[str, object]]
_PROFILES = "profile"  # [tool.mutcheck.profile.NAME]: another catalog, target or suite in the same project
_TARGETS = "targets"  # [tool.mutcheck.targets.NAME]: one of several targets, each with its tests and catalog
_TARGET_KEYS = ("target", "tests", "catalog")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
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


def _with_targets(config: Config, targets: tuple[Target, ...]) -> Config:
    """`config` with these targets; its own target and tests all of theirs, its catalog the first one's."""
    return replace(
        config,
        targets=targets,
        target=tuple(path for t in targets for path in t.target),
        tests=tuple(dict.fromkeys(path for t in targets for path in t.tests)),
        catalog=targets[0].catalog,
    )


def _targets(root: Path, value: object, where: str) -> tuple[tuple[Target, ...], list[Problem]]:
    """The `targets` tables, validated: each names a target, its tests and its catalog, and no file
    is in two targets (each mutant belongs to one)."""
    source = "pyproject.toml"
    if not isinstance(value, dict) or not value:
        return (), [Problem(source, "", where, "must be a table of tables, one per target")]
    targets, problems = [], []
    for name, table in value.items():
        at = f"{where}.{name}"
        if not _NAME.fullmatch(name):
            problems.append(Problem(source, "", at, "a target's name is letters, digits, '.', '_' and '-'"))
            continue
        if not isinstance(table, dict):
            problems.append(Problem(source, "", at, "must be a table"))
            continue
        settings = {}
        for key in _TARGET_KEYS:
            if key not in table:
                problems.append(Problem(source, "", f"{at}.{key}", "missing"))
                continue
            settings[key], reasons = _setting(root, key, table[key])
            problems += [Problem(source, "", f"{at}.{key}", reason) for reason in reasons]
        problems += [Problem(source, "", f"{at}.{key}", "unknown key") for key in table if key not in _TARGET_KEYS]
        if len(settings) == len(_TARGET_KEYS):
            targets.append(Target(name, **settings))
    if problems:
        return (), problems
    for index, first in enumerate(targets):
        for second in targets[index + 1 :]:
            shared = [a for a in first.target for b in second.target if _contains(root, a, b) or _contains(root, b, a)]
            if shared:
                message = f"{shared[0]!r} is in target {first.name!r} too: a file belongs to one target"
                problems.append(Problem(source, "", f"{where}.{second.name}.target", message))
            if _contains(root, first.catalog, second.catalog) and _contains(root, second.catalog, first.catalog):
                message = f"is target {first.name!r}'s catalog too: each target has its own"
                problems.append(Problem(source, "", f"{where}.{second.name}.catalog", message))
    return tuple(targets), problems


def _contains(root: Path, outer: str, inner: str) -> bool:
    outer_path, inner_path = (root / outer).resolve(), (root / inner).resolve()
    return outer_path == inner_path or outer_path in inner_path.parents


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
            where = f"tool.mutcheck.{_PROFILES}.{name}"
            problems += [
                Problem(source, "", f"{where}.{key}", reason)
                for key, value in other.items()
                if key != _TARGETS
                for reason in _setting(root, key, value)[1]
            ]
            if _TARGETS in other:
                problems += _targets(root, other[_TARGETS], f"{where}.{_TARGETS}")[1]
    # A profile that names its own target, tests or catalog is one target, whatever the table's targets.
    one_target = any(key in chosen for key in _TARGET_KEYS)
    targets_given = chosen.pop(_TARGETS, None) if _TARGETS in chosen else table.pop(_TARGETS, None)
    table.pop(_TARGETS, None)
    targets: tuple[Target, ...] = ()
    if targets_given is not None and not one_target:
        where = f"tool.mutcheck.{_PROFILES}.{profile}.{_TARGETS}" if _TARGETS in chosen else f"tool.mutcheck.{_TARGETS}"
        mixed = [key for key in _TARGET_KEYS if key in table]
        if mixed:
            message = f"set target, tests and catalog in each target, not in [tool.mutcheck] ({', '.join(mixed)})"
            problems.append(Problem(source, "", where, message))
        targets, target_problems = _targets(root, targets_given, where)
        problems += target_problems
    values: dict[str, object] = {}
    for key, value in {**table, **chosen, **given}.items():
        values[key], reasons = _setting(root, key, value)
        problems += [at(key, reason) for reason in reasons]
    if problems:
        raise InputError(problems)
    config = Config(root=root, profile=profile, **values)
    if targets:
        config = _with_targets(config, targets)
    if config.timeout_factor == 0 and config.timeout_constant == 0:
        message = "timeout_factor and timeout_constant are both 0: every test would time out"
        raise InputError([at("timeout_constant", message)])
    if ("jobs" in table or "jobs" in chosen) and "jobs" not in given:
        return replace(config, jobs=min(config.jobs, os.cpu_count() or 1))
    return config
