"""What `mutcheck list` lists: the entries `run` would select, as table rows or JSON objects."""

from typing import TYPE_CHECKING, Any

from mutcheck.catalog import Catalog, Mutant
from mutcheck.config import Config
from mutcheck.plan import Shard, narrow
from mutcheck.problems import InputError, Problem
from mutcheck.runner import applied_mutants

if TYPE_CHECKING:
    from mutcheck.mutate import AppliedMutant


def listed_mutants(
    config: Config,
    catalog: Catalog,
    families: tuple[str, ...],
    only: tuple[str, ...],
    diff_base: str | None,
    shard: str | None,
) -> list["AppliedMutant"]:
    """The mutants `run` with these `--only`, `--diff` and `--shard` would run, of these families (all when none)."""
    unknown = [name for name in families if name not in catalog.families]
    if unknown:
        known = ", ".join(sorted(catalog.families)) or "none"
        raise InputError([Problem("--family", name, "", f"no such family (known: {known})") for name in unknown])
    selected = narrow(
        config.root, catalog, applied_mutants(config, catalog, only), diff_base, Shard.parse(shard) if shard else None
    )
    return [applied for applied in selected if not families or applied.mutant.family in families]


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


def as_json(applied: "AppliedMutant") -> dict[str, Any]:
    """One listed mutant as `list --json` writes it (the README describes the shape)."""
    mutant = applied.mutant
    return {
        "id": mutant.id,
        "aliases": list(mutant.aliases),
        "family": mutant.family,
        "file": mutant.file,
        "scope": mutant.scope,
        "line": applied.span.start_line,
        "expectation": expectation_kind(mutant),
        "killed_by": list(mutant.killed_by),
        "equivalent": mutant.equivalent,
        "survives": mutant.survives,
        "tracked": mutant.tracked,
    }
