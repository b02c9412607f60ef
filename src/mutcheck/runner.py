"""One `mutcheck run`: the catalog applied and selected, the engine, the matrix, the reports written."""

import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from mutcheck import STARTED
from mutcheck.catalog.catalog import REVERT_FAMILY, unknown_killers
from mutcheck.catalog.config import Config
from mutcheck.catalog.options import RunOptions, RunRequest
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.extras import GENERIC, importing
from mutcheck.core.git import head_sha
from mutcheck.core.output_file import check_outputs, write_output
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.project_paths import target_files
from mutcheck.core.texts import say
from mutcheck.reuse.key import run_key
from mutcheck.reuse.store import Store, WholeRun, load_store, save_store, store_path
from mutcheck.reuse.whole import mutated_files, request_digest, stored_whole
from mutcheck.sandbox.lab import remove_stale

if TYPE_CHECKING:  # the results' modules load once the run is over
    from mutcheck.catalog.catalog import Catalog
    from mutcheck.results.model import Results


def _save_state(config: Config, results: "Results", lang: str) -> None:
    """Keep the results for `report` and `show`; the run's outcome does not depend on it."""
    from mutcheck.results.state import save_run

    try:
        save_run(config.root, results, config.profile)
    except OSError as error:
        print(say(lang, "progress", "not_saved", error=error), file=sys.stderr)


def run_catalog(request: RunRequest, console: Console) -> ExitCode:
    """Run every selected mutant against the tests that reach it, target by target; report; the
    run's exit status."""
    whole = request.config()
    config = whole.chosen_targets(request.chosen_targets)
    if request.chosen_targets and request.only:
        from mutcheck.engine.session import only_in_unchosen_targets

        if elsewhere := only_in_unchosen_targets(whole, config, request.only):
            raise InputError(elsewhere)
    check_outputs(_outputs(request))  # before any mutant runs: a path that cannot be written is said now
    if len(config.targets) > 1 and request.revert_base:
        names = ", ".join(target.name for target in config.targets)
        message = f"reverts one target's change at a time: add --target NAME ({names})"
        raise InputError([Problem("--revert", request.revert_base, "", message)])
    remove_stale()  # what runs killed outright left behind, even when no engine starts
    stores = _Stores(request.fresh, config.languages[0])
    unchanged = [_unchanged_run(RunOptions(target, request), stores) for target in config.each_target()]
    if all(unchanged):  # nothing any target's run stood on changed: no catalog is applied, no test runs
        runs = [(target.target_name, *found) for target, found in zip(config.each_target(), unchanged, strict=True)]
    else:
        runs = _run_targets(config, request, console, stores)
    if not config.targets:
        results = runs[0][1]
    else:
        from mutcheck.results.targets import TargetRun, joined_results

        results = joined_results([TargetRun(*run) for run in runs])
    return _report(config, request, results, console)


class _Stores:
    """Each target's reuse store, read once (never with --fresh); a damaged one is said once."""

    def __init__(self, fresh: bool, lang: str) -> None:
        self.fresh, self.lang = fresh, lang
        self.read: dict[Path, Store] = {}

    def of(self, config: Config) -> Store | None:
        if self.fresh:
            return None
        path = store_path(config.root, config.profile, config.target_name)
        if path not in self.read:
            self.read[path] = load_store(path)
            if self.read[path].damaged:
                print(say(self.lang, "progress", "store_damaged", reason=self.read[path].damaged), file=sys.stderr)
        return self.read[path]


def _run_targets(
    config: Config, request: RunRequest, console: Console, stores: _Stores
) -> list[tuple[str | None, "Results", int]]:
    """Each target's run, one after the other: its name, results and how many mutants it chose."""
    from mutcheck.catalog.project_catalog import target_catalogs
    from mutcheck.engine.session import unknown_only

    joined, targets = target_catalogs(config)  # several: they agree on ids and families
    if len(targets) > 1:  # with one target, its run names its unknown --only itself
        unknown = unknown_only(config, joined, request.only)
        if unknown:
            raise InputError(unknown)
    runs, started = [], STARTED
    for target, catalog in targets:
        only = request.only
        if len(targets) > 1:
            only = tuple(name for name in request.only if not unknown_only(target, catalog, (name,)))
            if request.only and not only:
                continue  # --only chose none of this target's mutants
            console.print(say(config.languages[0], "progress", "target", name=target.target_name), highlight=False)
        options = RunOptions(target, replace(request, only=only))
        results, chosen = _run_target(options, catalog, console, started, stores)
        runs.append((target.target_name, results, chosen))
        started = time.monotonic()
    return runs


def _whole_runs(request: RunRequest) -> bool:
    """Whether a run may be taken whole from the store: `--diff` and `--revert` depend on git, not only on files."""
    return not (request.diff_base or request.revert_base)


def _unchanged_run(options: RunOptions, stores: _Stores) -> tuple["Results", int] | None:
    """A target's stored run, taken whole when nothing it stood on changed (see `reuse.whole`)."""
    store = stores.of(options.config)
    if store is None or not _whole_runs(options.request):
        return None
    found = stored_whole(store, options.config.root, run_key(options, os.environ), request_digest(options))
    if found is None:
        return None
    from mutcheck.results.unchanged import taken_whole

    results = taken_whole(found[0], options.config.root, STARTED)
    return None if results is None else (results, found[1])


def _run_target(
    options: RunOptions, catalog: "Catalog", console: Console, started: float, stores: _Stores
) -> tuple["Results", int]:
    """One target's run: its results, and how many mutants it chose before `--shard` took its part.
    `started`: when this target's turn began (mutcheck's start for the first)."""
    from mutcheck.engine.engine import Prepared
    from mutcheck.engine.session import applied_or_drifted, engine_options, run_with_progress
    from mutcheck.reuse.reusing import ReuseRequest
    from mutcheck.selection.narrow import narrow
    from mutcheck.selection.shard import Shard

    config, request = options.config, options.request

    store_file = store_path(config.root, config.profile, config.target_name)
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
    lang = config.languages[0]
    stored = stores.of(config)
    usable = None if stored is None else Store() if stored.damaged else stored  # damaged: as if none
    reuse = ReuseRequest(usable, head_sha(config.root), run_key(options, os.environ), request.bail)
    engine_run, prepared = run_with_progress(config, files, prepare, engine_options(options, reuse), console)
    kept = engine_run.kept
    applied, change = prepared.mutants, prepared.change
    engine_run.timings["startup"] = engine_started - started
    if engine_run.collection_error:
        from mutcheck.report.terminal import print_plain

        print_plain(console, engine_run.log[-3000:])
    unknown = unknown_killers(catalog, set(engine_run.tests)) if engine_run.tests else []
    if unknown:
        raise InputError(unknown)
    from mutcheck.results.build import build_results
    from mutcheck.results.change_guard import change_guard_section
    from mutcheck.results.matrix import build_matrix

    matrix = build_matrix(engine_run, applied, request.bail, config.strict_generic)
    engine_run.timings["total"] = time.monotonic() - started
    guard = change_guard_section(change, matrix, config.root) if change is not None else None
    results = build_results(
        matrix, engine_run, catalog, config.root, options.settings(), prepared.order, guard, prepared.drifts
    )
    if kept is not None:
        from mutcheck.results.unchanged import whole_keepable

        if engine_run.kept_whole and _whole_runs(request) and whole_keepable(results):
            mutated = mutated_files(config.root, {mutant.file for mutant in results.mutants})
            kept.whole = WholeRun(request_digest(options), results.to_json(), len(prepared.order), mutated)
        try:
            save_store(store_file, kept, carry=not request.fresh)
        except OSError as error:
            print(say(lang, "progress", "store_not_saved", error=error), file=sys.stderr)
    return results, len(prepared.order)


def _report(config: Config, request: RunRequest, results: "Results", console: Console) -> ExitCode:
    """The requested files written, the run saved, the terminal report; the run's exit status."""
    from mutcheck.publish.actions import publish_in_actions
    from mutcheck.report import terminal
    from mutcheck.report.render import render
    from mutcheck.results.results import results_json

    failed: list[Problem] = []  # a file that could not be written after all: said after the report
    for option, path in _outputs(request).items():
        if path:
            text = results_json(results) if option == "--json" else render(results, option[2:], results.languages)
            try:
                write_output(option, path, text)
            except InputError as error:
                failed += error.problems
    _save_state(config, results, config.languages[0])
    terminal.render(results, console)
    if results.mutants and all(m.verdict == "no-coverage" and not m.selected for m in results.mutants):
        console.print(say(config.languages[0], "progress", "no_coverage_warning"), markup=False, highlight=False)
    publish_in_actions(results, sys.stdout)
    if failed:
        raise InputError(failed)
    return ExitCode(results.summary.exit_code)


def _outputs(request: RunRequest) -> dict[str, Path | None]:
    """The files the run was asked to write, by option (its name after `--` is the format)."""
    return {
        "--json": request.json_path,
        "--markdown": request.markdown_path,
        "--html": request.html_path,
        "--stryker": request.stryker_path,
    }
