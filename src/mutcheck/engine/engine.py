"""The engine: runs the host in a scratch copy, answers its baseline with the plan, gathers outcomes.

Only this module (and the host it starts) runs the project's code.
"""

import base64
import os
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mutcheck.catalog.config import Config
from mutcheck.core.problems import InputError, Problem
from mutcheck.engine.collect import pytest_args_problem
from mutcheck.engine.reusing import Kept, ReuseRequest, Reusing
from mutcheck.host.collection_errors import log_lines
from mutcheck.host.timeouts import time_limit
from mutcheck.host.wire import (
    FULL,
    BaselineRan,
    Collected,
    CollectionFailed,
    HostSpec,
    MutantPlan,
    MutantRan,
    RunDone,
    UnusableOption,
    read_event,
)
from mutcheck.reuse.decide import Reuse
from mutcheck.sandbox.imports import Relocation, start_host
from mutcheck.sandbox.interrupt import deferred
from mutcheck.sandbox.lab import remove_stale, scratch_folder
from mutcheck.sandbox.logs import log_tail
from mutcheck.sandbox.process import stop_session_leader
from mutcheck.sandbox.scratch import ScratchCopy, copy_project
from mutcheck.selection.plan import select_tests

REACH_KINDS = ("covered", "cached", "subprocess")  # how a baseline test can reach a target function

if TYPE_CHECKING:  # LibCST loads while the host starts, not before
    from mutcheck.mutation.drift import Drift
    from mutcheck.mutation.mutate import AppliedMutant
    from mutcheck.mutation.revert import Change


@dataclass
class BaselineRound:
    outcomes: list[str]
    durations: list[float]
    witnesses: list[str | None]


@dataclass
class MutantRun:
    """What happened to one mutant in the engine, before any verdict."""

    id: str
    path: str  # "swap", "fallback", or "none" (nothing selected, or not run)
    fallback: dict[str, str | None] | None  # on the fallback path: why ({"reason", "test"}, see `scheduler`)
    selected: list[int]
    outcomes: dict[int, str]
    durations: dict[int, float]
    witnesses: dict[int, str]
    timed_out: bool
    broken: str | None
    seconds: float
    time_limit: float
    keepable: bool = False  # its outcomes can be kept for a later run's reuse (see `scheduler`)
    reached: list[str] | None = None  # a keepable one's: the target functions its tests ran (None: not watched)
    reuse: Reuse | None = None  # what the store said of it (None: no store, or --fresh)


@dataclass
class EngineRun:
    tests: list[str] = field(default_factory=list)
    test_files: list[str] = field(default_factory=list)  # per test, its file relative to the project
    modules: list[str] = field(default_factory=list)  # the project's Python files imported by collection
    baseline: list[BaselineRound] = field(default_factory=list)
    coverage: list[set[str]] = field(default_factory=list)  # per test, every target function it reached, however
    import_reached: set[str] = field(default_factory=set)  # target functions that ran before any test
    in_subprocesses: set[int] = field(default_factory=set)  # tests that ran target code in a subprocess
    import_elsewhere: list[str] | None = None  # the project's other code run during collection, where watched
    notes: list[str] = field(default_factory=list)  # what the host changed of the project's pytest options
    mutants: dict[str, MutantRun] = field(default_factory=dict)
    collection_error: str | None = None
    seconds: float = 0.0
    mutant_phase_seconds: float = 0.0  # from the plan to the last mutant
    timings: dict[str, float] = field(default_factory=dict)  # seconds per phase, see `run_engine`
    order_dependent: set[int] = field(default_factory=set)  # failed in the baseline only as the workers split it
    copy: ScratchCopy = field(default_factory=lambda: ScratchCopy(0, 0, 0.0))  # the project's scratch copy
    controls: dict[str, int] = field(default_factory=lambda: {"runs": 0, "tests": 0})  # unmutated runs, tests in them
    log: str = ""
    kept: Kept | None = None  # what the run leaves the reuse store (None: asked for no reuse)


@dataclass(frozen=True)
class EngineOptions:
    jobs: int
    bail: bool
    timeout_factor: float
    timeout_constant: float
    baseline_rounds: int
    reuse: ReuseRequest | None = None  # None: neither reuse nor keep (`suggest`'s runs)


@dataclass(frozen=True)
class Prepared:
    """What `prepare` made while the host started: the mutants to run and, for `run`, the change
    they revert, the catalog entries the change moved away from, and each mutant's place among all
    those chosen before `--shard` took its part."""

    mutants: list["AppliedMutant"]
    change: "Change | None" = None
    drifts: list["Drift"] = field(default_factory=list)
    order: dict[str, int] = field(default_factory=dict)


def baseline_passed(run: EngineRun) -> bool:
    """Every test passed (or skipped) in every round, with the same outcome each time."""
    if not run.baseline or run.collection_error:
        return False
    first = run.baseline[0].outcomes
    return all(outcome in ("passed", "skipped") for outcome in first) and all(
        round_.outcomes == first for round_ in run.baseline
    )


def _durations(run: EngineRun) -> list[float]:
    return [max(round_.durations[index] for round_ in run.baseline) for index in range(len(run.tests))]


def _plan_mutants(
    run: EngineRun, applied: list["AppliedMutant"], options: EngineOptions, scratch: Path, reusing: Reusing | None
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The mutants the host runs, and the text of each file they edit: a mutant of one file carries
    its edit (where in that text, and what goes there), not the whole edited file, so the plan grows
    with the edits, not with the files times the mutants. A mutant whose stored outcomes stand (see
    `reusing`) is not run."""
    durations = _durations(run)
    planned, sources = [], {}
    for mutant in applied:
        selected = select_tests(mutant.scope_qualname, run.coverage, run.import_reached)
        limit = time_limit(selected, durations, options.timeout_factor, options.timeout_constant)
        record = run.mutants[mutant.mutant.id] = MutantRun(
            mutant.mutant.id, "none", None, selected, {}, {}, {}, False, None, 0.0, limit
        )
        if selected and not mutant.equivalent_by_compilation and reusing is not None:
            selected = reusing.consider(record, mutant, durations)
        if selected and not mutant.equivalent_by_compilation:
            file = mutant.mutant.file
            edit = None
            if not mutant.writes and sources.setdefault(file, mutant.original) == mutant.original:
                edit = [*mutant.edited_range(), mutant.replacement]
            planned.append(
                {
                    "id": mutant.mutant.id,
                    "file": file,
                    "path": str((scratch / file).resolve()),
                    "swap_target": mutant.swap_target,
                    "marked": base64.b64encode(mutant.marked).decode() if mutant.marked else None,
                    # why a mutant that cannot be swapped runs in a copy
                    "fallback": "whole-file" if mutant.writes else "outside-function",
                    # what the fallback path writes: the edit of `sources[file]` in the file's encoding, or
                    # each file whole (in its own encoding; those without text are removed)
                    "edit": edit,
                    "encoding": mutant.encoding,
                    "writes": [] if edit else [[e.path, e.text, e.encoding, e.link] for e in mutant.files_written()],
                    "selected": selected,
                }
            )
    return planned, sources


def _record_mutant(run: EngineRun, event: MutantRan) -> MutantRun:
    mutant = run.mutants[event.id]
    mutant.path = event.path
    mutant.fallback = event.fallback
    mutant.outcomes = event.outcomes
    mutant.durations = event.durations
    mutant.witnesses = event.witnesses
    mutant.timed_out = event.timed_out
    mutant.broken = event.broken
    mutant.seconds = event.seconds
    mutant.keepable, mutant.reached = event.keepable, event.reached
    return mutant


def run_engine(
    config: Config,
    target_files: list[str],
    prepare: Callable[[Callable[[str, Any], None]], "Prepared"],
    options: EngineOptions,
    on_progress: Callable[[str, Any], None] = lambda _kind, _data: None,
) -> tuple[EngineRun, "Prepared"]:
    """Baseline, then every mutant `prepare` returns, against the tests that reach it; the run and
    what `prepare` made.

    The host starts collecting and running the baseline first; `prepare` (applying the catalog,
    telling `on_progress` how far it got) runs meanwhile in this process, so the two overlap.
    `run.timings` has each phase's seconds: `copy`, `host_start` (interpreter and pytest until
    collection begins), `collection`, `baseline`, `apply` (`prepare`, overlapping the three before
    it), `mutants`. Raises InputError when pytest refuses the configured `pytest_args`.
    """
    started = time.monotonic()
    run = EngineRun()
    remove_stale()  # what runs killed outright left behind
    with scratch_folder() as directory:
        scratch = Path(directory) / "project"
        run.copy = copy_project(config.root, scratch)
        run.timings["copy"] = run.copy.seconds
        read_fd, write_fd = os.pipe()
        spec = HostSpec(
            mode=FULL,
            events_fd=write_fd,
            project=str(scratch),
            scratch=str(directory),  # where fallback mutants get their copies
            pytest_args=list(config.pytest_args),
            project_roots=[str(config.root)],  # where editable installs and PYTHONPATH point
            parent=os.getpid(),
            test_paths=list(config.tests),
            # absolute: a test module or conftest may change directory while it is imported
            target_files=sorted({str((scratch / name).resolve()) for name in target_files}),
            baseline_rounds=options.baseline_rounds,
            jobs=options.jobs,
            bail=options.bail,
        )
        spec_path = Path(directory) / "spec.json"
        spec.write(spec_path)
        log_path = Path(directory) / "host.log"
        environment = {
            **Relocation([config.root], scratch).environment(os.environ),
            "PYTHONDONTWRITEBYTECODE": "1",
            "MUTCHECK_RUNNING": "1",
        }
        host = None
        try:
            # Not started without being named here, so that it is stopped below.
            with deferred(), log_path.open("w", encoding="utf-8") as log:
                host = start_host(spec_path, scratch, write_fd, environment, log, answers=True)
                os.close(write_fd)
            host_started = time.monotonic()
            prepared = prepare(on_progress)
            run.timings["apply"] = time.monotonic() - host_started
            reusing = _converse(
                host, read_fd, run, config, target_files, prepared, options, on_progress, host_started, scratch
            )
            if reusing is not None:
                run.kept = reusing.kept(run, prepared.mutants)
        finally:
            with deferred():
                os.close(read_fd)
                if host is None:
                    os.close(write_fd)
                else:
                    stop_session_leader(host, host.session_tag)
        run.log = log_tail(log_path)
        if run.collection_error and not run.tests:
            failure = "\n".join([run.collection_error, *(f"  {line}" for line in log_lines(run.log, str(scratch)))])
            if problem := pytest_args_problem(config, Path(directory), environment, failure):
                raise InputError([problem])
    run.seconds = time.monotonic() - started
    return run, prepared


def _converse(
    host: subprocess.Popen,
    read_fd: int,
    run: EngineRun,
    config: Config,
    target_files: list[str],
    prepared: Prepared,
    options: EngineOptions,
    on_progress: Callable[[str, Any], None],
    host_started: float,
    scratch: Path,
) -> Reusing | None:
    """The host's events until it is done; the run's reuse, once the baseline passed and it was asked for."""
    planned_at = collected_at = time.monotonic()  # the host's moments share this clock
    reusing = None
    with os.fdopen(os.dup(read_fd), "r", encoding="utf-8") as events:
        for line in events:
            event = read_event(line)
            if isinstance(event, CollectionFailed):
                run.collection_error = event.broken
                return None
            if isinstance(event, UnusableOption):
                raise InputError([Problem(event.source, "", event.field, event.message)])
            if isinstance(event, Collected):
                run.tests = event.tests
                run.test_files, run.modules = event.files or [], event.modules or []
                run.notes = event.notes
                collected_at = event.collected
                run.timings["host_start"] = event.collection_started - host_started
                run.timings["collection"] = collected_at - event.collection_started
                on_progress("collected", len(run.tests))
                for note in run.notes:
                    on_progress("note", note)
            elif isinstance(event, BaselineRan):
                results = event.results
                run.baseline.append(
                    BaselineRound(
                        [result["outcome"] for result in results],
                        [result["duration"] for result in results],
                        [result.get("witness") for result in results],
                    )
                )
                run.order_dependent.update(event.order_dependent)
                if event.round == 1:
                    run.coverage = [
                        {name for kind in REACH_KINDS for name in result.get(kind, ())} for result in results
                    ]
                    run.import_reached = set(event.import_reached or ())
                    run.import_elsewhere = event.import_elsewhere
                    run.in_subprocesses = {index for index, result in enumerate(results) if result.get("subprocess")}
                on_progress("baseline", event.round)
                if event.round == options.baseline_rounds:
                    planned_at = time.monotonic()
                    run.timings["baseline"] = event.at - collected_at
                    planned, sources = [], {}
                    if baseline_passed(run):
                        if options.reuse is not None:
                            reusing = Reusing(options.reuse, scratch, config, options, run, target_files)
                        planned, sources = _plan_mutants(run, prepared.mutants, options, scratch, reusing)
                    on_progress("planned", len(planned))
                    plan = MutantPlan(
                        planned, sources, _durations(run), options.timeout_factor, options.timeout_constant
                    )
                    host.stdin.write(plan.to_json() + "\n")
                    host.stdin.flush()
            elif isinstance(event, MutantRan):
                on_progress("mutant", _record_mutant(run, event))
            elif isinstance(event, RunDone):
                run.controls = event.controls
                run.mutant_phase_seconds = run.timings["mutants"] = time.monotonic() - planned_at
                return reusing
    # The stream ended without "done": the host died (its log says why).
    run.collection_error = run.collection_error or "the pytest host stopped unexpectedly"
    return None
