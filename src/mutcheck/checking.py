"""`mutcheck check`: the catalog validated and applied; the entries a change moved away from, named or rewritten."""

from dataclasses import dataclass

from mutcheck.catalog.catalog import unknown_killers
from mutcheck.catalog.catalog_edit import edit_catalog_file
from mutcheck.catalog.config import Config
from mutcheck.catalog.project_catalog import catalog_of
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.problems import InputError
from mutcheck.core.texts import say
from mutcheck.engine.collect import collect_test_ids
from mutcheck.engine.session import applied_or_drifted
from mutcheck.mutation.drift import Drift
from mutcheck.mutation.mutate import unmarked_equivalents


@dataclass(frozen=True)
class Checked:
    lines: list[str]  # stdout, in order
    exit_code: ExitCode
    # An entry that could not be rewritten: the lines before it still print (earlier rewrites are written).
    failure: InputError | None = None


def check_catalog(config: Config, base: str | None, update: bool) -> Checked:
    """Every catalog problem at once, as InputError. With `base` (`update`: HEAD by default) an entry
    that applied at BASE but not here is a finding, one line plus either the fields that would place it
    again or, with `update`, those fields written; the check fails while a finding is left."""
    catalog = catalog_of(config)
    problems = unknown_killers(catalog, collect_test_ids(config))
    base = base or ("HEAD" if update else None)
    try:
        applied, drifts = applied_or_drifted(config, catalog, (), base=(base, "--base") if base else None)
    except InputError as error:
        raise InputError(problems + error.problems) from error
    problems += unmarked_equivalents(applied)
    if problems:
        raise InputError(problems)
    lang = config.languages[0]
    lines: list[str] = []
    left = 0
    for drift in drifts:
        lines.append(
            f"{drift.mutant.source}: {drift.mutant.id}: "
            + say(lang, "text", "drift_entry", field=drift.field, message=drift.message)
        )
        if update and drift.proposal:
            try:
                lines.append(_rewrite(config, drift, drift.proposal))
            except InputError as error:
                return Checked(lines, ExitCode.USAGE, error)
        else:
            left += 1
            lines.append(
                "  "
                + say(lang, "text", "drift_no_proposal" if not drift.proposal else "drift_proposal")
                + (f": {drift.proposal}" if drift.proposal else "")
            )
    if left:
        return Checked(lines, ExitCode.EXPECTATION_FAILED)
    lines.append(f"{len(catalog.mutants)} mutants in {len(catalog.families)} families: every entry applies")
    return Checked(lines, ExitCode.OK)


def _rewrite(config: Config, drift: Drift, proposal: dict[str, str | None]) -> str:
    """Write the proposed fields into the entry's catalog file (a deletion stays one: no `replace`); the line
    saying so."""
    fields = {key: value for key, value in proposal.items() if key != "replace" or value is not None}
    edit_catalog_file(config.root, drift.mutant.source, {drift.mutant.id: fields})
    return f"updated {drift.mutant.id} ({drift.mutant.source}): " + ", ".join(f"{k} = {v!r}" for k, v in fields.items())
