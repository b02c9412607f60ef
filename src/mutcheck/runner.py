"""One `mutcheck run`: the catalog applied and selected, the engine, the matrix, the reports written."""

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from mutcheck import STARTED
from mutcheck.catalog import REVERT_FAMILY, Catalog, load_catalog, unknown_killers
from mutcheck.config import Config, load_config
from mutcheck.engine import EngineOptions, EngineRun, run_engine
from mutcheck.exit_code import ExitCode
from mutcheck.extras import GENERIC, importing
from mutcheck.plan import Shard, narrow
from mutcheck.problems import InputError, Problem
from mutcheck.project_paths import target_files
from mutcheck.report.progress import Progress

if TYPE_CHECKING:
    from mutcheck.drift import Drift
    from mutcheck.mutate import AppliedMutant
    from mutcheck.revert import Change


@dataclass(frozen=True)
class RunRequest:
    """What the command line asked for; None leaves a setting to the configuration."""

    root: Path
    profile: str | None = None
    only: tuple[str, ...] = ()
    diff_base: str | None = None
    revert_base: str | None = None
    shard: str | None = None
    bail: bool = False
    generic: bool | None = None
    strict_generic: bool | None = None
    jobs: int | None = None
    timeout_factor: float | None = None
    timeout_constant: float | None = None
    baseline_rounds: int | None = None
    json_path: Path | None = None
    markdown_path: Path | None = None
    html_path: Path | None = None
    stryker_path: Path | None = None


def catalog_of(config: Config) -> Catalog:
    catalog = load_catalog(config.catalog_dir, config.root, config.languages)
    for source in catalog.ignored:
        print(f"warning: {source} is mutmut's copy of a project file, not a catalog file: not read", file=sys.stderr)
    return catalog


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
    from mutcheck.mutate import MutationError, apply_mutant

    problems = unknown_only(config, catalog, only, change)
    applied, failures = [], []
    for mutant in catalog.select(list(only)):
        try:
            applied.append(apply_mutant(mutant, config.root))
        except MutationError as error:
            failures.append((mutant, error))
    drifts = []
    if failures and base is not None:
        from mutcheck.drift import drifted

        drifts, failed = drifted(config.root, base[0], base[1], failures)
        problems += failed
    elif failures:
        problems += [error.problem for _, error in failures]
    if problems:
        raise InputError(problems)
    return applied, drifts


def write_text(path: Path, text: str) -> None:
    """A requested output file (its folder made if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _save_state(config: Config, results: dict[str, Any], lang: str) -> None:
    """Keep the results for `report` and `show`; the run's outcome does not depend on it."""
    from mutcheck.report.texts import say
    from mutcheck.state import save_run

    try:
        save_run(config.root, results, config.profile)
    except OSError as error:
        print(say(lang, "progress", "not_saved", error=error), file=sys.stderr)


def engine_options(config: Config, bail: bool) -> EngineOptions:
    return EngineOptions(
        jobs=config.jobs or os.cpu_count() or 1,
        bail=bail,
        timeout_factor=config.timeout_factor,
        timeout_constant=config.timeout_constant,
        baseline_rounds=config.baseline_rounds,
    )


def run_with_progress(
    config: Config,
    files: list[str],
    prepare: Callable[[Callable[[str, Any], None]], list["AppliedMutant"]],
    options: EngineOptions,
    console: Console,
) -> tuple[EngineRun, list["AppliedMutant"]]:
    """The engine, its progress on `console` in the first configured language."""
    progress = Progress(console, options.baseline_rounds, config.languages[0])
    try:
        return run_engine(config, files, prepare, options, progress)
    finally:
        progress.stop()


def run_catalog(request: RunRequest, console: Console) -> ExitCode:
    """Run every selected mutant against the tests that reach it; report; the run's exit status."""
    overrides = {
        "jobs": request.jobs,
        "timeout_factor": request.timeout_factor,
        "timeout_constant": request.timeout_constant,
        "baseline_rounds": request.baseline_rounds,
        "generic": request.generic,
        "strict_generic": request.strict_generic,
    }
    config = load_config(request.root, overrides, request.profile)
    catalog = catalog_of(config)
    shard = Shard.parse(request.shard) if request.shard else None
    if config.generic:
        asked_by = ("--generic", "") if request.generic else ("pyproject.toml", "tool.mutcheck.generic")
        with importing(GENERIC, *asked_by):
            from mutcheck import generic  # mutmut and its parser load only when asked for

        generic_files = target_files(config.root, config.target)
    else:
        generic_files = []

    change: Change | None = None
    drifts: list[Drift] = []
    order: dict[str, int] = {}
    base = (request.revert_base, "--revert") if request.revert_base else None
    base = (request.diff_base, "--diff") if request.diff_base else base

    def prepare(on_progress: Callable[[str, Any], None]) -> list["AppliedMutant"]:
        """Runs while the host starts: LibCST and the catalog's application overlap its start-up."""
        nonlocal change
        if request.revert_base:
            from mutcheck.revert import revert_change

            change = revert_change(
                config.root,
                request.revert_base,
                config.target,
                config.languages,
                config.tests,
                lambda done, total: on_progress("reverting", (done, total)),
            )
        applied, drifted = applied_or_drifted(config, catalog, request.only, change, base)
        drifts.extend(drifted)
        if config.generic and (not request.only or "generic" in request.only):
            applied += generic.generate(config.root, generic_files)
        reverted = []
        if change is not None:
            wanted = set(request.only)
            reverted = [m for m in change.mutants if not wanted or wanted & {m.mutant.id, REVERT_FAMILY}]
        order.update((mutant.mutant.id, position) for position, mutant in enumerate(applied + reverted))
        # The change is what `--diff` would keep anyway: it is only sharded.
        applied = narrow(config.root, catalog, applied, request.diff_base, shard)
        return applied + narrow(config.root, catalog, reverted, None, shard)

    files = [mutant.file for mutant in catalog.select(list(request.only))] + generic_files
    if request.revert_base:  # the change's files are among the target's; their functions' coverage is needed
        files += target_files(config.root, config.target)
    engine_started = time.monotonic()
    options = engine_options(config, request.bail)
    engine_run, applied = run_with_progress(config, files, prepare, options, console)
    engine_run.timings["startup"] = engine_started - STARTED
    if engine_run.collection_error:
        from mutcheck.report.terminal import print_plain

        print_plain(console, engine_run.log[-3000:])
    unknown = unknown_killers(catalog, set(engine_run.tests)) if engine_run.tests else []
    if unknown:
        raise InputError(unknown)
    from mutcheck.actions import publish_in_actions
    from mutcheck.change_guard import change_guard_section
    from mutcheck.matrix import build_matrix
    from mutcheck.report import terminal
    from mutcheck.report.render import render
    from mutcheck.report.texts import run_languages, say
    from mutcheck.results import build_results, write_results

    matrix = build_matrix(engine_run, applied, request.bail, config.strict_generic)
    facts = {
        "jobs": options.jobs,
        "bail": request.bail,
        "baseline_rounds": options.baseline_rounds,
        "shard": request.shard,
        "only": list(request.only),
        "diff_base": request.diff_base,
        "revert_base": request.revert_base,
        "generic": config.generic,
        "strict_generic": config.strict_generic,
        "languages": list(config.languages),
    }
    engine_run.timings["total"] = time.monotonic() - STARTED
    guard = change_guard_section(change, matrix, config.root) if change is not None else None
    results = build_results(matrix, engine_run, catalog, config.root, facts, order, guard, drifts)
    if request.json_path:
        write_results(request.json_path, results)
    outputs = (("markdown", request.markdown_path), ("html", request.html_path), ("stryker", request.stryker_path))
    for fmt, path in outputs:
        if path:
            write_text(path, render(results, fmt, run_languages(results)))
    _save_state(config, results, config.languages[0])
    terminal.render(results, console)
    if results["mutants"] and all(m["verdict"] == "no-coverage" for m in results["mutants"]):
        console.print(say(config.languages[0], "progress", "no_coverage_warning"), markup=False, highlight=False)
    publish_in_actions(results, sys.stdout)
    return ExitCode(results["summary"]["exit_code"])
