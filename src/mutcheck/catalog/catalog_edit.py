"""Catalog entries edited in place: fields of an entry set or removed (tomlkit keeps every other byte of
the file: comments, layout, the other entries, line endings), the result read back before it replaces
the file (through its symlink, when it is one)."""

import tomllib
from collections.abc import Iterable
from pathlib import Path

import tomlkit
from tomlkit.items import String

from mutcheck.catalog.catalog import Catalog
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.project_paths import outside_project
from mutcheck.core.rewrite import read_as_kept, rewrite

Edits = dict[str, dict[str, object | None]]  # per entry id: field -> new value (None: remove the field)


def _literal_fits(value: str, multiline: bool) -> bool:
    """Whether TOML can hold `value` as a literal string (no escapes) of that kind."""
    if not all(char == "\n" or char.isprintable() for char in value):
        return False
    if multiline:
        return "'''" not in value and not value.endswith("'") and not value.startswith("\n")
    return "\n" not in value and "'" not in value


def _string(value: str, like: object = None) -> String:
    """Code as the catalog writes it: in the kind of string the field had (`like`) when that can hold
    it, else a literal string where one can (no escapes to read), over several lines as a literal
    block, else a basic string."""
    if isinstance(like, String):
        literal, multiline = like.type.is_literal(), like.type.is_multiline() or "\n" in value
        if not literal or _literal_fits(value, multiline):
            return tomlkit.string(value, literal=literal, multiline=multiline)
    multiline = "\n" in value
    return tomlkit.string(value, literal=_literal_fits(value, multiline), multiline=multiline)


def edit_catalog_file(root: Path, source: str, edits: Edits) -> None:
    """Apply `edits` to the entries of one catalog file (`source`, relative to `root`); InputError
    naming the file when it cannot be written or read back."""
    if reason := outside_project(root, source):  # a link out of the project is never written through
        raise InputError([Problem(source, "", "", reason)])
    path = root / source
    document = tomlkit.parse(read_as_kept(path))
    for table in document.get("mutant", []):
        for key, value in edits.get(str(table.get("id")), {}).items():
            if value is None:
                table.pop(key, None)
            elif table.get(key) != value:
                table[key] = _string(value, table.get(key)) if isinstance(value, str) else value
    text = tomlkit.dumps(document)
    try:
        written = {str(table.get("id")): table for table in tomllib.loads(text).get("mutant", [])}
    except tomllib.TOMLDecodeError as error:  # never replace a catalog by one that does not read
        raise InputError([Problem(source, "", "", f"the edited file would not parse: {error}")]) from error
    for entry, fields in edits.items():  # and read back as meant
        for key, value in fields.items():
            if written.get(entry, {}).get(key) != value:
                raise InputError([Problem(source, entry, key, "the edited file would not read back as written")])
    rewrite(path, text)


def accept_gaps(root: Path, catalog: Catalog, names: Iterable[str]) -> list[tuple[str, str]]:
    """Mark gaps (`suggest`'s `reviewed = false`) as accepted by a person: each name an entry's id or
    alias, or a family, a catalog file or a target file (relative to `root`), which names every gap
    awaiting review in it. InputError, and nothing accepted, for a name that names no such gap.
    Returns (id, catalog file) per accepted entry."""
    problems, accepted = [], {}
    for name in names:
        mutant = catalog.find(name)
        if mutant is not None:
            if mutant.survives is None or mutant.reviewed:
                problems.append(Problem(mutant.source, mutant.id, "reviewed", "is no gap awaiting review"))
            else:
                accepted[mutant.id] = mutant.source
            continue
        within = [m for m in catalog.mutants if name in (m.family, m.source, m.file)]
        waiting = [m for m in within if m.survives is not None and not m.reviewed]
        if waiting:
            accepted |= {m.id: m.source for m in waiting}
        elif within:
            problems.append(Problem("accept", name, "", "holds no gap awaiting review"))
        else:
            problems.append(Problem("accept", name, "", "no mutant id, alias, family, catalog file or target file"))
    if problems:
        raise InputError(problems)
    for source in dict.fromkeys(accepted.values()):
        edits: Edits = {mutant_id: {"reviewed": None} for mutant_id, file in accepted.items() if file == source}
        edit_catalog_file(root, source, edits)
    return list(accepted.items())
