"""Where the engine meets the reuse store: a mutant's stored outcomes taken in place of a run when
its evidence is unchanged, the killers of one that runs again tried first, and what the run keeps
for the next one. Digests are of the scratch copy: the files the tests ran."""

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mutcheck.catalog.config import Config
from mutcheck.host.timeouts import test_limit
from mutcheck.reuse.decide import Decision, Reuser, killers_first
from mutcheck.reuse.evidence import Evidence, data_files, file_digests, input_files
from mutcheck.reuse.store import REUSABLE, Entry, Store

if TYPE_CHECKING:
    from mutcheck.engine.engine import EngineOptions, EngineRun, MutantRun
    from mutcheck.mutation.mutate import AppliedMutant


@dataclass(frozen=True)
class ReuseRequest:
    store: Store | None  # None: --fresh, nothing reused (what the run keeps is still made)
    head: str | None  # the commit the run is made at, named by what it keeps


@dataclass
class Kept:
    """What a run leaves for the next: its environment's evidence and each mutant's entry."""

    environment: dict[str, str] = field(default_factory=dict)
    mutants: dict[str, Entry] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # every file the run stood on, whole (see `input_files`)


def _edit(applied: "AppliedMutant") -> str:
    start, end = applied.edited_range()
    parts = [applied.mutant.file, applied.scope_qualname, applied.original[start:end], applied.replacement]
    return "\0".join([*parts, str(applied.swap_target)])


class Reusing:
    def __init__(
        self,
        request: ReuseRequest,
        scratch: Path,
        config: Config,
        options: "EngineOptions",
        run: "EngineRun",
        target_files: list[str],
    ) -> None:
        self.request = request
        self.tests = run.tests
        self.test_files = run.test_files
        self.evidence = Evidence(scratch, target_files, run.test_files, run.modules, run.import_elsewhere)
        settings = {
            "pytest_args": config.pytest_args,
            "tests": config.tests,
            "target": config.target,
            "timeout_factor": options.timeout_factor,
            "timeout_constant": options.timeout_constant,
            "baseline_rounds": options.baseline_rounds,
            "bail": options.bail,
        }
        self.environment = self.evidence.environment(settings, data_files(scratch, config.tests))
        store = request.store
        self.reuser = Reuser(store, self.evidence, self.environment) if store is not None else None
        self.options = options
        self.decisions: dict[str, Decision] = {}
        catalog = str(config.catalog_dir.relative_to(config.root))
        self.files = file_digests(scratch, input_files(scratch, config.tests, config.target, catalog, run.modules))

    def consider(self, mutant: "MutantRun", applied: "AppliedMutant", durations: list[float]) -> list[int]:
        """Take the mutant's stored outcomes if they stand (then nothing is left to run: []), or
        the tests to run, in the order to run them."""
        if self.reuser is None:
            return mutant.selected
        names = [self.tests[index] for index in mutant.selected]
        limits = {
            self.tests[index]: test_limit(durations[index], self.options.timeout_factor, self.options.timeout_constant)
            for index in mutant.selected
        }
        decision = self.reuser.decide(mutant.id, _edit(applied), names, limits)
        self.decisions[mutant.id] = decision
        mutant.reuse = decision.reuse
        if not decision.reuse.reused:
            return killers_first(mutant.selected, self.tests, decision.entry) if self.options.bail else mutant.selected
        entry, index = decision.entry, {name: position for position, name in enumerate(self.tests)}
        mutant.path = "swap"
        mutant.outcomes = {index[name]: outcome for name, outcome in entry.outcomes.items()}
        mutant.durations = {index[name]: seconds for name, seconds in entry.durations.items()}
        mutant.witnesses = {index[name]: text for name, text in entry.witnesses.items() if name in index}
        mutant.reached = entry.reached
        return []

    def kept(self, run: "EngineRun", applied: list["AppliedMutant"]) -> Kept:
        """Each mutant's entry for the next run: a reused one's as it was, a run one's when it ran on
        the swap path to the end, every outcome plain (no time-out, no order-dependence), none of its
        tests running target code in a subprocess."""
        kept = Kept(self.environment, files=self.files)
        for one in applied:
            mutant = run.mutants.get(one.mutant.id)
            if mutant is None:
                continue
            if mutant.reuse is not None and mutant.reuse.reused:
                kept.mutants[mutant.id] = self.decisions[mutant.id].entry
                continue
            selected = set(mutant.selected)
            plain = set(mutant.outcomes.values()) <= REUSABLE and not run.order_dependent & selected
            # what a test's subprocesses ran under the mutant is not watched
            if not mutant.keepable or not selected or not plain or run.in_subprocesses & selected:
                continue
            names = [self.tests[index] for index in mutant.selected]
            files = {self.test_files[index] for index in mutant.selected} if self.test_files else set()
            functions = None
            if mutant.reached is not None:  # and what its tests ran unmutated, which the edit may have skipped
                functions = {*mutant.reached, one.scope_qualname, *(n for i in selected for n in run.coverage[i])}
            evidence = self.evidence.mutant(_edit(one), names, files, functions)
            kept.mutants[mutant.id] = Entry(
                self.request.head,
                evidence,
                {self.tests[index]: outcome for index, outcome in mutant.outcomes.items()},
                {self.tests[index]: mutant.durations.get(index, 0.0) for index in mutant.outcomes},
                {self.tests[index]: text for index, text in mutant.witnesses.items()},
                None if mutant.reached is None else sorted(mutant.reached),
            )
        return kept


def merged(stored: Store, kept: Kept, ran: set[str]) -> Store:
    """The store after a run: the run's entries, and the earlier ones of mutants it did not run
    (a `--only`, `--shard` or `--diff` run adds to the store), unless the environment changed."""
    earlier = stored.mutants if stored.environment == kept.environment else {}
    mutants = {key: entry for key, entry in earlier.items() if key not in ran}
    return Store(kept.environment, mutants | kept.mutants)
