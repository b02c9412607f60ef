"""What `mutcheck list` lists: the entries `run` would select, as table rows or JSON objects."""

import json
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from mutcheck.catalog.catalog import Catalog, Mutant
from mutcheck.catalog.config import Config
from mutcheck.core.problems import InputError, Problem
from mutcheck.engine.session import applied_mutants, unknown_only
from mutcheck.selection.narrow import narrow
from mutcheck.selection.shard import Shard


@dataclass(frozen=True)
class Listed:
    mutant: Mutant
    line: int | None  # the first line the edit changes, when the entry was applied


def listed_mutants(
    config: Config,
    catalog: Catalog,
    families: tuple[str, ...],
    only: tuple[str, ...],
    diff_base: str | None,
    shard: str | None,
    lines: bool,
) -> list[Listed]:
    """The mutants `run` with these `--only`, `--diff` and `--shard` would run, of these families (all
    when none). Entries are applied (so one that does not apply is an error, as in `run`) only when
    their lines are needed: for `--diff`, and for `lines`."""
    unknown = [name for name in families if name not in catalog.families]
    if unknown:
        known = ", ".join(sorted(catalog.families)) or "none"
        raise InputError([Problem("--family", name, "", f"no such family (known: {known})") for name in unknown])
    chosen = Shard.parse(shard) if shard else None
    if diff_base or lines:
        applied = narrow(config.root, catalog, applied_mutants(config, catalog, only), diff_base, chosen)
        listed = [Listed(entry.mutant, entry.span.start_line) for entry in applied]
    else:
        if problems := unknown_only(config, catalog, only):
            raise InputError(problems)
        selected = catalog.select(list(only))
        listed = [Listed(mutant, None) for mutant in selected if not chosen or chosen.keeps(mutant.id)]
    return [entry for entry in listed if not families or entry.mutant.family in families]


def expectation_kind(mutant: Mutant) -> str:
    if mutant.equivalent:
        return "equivalent"
    return "survives" if mutant.survives else "killed_by"


def expectation_summary(mutant: Mutant) -> str:
    """The table's column: what the catalog expects, in a few words."""
    kind = expectation_kind(mutant)
    if kind == "killed_by":
        return f"killed by {len(mutant.killed_by)}"
    return "known gap" if kind == "survives" else kind


def table(listed: list[Listed]) -> Table:
    """The listed mutants as `list` prints them: id, family, location and expectation."""
    rows = Table("id", "family", "location", "expectation", box=None, pad_edge=False)
    for mutant in (entry.mutant for entry in listed):
        rows.add_row(mutant.id, mutant.family, f"{mutant.file}::{mutant.scope}", expectation_summary(mutant))
    return rows


def as_json(listed: list[Listed]) -> str:
    """The listed mutants as `list --json` writes them: one JSON list (the README describes the shape)."""
    return json.dumps([_entry_json(entry) for entry in listed], indent=1, ensure_ascii=False)


def _entry_json(listed: Listed) -> dict[str, Any]:
    mutant = listed.mutant
    return {
        "id": mutant.id,
        "aliases": list(mutant.aliases),
        "family": mutant.family,
        "file": mutant.file,
        "scope": mutant.scope,
        "line": listed.line,
        "expectation": expectation_kind(mutant),
        "killed_by": list(mutant.killed_by),
        "equivalent": mutant.equivalent,
        "survives": mutant.survives,
        "tracked": mutant.tracked,
    }
