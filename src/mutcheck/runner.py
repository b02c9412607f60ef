"""One `mutcheck run`: the catalog applied and selected, the engine, the matrix, the reports written."""

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from mutcheck import STARTED
from mutcheck.catalog.catalog import REVERT_FAMILY, unknown_killers
from mutcheck.catalog.config import Config, load_config
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.extras import GENERIC, importing
from mutcheck.core.problems import InputError
from mutcheck.core.project_paths import target_files
from mutcheck.engine.engine import Prepared
from mutcheck.engine.session import applied_or_drifted, catalog_of, engine_options, run_with_progress
from mutcheck.selection.plan import Shard, narrow

if TYPE_CHECKING:  # the results' modules load once the run is over
    from mutcheck.results.model import Results


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


def write_text(path: Path, text: str) -> None:
    """A requested output file (its folder made if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _save_state(config: Config, results: "Results", lang: str) -> None:
    """Keep the results for `report` and `show`; the run's outcome does not depend on it."""
    from mutcheck.core.texts import say
    from mutcheck.results.state import save_run

    try:
        save_run(config.root, results, config.profile)
    except OSError as error:
        print(say(lang, "progress", "not_saved", error=error), file=sys.stderr)


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
            from mutcheck.mutation import generic  # mutmut and its parser load only when asked for

        generic_files = target_files(config.root, config.target)
    else:
        generic_files = []

    base = (request.revert_base, "--revert") if request.revert_base else None
    base = (request.diff_base, "--diff") if request.diff_base else base

    def prepare(on_progress: Callable[[str, Any], None]) -> Prepared:
        """Runs while the host starts: LibCST and the catalog's application overlap its start-up."""
        change = None
        if request.revert_base:
            from mutcheck.mutation.revert import revert_change

            change = revert_change(
                config.root,
                request.revert_base,
                config.target,
                config.languages,
                config.tests,
                lambda done, total: on_progress("reverting", (done, total)),
            )
        applied, drifts = applied_or_drifted(config, catalog, request.only, change, base)
        if config.generic and (not request.only or "generic" in request.only):
            applied += generic.generate(config.root, generic_files)
        reverted = []
        if change is not None:
            wanted = set(request.only)
            reverted = [m for m in change.mutants if not wanted or wanted & {m.mutant.id, REVERT_FAMILY}]
        order = {mutant.mutant.id: position for position, mutant in enumerate(applied + reverted)}
        # The change is what `--diff` would keep anyway: it is only sharded.
        applied = narrow(config.root, catalog, applied, request.diff_base, shard)
        return Prepared(applied + narrow(config.root, catalog, reverted, None, shard), change, drifts, order)

    files = [mutant.file for mutant in catalog.select(list(request.only))] + generic_files
    if request.revert_base:  # the change's files are among the target's; their functions' coverage is needed
        files += target_files(config.root, config.target)
    engine_started = time.monotonic()
    options = engine_options(config, request.bail)
    engine_run, prepared = run_with_progress(config, files, prepare, options, console)
    applied, change = prepared.mutants, prepared.change
    engine_run.timings["startup"] = engine_started - STARTED
    if engine_run.collection_error:
        from mutcheck.report.terminal import print_plain

        print_plain(console, engine_run.log[-3000:])
    unknown = unknown_killers(catalog, set(engine_run.tests)) if engine_run.tests else []
    if unknown:
        raise InputError(unknown)
    from mutcheck.core.texts import say
    from mutcheck.publish.actions import publish_in_actions
    from mutcheck.report import terminal
    from mutcheck.report.render import render
    from mutcheck.results.build import build_results
    from mutcheck.results.change_guard import change_guard_section
    from mutcheck.results.matrix import build_matrix
    from mutcheck.results.results import write_results

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
    results = build_results(matrix, engine_run, catalog, config.root, facts, prepared.order, guard, prepared.drifts)
    if request.json_path:
        write_results(request.json_path, results)
    outputs = (("markdown", request.markdown_path), ("html", request.html_path), ("stryker", request.stryker_path))
    for fmt, path in outputs:
        if path:
            write_text(path, render(results, fmt, results.languages))
    _save_state(config, results, config.languages[0])
    terminal.render(results, console)
    if results.mutants and all(m.verdict == "no-coverage" for m in results.mutants):
        console.print(say(config.languages[0], "progress", "no_coverage_warning"), markup=False, highlight=False)
    publish_in_actions(results, sys.stdout)
    return ExitCode(results.summary.exit_code)
