"""The mutants a run or a listing keeps of those `--only` chose: `--diff BASE`, then `--shard k/n`."""

from pathlib import Path

from mutcheck.catalog.catalog import Catalog
from mutcheck.mutation.mutate import AppliedMutant
from mutcheck.selection.diff import changed_entries, changed_lines, in_diff
from mutcheck.selection.shard import Shard


def narrow(
    root: Path, catalog: Catalog, applied: list[AppliedMutant], diff_base: str | None, shard: Shard | None
) -> list[AppliedMutant]:
    """`--diff BASE` and `--shard k/n` applied to the mutants `--only` chose: what `run` runs and `list` lists."""
    if diff_base:
        changed = changed_lines(root, diff_base)
        entries = changed_entries(root, changed, {mutant.source for mutant in catalog.mutants})
        applied = [mutant for mutant in applied if in_diff(mutant, changed, entries)]
    if shard:
        applied = [mutant for mutant in applied if shard.keeps(mutant.mutant.id)]
    return applied
