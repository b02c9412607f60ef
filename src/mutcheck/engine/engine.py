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
from mutcheck.core.line_reach import LineReach
from mutcheck.core.module_scope import reach_name
from mutcheck.core.problems import InputError, Problem
from mutcheck.engine.collect import pytest_args_problem
from mutcheck.host.collection_errors import log_lines
from mutcheck.host.timeouts import test_limit, time_limit
from mutcheck.host.wire import (
    FULL,
    BaselineRan,
    Collected,
    CollectionFailed,
    HostSpec,
    MutantPlan,
    MutantRan,
    RunDone,
    Seen,
    UnusableOption,
    read_event,
)
from mutcheck.reuse.decide import MutantDecision
from mutcheck.reuse.keep import Observed, ObservedMutant
from mutcheck.reuse.labels import Places
from mutcheck.reuse.reusing import ReuseRequest, Reusing, edit_of, names_of
from mutcheck.reuse.store import Store
from mutcheck.sandbox.imports import Relocation, start_host
from mutcheck.sandbox.interrupt import deferred
from mutcheck.sandbox.lab import remove_stale, scratch_folder
from mutcheck.sandbox.logs import log_tail
from mutcheck.sandbox.process import stop_session_leader
from mutcheck.sandbox.scratch import ScratchCopy, copy_project
from mutcheck.selection.kept_results import keepers
from mutcheck.selection.line_reach import FileLines, line_reach
from mutcheck.selection.reaching_tests import select_tests

# how a baseline test can reach a target function (`shared`: through the value of a shared fixture it uses)
REACH_KINDS = ("covered", "cached", "subprocess", "forked", "shared")

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
    code_watched: bool = False  # the code its tests ran was watched (see `host.watch`)
    seen: dict[int, Seen] = field(default_factory=dict)  # a keepable one's: what each test was seen to depend on
    fixtures: dict[str, Seen] = field(default_factory=dict)  # and each shared fixture's setup
    confirmed: list[int] = field(default_factory=list)  # tests whose outcomes a run in the suite's order settled
    in_order: list[int] = field(default_factory=list)  # that run's tests, in order (a keepable one's)
    in_order_seen: dict[int, Seen] = field(default_factory=dict)  # and what each was seen to depend on there
    reuse: MutantDecision | None = None  # what the store said of it (None: no store, or --fresh)
    line_reach: LineReach | None = None  # which tests ran its own lines (None: not seen, see `line_reach`)


@dataclass
class EngineRun:
    tests: list[str] = field(default_factory=list)
    test_files: list[str] = field(default_factory=list)  # per test, its file relative to the project
    modules: list[str] = field(default_factory=list)  # the project's Python files imported by collection
    baseline: list[BaselineRound] = field(default_factory=list)
    coverage: list[set[str]] = field(default_factory=list)  # per test, every target function it reached, however
    import_reached: set[str] = field(default_factory=set)  # target functions that ran before any test
    lines: list[dict[str, set[int]]] = field(default_factory=list)  # per test, the target files' lines it ran
    started: list[set[str]] = field(default_factory=list)  # per test, the target functions that started in it
    in_subprocesses: set[int] = field(default_factory=set)  # tests that ran target code in another process
    sharing: dict[int, str] = field(default_factory=dict)  # a test sharing a fixture's value -> its group's name
    module_names: dict[str, str] = field(default_factory=dict)  # the project's module files, their module names
    loaded: list[str] = field(default_factory=list)  # every module loaded when collecting ended
    collection_seen: Seen = field(default_factory=Seen)  # what collecting was seen to depend on
    collection_code_watched: bool = False
    seen: list[Seen | None] = field(default_factory=list)  # per test: what the baseline saw it depend on
    fixtures_seen: dict[str, Seen] = field(default_factory=dict)  # per shared fixture: what its setups depended on
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
    kept: Store | None = None  # what the run leaves the reuse store (None: asked for no reuse, or nothing to keep)
    kept_whole: bool = False  # the run can be taken whole by the next (see `reuse.whole`)


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


def _edit(applied: "AppliedMutant") -> str:
    start, end = applied.edited_range()
    replaced = applied.original[start:end]
    return edit_of(applied.mutant.file, applied.scope_qualname, replaced, applied.replacement, applied.swap_target)


def _readers_of(run: EngineRun, path: str) -> set[int]:
    """The tests the baseline saw open the file other than by importing it (a style check over the
    sources, `inspect.getsource`): its text is what they test, so each of its mutants runs them."""
    real = os.path.realpath(path)
    return {index for index, seen in enumerate(run.seen) if seen is not None and seen.opened(real)}


def _plan_mutants(
    run: EngineRun, applied: list["AppliedMutant"], options: EngineOptions, scratch: Path, reusing: Reusing | None
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The mutants the host runs, and the text of each file they edit: a mutant of one file carries
    its edit (where in that text, and what goes there), not the whole edited file, so the plan grows
    with the edits, not with the files times the mutants. Of a mutant's tests, those whose stored
    outcomes stand (see `reuse`) are not run; a mutant with none left is not run at all."""
    durations = _durations(run)
    planned, sources = [], {}
    files: dict[str, FileLines | None] = {}
    readers: dict[str, set[int]] = {}
    keeping: dict[str, dict[str, set[str]]] = {}  # by file: what keeps each function's result (see `kept_results`)
    for mutant in applied:
        path = str((scratch / mutant.mutant.file).resolve())  # as the host names the target files
        selected = select_tests(reach_name(path, mutant.scope_qualname), run.coverage, run.import_reached)
        if path not in readers:  # once per file, not per mutant
            readers[path] = _readers_of(run, path)
        selected = sorted(set(selected) | readers[path])
        reach = _line_reach(run, mutant, selected, files, path)
        if reach is not None:  # a test that ran the lines runs, whatever the functions it reached
            selected = sorted(set(selected) | set(reach.tests))
        if path not in keeping:
            keeping[path] = keepers(mutant.original, path)
        callee = mutant.scope_qualname.rpartition(".")[2]
        # a keeper may hand a later test what the mutant returned in an earlier one
        kept_by = [select_tests(keeper, run.coverage, run.import_reached) for keeper in keeping[path].get(callee, ())]
        selected = sorted(set(selected).union(*kept_by))
        limit = time_limit(selected, durations, options.timeout_factor, options.timeout_constant)
        record = run.mutants[mutant.mutant.id] = MutantRun(
            mutant.mutant.id, "none", None, selected, {}, {}, {}, False, None, 0.0, limit, line_reach=reach
        )
        if selected and not mutant.equivalent_by_compilation and reusing is not None:
            names = [run.tests[index] for index in selected]
            limits = {
                run.tests[index]: test_limit(durations[index], options.timeout_factor, options.timeout_constant)
                for index in selected
            }
            record.reuse = reusing.decide(mutant.mutant.id, _edit(mutant), names, limits)
            if record.reuse is not None:
                to_run = set(record.reuse.to_run)
                selected = [index for index in selected if run.tests[index] in to_run]
                if not selected:
                    _join_reused(run, record)
        if selected and not mutant.equivalent_by_compilation:
            file = mutant.mutant.file
            edit = None
            if not mutant.writes and sources.setdefault(file, mutant.original) == mutant.original:
                edit = [*mutant.edited_range(), mutant.replacement]
            planned.append(
                {
                    "id": mutant.mutant.id,
                    "file": file,
                    "path": path,
                    "swap_target": mutant.swap_target,
                    "marked": base64.b64encode(mutant.marked).decode() if mutant.marked else None,
                    # why a mutant that cannot be swapped runs in a copy
                    "fallback": mutant.copy_reason() if mutant.swap_target is None else None,
                    # what the fallback path writes: the edit of `sources[file]` in the file's encoding, or
                    # each file whole (in its own encoding; those without text are removed)
                    "edit": edit,
                    "encoding": mutant.encoding,
                    "writes": [] if edit else [[e.path, e.text, e.encoding, e.link] for e in mutant.files_written()],
                    "selected": selected,
                }
            )
    return planned, sources


def _line_reach(
    run: EngineRun, mutant: "AppliedMutant", selected: list[int], files: dict[str, FileLines | None], path: str
) -> LineReach | None:
    """Which tests ran the mutant's own lines in the baseline (see `selection.line_reach`); `path`: its
    file as the host names it."""
    if path not in files:
        try:
            files[path] = FileLines(mutant.original, path)
        except (SyntaxError, ValueError):  # compiled by another Python than the one that applied it
            files[path] = None
    lines_of = files[path]
    if lines_of is None:
        return None
    executed = [ran.get(path, set()) for ran in run.lines]
    chosen = set(selected)
    started = [run.started[index] if index in chosen else set() for index in range(len(run.lines))]
    subprocesses = run.in_subprocesses & chosen
    return line_reach(lines_of, mutant.span, executed, run.import_reached, subprocesses, started)


def _join_reused(run: EngineRun, mutant: "MutantRun", ran: dict[int, str] | None = None) -> None:
    """The mutant's outcomes: those its tests had now (`ran`), the reused ones for the rest (see `decide`)."""
    decision = mutant.reuse
    ran = ran or {}
    index = {name: position for position, name in enumerate(run.tests)}
    names = [run.tests[position] for position in mutant.selected]
    joined = decision.joined(names, {run.tests[position]: outcome for position, outcome in ran.items()})
    mutant.outcomes = {index[name]: outcome for name, outcome in joined.items()}
    for name, kept in decision.reused.items():
        mutant.durations.setdefault(index[name], kept.duration)
        if kept.witness and name in joined and joined[name] == kept.outcome:
            mutant.witnesses.setdefault(index[name], kept.witness)
    if not ran and mutant.path == "none":
        mutant.path = "swap"  # only outcomes of the swap path are kept


def _record_mutant(run: EngineRun, event: MutantRan) -> MutantRun:
    mutant = run.mutants[event.id]
    mutant.path = event.path
    mutant.fallback = event.fallback
    mutant.durations = event.durations
    mutant.witnesses = event.witnesses
    mutant.timed_out = event.timed_out
    mutant.broken = event.broken
    mutant.seconds = event.seconds
    mutant.keepable, mutant.code_watched = event.keepable, event.code_watched
    mutant.seen = {index: Seen.from_json(seen) for index, seen in event.seen.items()}
    mutant.fixtures = {name: Seen.from_json(seen) for name, seen in event.fixtures.items()}
    mutant.confirmed = event.confirmed
    mutant.in_order = event.in_order
    mutant.in_order_seen = {index: Seen.from_json(seen) for index, seen in event.in_order_seen.items()}
    if mutant.reuse is not None:
        _join_reused(run, mutant, event.outcomes)
    else:
        mutant.outcomes = event.outcomes
    return mutant


def _observed(run: EngineRun, applied: list["AppliedMutant"], places: Places, head: str | None) -> Observed:
    """What reuse keeps of the run (see `reuse.keep`)."""
    tests = run.tests
    mutants = []
    for one in applied:
        mutant = run.mutants.get(one.mutant.id)
        if mutant is None:
            continue
        reused = set(mutant.reuse.reused) if mutant.reuse else set()
        ran = {tests[i]: outcome for i, outcome in mutant.outcomes.items() if tests[i] not in reused}
        mutants.append(
            ObservedMutant(
                id=mutant.id,
                edit=_edit(one),
                head=head,
                scope=f"{one.mutant.file}::{one.scope_qualname}",
                mutated_names=names_of(one.replacement),
                decision=mutant.reuse,
                keepable=mutant.keepable and not mutant.timed_out and not mutant.broken,
                code_watched=mutant.code_watched,
                outcomes=ran,
                durations={tests[i]: seconds for i, seconds in mutant.durations.items()},
                witnesses={tests[i]: text for i, text in mutant.witnesses.items()},
                seen={tests[i]: seen for i, seen in mutant.seen.items()},
                fixtures=mutant.fixtures,
                not_kept={tests[i] for i in mutant.confirmed},
                in_order=[tests[i] for i in mutant.in_order],
                in_order_seen={tests[i]: seen for i, seen in mutant.in_order_seen.items()},
            )
        )
    return Observed(
        places=places,
        collection=run.collection_seen,
        collection_code_watched=run.collection_code_watched,
        module_names=run.module_names,
        loaded=run.loaded,
        baseline={tests[i]: seen for i, seen in enumerate(run.seen) if seen is not None},
        baseline_fixtures=run.fixtures_seen,
        not_kept={tests[i] for i in run.in_subprocesses | run.order_dependent},
        mutants=mutants,
        order_dependent={tests[i] for i in run.order_dependent},
        sharing={tests[i]: group for i, group in run.sharing.items()},
    )


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
            reusing = _converse(host, read_fd, run, config, prepared, options, on_progress, host_started, scratch)
            if reusing is not None:
                places = Places(str(scratch.resolve()), str(Path(directory).resolve()))
                observed = _observed(run, prepared.mutants, places, options.reuse.head)
                run.kept, run.kept_whole = reusing.keep(observed)
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
                run.module_names, run.loaded = event.module_names or {}, event.loaded or []
                run.collection_code_watched = event.code_watched
                run.notes = event.notes
                collected_at = event.collected
                run.timings["host_start"] = event.collection_started - host_started
                run.timings["collection"] = collected_at - event.collection_started
                on_progress("collected", len(run.tests))
                for note in run.notes:
                    on_progress("note", note)
                for path, elsewhere in (event.elsewhere or {}).items():
                    on_progress("elsewhere", (path, elsewhere))
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
                    run.lines = [
                        {path: set(ran) for path, ran in result.get("lines", {}).items()} for result in results
                    ]
                    run.started = [set(result.get("covered", ())) for result in results]
                    run.seen = [Seen.from_json(result["seen"]) if "seen" in result else None for result in results]
                    run.fixtures_seen = {name: Seen.from_json(seen) for name, seen in (event.fixtures or {}).items()}
                    run.collection_seen = Seen.from_json(event.collection or {})
                    run.in_subprocesses = {
                        index
                        for index, result in enumerate(results)
                        if result.get("subprocess") or result.get("forked")
                    }
                    run.sharing = {
                        index: result["sharing"] for index, result in enumerate(results) if "sharing" in result
                    }
                on_progress("baseline", event.round)
                if event.round == options.baseline_rounds:
                    planned_at = time.monotonic()
                    run.timings["baseline"] = event.at - collected_at
                    planned, sources = [], {}
                    if baseline_passed(run):
                        if options.reuse is not None:
                            reusing = Reusing(options.reuse, config.root, run.copy.taken, run.module_names, run.tests)
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
