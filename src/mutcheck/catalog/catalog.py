"""The catalog: `mutants/*.toml` loaded into Mutant records and checked field by field."""

import json
import re
from dataclasses import dataclass
from pathlib import Path

from mutcheck.core.problems import InputError, Problem
from mutcheck.core.project_paths import outside_project
from mutcheck.core.toml_file import read_toml

FAMILIES_FILE = "families.toml"
REVERT_FAMILY = "change-guard"  # the family of the revert mutants `run --revert BASE` adds

_REQUIRED = ("id", "family", "file", "scope", "match", "origin", "title", "why")
_OPTIONAL = ("replace", "delete", "killed_by", "equivalent", "survives", "tracked", "reviewed", "hint", "aliases")
_TEXTS = ("title", "why", "hint", "equivalent", "survives")
_MISSING = "missing translation"
_STRINGS = ("id", "family", "file", "scope", "match", "replace", "origin")
_EXPECTATIONS = ("killed_by", "equivalent", "survives")
_TRACKED = re.compile(r"#[0-9]+|https?://[^\s/]+\S*")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # every mutant id and alias
NAME_RULE = "letters, digits, '.', '_' and '-', starting with a letter or digit"

Text = dict[str, str]


@dataclass(frozen=True)
class Mutant:
    id: str
    family: str
    file: str
    scope: str
    match: str
    replace: str | None  # None when the matched statements are deleted
    killed_by: tuple[str, ...]
    equivalent: Text | None  # the written proof, for mutants that cannot be killed
    origin: str
    title: Text
    why: Text
    hint: Text | None
    aliases: tuple[str, ...]
    source: str  # the catalog file it was read from, relative to the project root
    generic: bool = False  # a generated operator mutant (mutmut's), informational unless strict
    operator: str | None = None  # for generic mutants: the mutation operator
    survives: Text | None = None  # a known gap: why it is expected to survive today
    tracked: str | None = None  # for a known gap: the issue that tracks it (#N or a URL)
    reviewed: bool = True  # false: a gap `suggest` found, until a person accepts it (`mutcheck accept`)
    revert: bool = False  # part of the change since `--revert BASE` undone: any test's failure guards it


@dataclass(frozen=True)
class Catalog:
    mutants: tuple[Mutant, ...]
    families: dict[str, Text]
    ignored: tuple[str, ...] = ()  # files of the catalog folder that are not catalog files (mutmut's copies)

    def find(self, name: str) -> Mutant | None:
        """A mutant by id or alias."""
        return next((m for m in self.mutants if name == m.id or name in m.aliases), None)

    def select(self, names: list[str]) -> list[Mutant]:
        """Mutants whose id, alias or family is in `names` (all of them when `names` is empty)."""
        if not names:
            return list(self.mutants)
        wanted = set(names)
        return [m for m in self.mutants if wanted & {m.id, m.family, *m.aliases}]


def _check_text(value: object, source: str, entry: str, field: str, languages: tuple[str, ...]) -> list[Problem]:
    expected = " and ".join(languages)
    if not isinstance(value, dict):
        return [Problem(source, entry, field, f"must be a table with {expected}")]
    problems = [
        Problem(source, entry, f"{field}.{language}", _MISSING)
        for language in languages
        if not (isinstance(value.get(language), str) and value[language].strip())
    ]
    problems += [
        Problem(source, entry, f"{field}.{key}", f"language not in tool.mutcheck.languages (expected {expected})")
        for key in value
        if key not in languages
    ]
    return problems


def _expectation_problems(table: dict[str, object], source: str, entry: str) -> list[Problem]:
    problems = []
    if sum(key in table for key in _EXPECTATIONS) != 1:
        problems.append(Problem(source, entry, "killed_by", "give exactly one of killed_by, equivalent or survives"))
    killed_by = table.get("killed_by", [])
    if not isinstance(killed_by, list) or not all(isinstance(test, str) for test in killed_by):
        problems.append(Problem(source, entry, "killed_by", "must be a list of test ids"))
    elif "killed_by" in table and not killed_by:
        problems.append(Problem(source, entry, "killed_by", "must name at least one test"))
    if "tracked" in table:
        tracked = table["tracked"]
        if not (isinstance(tracked, str) and _TRACKED.fullmatch(tracked)):
            problems.append(Problem(source, entry, "tracked", "must be an issue as #N or an http(s) URL"))
        if "survives" not in table:
            problems.append(Problem(source, entry, "tracked", "only a known gap (survives) is tracked"))
    if "reviewed" in table:
        if not isinstance(table["reviewed"], bool):
            problems.append(Problem(source, entry, "reviewed", "must be true or false"))
        if "survives" not in table:
            problems.append(Problem(source, entry, "reviewed", "only a known gap (survives) awaits review"))
    return problems


def _entry_problems(
    table: dict[str, object],
    source: str,
    entry: str,
    families: dict[str, Text] | None,
    languages: tuple[str, ...],
    root: Path,
) -> list[Problem]:
    problems = [Problem(source, entry, key, "unknown key") for key in table if key not in _REQUIRED + _OPTIONAL]
    problems += [Problem(source, entry, key, "missing field") for key in _REQUIRED if key not in table]
    problems += [
        Problem(source, entry, key, "must be a non-empty string")
        for key in _STRINGS
        if key in table and not (isinstance(table[key], str) and table[key].strip())
    ]
    problems += [
        problem for key in _TEXTS if key in table for problem in _check_text(table[key], source, entry, key, languages)
    ]
    if table.get("family") == REVERT_FAMILY:
        problems.append(Problem(source, entry, "family", f"{REVERT_FAMILY!r} is the family of --revert's mutants"))
    elif families is not None and isinstance(table.get("family"), str) and table["family"] not in families:
        known = ", ".join(sorted(families)) or "none declared"
        problems.append(Problem(source, entry, "family", f"unknown family {table['family']!r} (known: {known})"))
    if "delete" in table and table["delete"] is not True:
        problems.append(Problem(source, entry, "delete", "must be true when present"))
    if ("replace" in table) == ("delete" in table):
        problems.append(Problem(source, entry, "replace", "give exactly one of replace or delete"))
    problems += _expectation_problems(table, source, entry)
    aliases = table.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(alias, str) for alias in aliases):
        problems.append(Problem(source, entry, "aliases", "must be a list of strings"))
    else:
        problems += [
            Problem(source, entry, "aliases", f"{alias!r}: a name is {NAME_RULE}")
            for alias in aliases
            if not NAME.fullmatch(alias)
        ]
    if isinstance(table.get("id"), str) and table["id"].strip() and not NAME.fullmatch(table["id"]):
        problems.append(Problem(source, entry, "id", f"{table['id']!r}: a name is {NAME_RULE}"))
    if isinstance(table.get("file"), str) and (reason := outside_project(root, table["file"])):
        problems.append(Problem(source, entry, "file", reason))
    return problems


def _load_families(
    catalog_dir: Path, root: Path, languages: tuple[str, ...]
) -> tuple[dict[str, Text] | None, list[Problem]]:
    """The declared families with their titles, or None when the catalog declares none."""
    path = catalog_dir / FAMILIES_FILE
    source = str(path.relative_to(root))
    if not path.is_file():
        return None, []
    document, problems = read_toml(path, source)
    if problems:
        return {}, problems
    families = document.get("family", {})
    problems = [Problem(source, "", key, "unknown key") for key in document if key != "family"]
    if not isinstance(families, dict):
        return {}, [*problems, Problem(source, "", "family", "must be [family.NAME] tables")]
    for name, title in families.items():
        problems += _check_text(title, source, name, "title", languages)
    return families, problems


def _read_tables(path: Path, source: str) -> tuple[list[dict[str, object]], list[Problem]]:
    document, problems = read_toml(path, source)
    if problems:
        return [], problems
    problems = [
        Problem(source, "", key, "unknown key (entries are [[mutant]] tables)") for key in document if key != "mutant"
    ]
    tables = document.get("mutant", [])
    if not isinstance(tables, list) or not all(isinstance(table, dict) for table in tables):
        return [], [*problems, Problem(source, "", "mutant", "must be [[mutant]] tables")]
    return tables, problems


def _to_mutant(table: dict[str, object], source: str) -> Mutant:
    return Mutant(
        id=table["id"],
        family=table["family"],
        file=table["file"],
        scope=table["scope"],
        match=table["match"],
        replace=table.get("replace"),
        killed_by=tuple(table.get("killed_by", ())),
        equivalent=table.get("equivalent"),
        origin=table["origin"],
        title=table["title"],
        why=table["why"],
        hint=table.get("hint"),
        aliases=tuple(table.get("aliases", ())),
        source=source,
        survives=table.get("survives"),
        tracked=table.get("tracked"),
        reviewed=table.get("reviewed", True),
    )


def load_catalog(catalog_dir: Path, root: Path, languages: tuple[str, ...]) -> Catalog:
    """Every `[[mutant]]` of every catalog file, its texts in exactly `languages`, or InputError
    listing all problems found. Without a families file, a family's title is its id."""
    if not catalog_dir.is_dir():
        raise InputError([Problem(str(catalog_dir.relative_to(root)), "", "", "catalog directory not found")])
    families, problems = _load_families(catalog_dir, root, languages)
    mutants: list[Mutant] = []
    seen: dict[str, str] = {}
    ignored = []
    every_table: list[dict[str, object]] = []
    for path in sorted(catalog_dir.glob("*.toml")):
        if path.name == FAMILIES_FILE:
            continue
        if _mutmut_copy(path, root):
            ignored.append(str(path.relative_to(root)))
            continue
        source = str(path.relative_to(root))
        tables, file_problems = _read_tables(path, source)
        problems += file_problems
        every_table += tables
        for position, table in enumerate(tables, start=1):
            named = isinstance(table.get("id"), str) and NAME.fullmatch(table["id"]) is not None
            entry = table["id"] if named else f"entry #{position}"  # a bad id cannot break the problem's line
            entry_problems = _entry_problems(table, source, entry, families, languages, root)
            aliases = table.get("aliases", [])
            names = [entry] if named else []
            names += [alias for alias in aliases if isinstance(alias, str)] if isinstance(aliases, list) else []
            for name in names:
                if name in seen:
                    entry_problems.append(Problem(source, entry, "id", f"duplicate id {name!r}, also in {seen[name]}"))
                seen.setdefault(name, source)
            problems += entry_problems
            if not entry_problems:
                mutants.append(_to_mutant(table, source))
    written = {
        key for table in every_table for name in _TEXTS if isinstance(text := table.get(name), dict) for key in text
    }
    problems = _absent_languages_once(problems, languages, written)
    if problems:
        raise InputError(problems)
    if families is None:
        families = {mutant.family: dict.fromkeys(languages, mutant.family) for mutant in mutants}
    return Catalog(tuple(mutants), families, tuple(ignored))


def _absent_languages_once(problems: list[Problem], languages: tuple[str, ...], written: set[str]) -> list[Problem]:
    """A configured language no entry has a text in is one problem naming the setting (a catalog
    written in fewer languages than `languages`), not a missing translation per text."""
    kept = [language for language in languages if language in written]
    if not kept:  # no text in any of them: every entry's own problems say more
        return problems
    for language in languages:
        if language in written:
            continue
        missing = [
            problem
            for problem in problems
            if problem.message == _MISSING
            and problem.field.endswith("." + language)
            and not problem.source.endswith(FAMILIES_FILE)
        ]
        if missing:
            first = missing[0]
            message = (
                f"no catalog entry has a {language!r} text ({len(missing)} missing, the first {first.source}: "
                f"{first.entry}: {first.field}): write them, or set languages = {json.dumps(kept)} in [tool.mutcheck]"
            )
            setting = Problem("pyproject.toml", "", "tool.mutcheck.languages", message)
            problems = [setting] + [problem for problem in problems if problem not in missing]
    return problems


def joined_catalogs(folders: dict[str, Catalog]) -> Catalog:
    """Several targets' catalogs (by folder) as one, for the commands that read every entry: an id
    or alias names one entry, and a family id one family, across all of them."""
    catalogs = list(folders.values())
    seen: dict[str, str] = {}
    problems = []
    for mutant in (mutant for catalog in catalogs for mutant in catalog.mutants):
        for name in (mutant.id, *mutant.aliases):
            if name in seen:
                problems.append(Problem(mutant.source, mutant.id, "id", f"duplicate id {name!r}, also in {seen[name]}"))
            seen.setdefault(name, mutant.source)
    families: dict[str, Text] = {}
    declared_in: dict[str, str] = {}
    for where, catalog in folders.items():
        for family, title in catalog.families.items():
            if families.setdefault(family, title) != title:
                message = f"declared in {declared_in[family]} too, with another title: give each its own id"
                problems.append(Problem(f"{where}/{FAMILIES_FILE}", family, "family", message))
            declared_in.setdefault(family, where)
    if problems:
        raise InputError(problems)
    return Catalog(
        tuple(mutant for catalog in catalogs for mutant in catalog.mutants),
        families,
        tuple(source for catalog in catalogs for source in catalog.ignored),
    )


def _mutmut_copy(path: Path, root: Path) -> bool:
    """mutmut writes its working copy of the project into `mutants/`, the default catalog folder,
    its configuration files included: a byte-for-byte copy of a file of the project's root is no
    catalog file."""
    original = root / path.name
    return original != path and original.is_file() and original.read_bytes() == path.read_bytes()


def _known_test(test_id: str, collected: set[str], functions: set[str]) -> bool:
    """A node id, or a parametrized test named without its parameters."""
    return test_id in collected or test_id in functions


def unknown_killers(catalog: Catalog, collected: set[str]) -> list[Problem]:
    """`killed_by` entries naming tests the suite does not have."""
    functions = {test_id.split("[", 1)[0] for test_id in collected}
    return [
        Problem(mutant.source, mutant.id, "killed_by", f"no such test in the suite: {test_id}")
        for mutant in catalog.mutants
        for test_id in mutant.killed_by
        if not _known_test(test_id, collected, functions)
    ]
