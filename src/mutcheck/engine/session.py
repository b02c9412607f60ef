"""What every command that runs the engine shares: the catalog loaded, entries selected and
applied, the engine's options and its run with progress."""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.console import Console

from mutcheck.catalog.catalog import REVERT_FAMILY, Catalog
from mutcheck.catalog.config import Config
from mutcheck.catalog.options import RunOptions
from mutcheck.catalog.project_catalog import catalog_of, target_catalogs
from mutcheck.core.problems import InputError, Problem
from mutcheck.engine.engine import EngineOptions, EngineRun, Prepared, run_engine
from mutcheck.engine.progress import Progress
from mutcheck.reuse.guard import stamps, undo_changes
from mutcheck.reuse.reusing import ReuseRequest
from mutcheck.reuse.store import store_folder

if TYPE_CHECKING:
    from mutcheck.mutation.drift import Drift
    from mutcheck.mutation.mutate import AppliedMutant
    from mutcheck.mutation.revert import Change


def unknown_only(
    config: Config, catalog: Catalog, only: tuple[str, ...], change: "Change | None" = None
) -> list[Problem]:
    """The `--only` names that are no mutant id, alias or family."""
    known = {name for m in catalog.mutants for name in (m.id, m.family, *m.aliases)}
    if change is not None:  # `--only change-guard`: the revert mutants alone
        known |= {REVERT_FAMILY, *(applied.mutant.id for applied in change.mutants)}
    if config.generic:
        known.add("generic")  # `--only generic`: the generic operator mutants alone
    return [
        Problem("--only", name, "", "no mutant id, alias or family of that name") for name in only if name not in known
    ]


def only_in_unchosen_targets(whole: Config, chosen: Config, only: tuple[str, ...]) -> list[Problem]:
    """The `--only` names no chosen target holds and another target of the project does: each named
    with the target that holds it, not as unknown."""
    missing = [problem.entry for problem in unknown_only(chosen, catalog_of(chosen), only)]
    problems = []
    for target, catalog in target_catalogs(whole)[1] if missing else []:
        for name in missing:
            if not unknown_only(target, catalog, (name,)):
                message = f"is in target {target.target_name}, which --target did not choose"
                problems.append(Problem("--only", name, "", f"{message} (add --target {target.target_name})"))
    return problems


def applied_mutants(
    config: Config, catalog: Catalog, only: tuple[str, ...], change: "Change | None" = None
) -> list["AppliedMutant"]:
    """The selected catalog entries, applied; every unknown `--only` name and failed application at once."""
    return applied_or_drifted(config, catalog, only, change)[0]


def applied_or_drifted(
    config: Config,
    catalog: Catalog,
    only: tuple[str, ...],
    change: "Change | None" = None,
    base: tuple[str, str] | None = None,
) -> tuple[list["AppliedMutant"], list["Drift"]]:
    """The selected catalog entries, applied, and with `base` (BASE and the option that gave it) the
    entries that applied there but not at the head (see `drift`); every unknown `--only` name and
    every other failed application at once, as InputError."""
    from mutcheck.mutation.mutate import MutationError, apply_mutant

    problems = unknown_only(config, catalog, only, change)
    applied, failures = [], []
    for mutant in catalog.select(list(only)):
        try:
            applied.append(apply_mutant(mutant, config.root))
        except MutationError as error:
            failures.append((mutant, error))
    drifts = []
    if failures and base is not None:
        from mutcheck.mutation.drift import drifted

        drifts, failed = drifted(config.root, base[0], base[1], failures)
        problems += failed
    elif failures:
        problems += [error.problem for _, error in failures]
    if problems:
        raise InputError(problems)
    return applied, drifts


def engine_options(options: RunOptions, reuse: ReuseRequest | None = None) -> EngineOptions:
    """The engine's part of the run's options; `reuse`: None for runs that neither reuse nor keep."""
    config = options.config
    return EngineOptions(
        jobs=options.jobs,
        bail=options.request.bail,
        timeout_factor=config.timeout_factor,
        timeout_constant=config.timeout_constant,
        baseline_rounds=config.baseline_rounds,
        reuse=reuse,
    )


def run_with_progress(
    config: Config,
    files: list[str],
    prepare: Callable[[Callable[[str, Any], None]], Prepared],
    options: EngineOptions,
    console: Console,
) -> tuple[EngineRun, Prepared]:
    """The engine, its progress on `console` in the first configured language; whatever the
    project's code changed in the reuse store's folder while it ran is removed (see `guard`)."""
    progress = Progress(console, options.baseline_rounds, config.languages[0])
    store, before = store_folder(), stamps(store_folder())
    try:
        return run_engine(config, files, prepare, options, progress)
    finally:
        progress.stop()
        undo_changes(store, before)
