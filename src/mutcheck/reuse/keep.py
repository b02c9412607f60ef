"""What a run keeps for the next: each test's outcome under each mutant with the evidence it stood on
(what collecting read, what the test and the fixtures it uses were seen to depend on unmutated and
under the mutant, and, where the code was not watched, a mark that the code reachable by name from
what they ran counts: see `project_code`), and the project's modules' bytes.

An outcome is not kept when what it stood on cannot be told again: a test that started a
subprocess or used the network, one that read what another test or fixture wrote during the run, a
time-out, an order-dependent failure, or a mutant run on the fallback path.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from mutcheck.host.wire import Seen
from mutcheck.reuse.decide import MutantDecision
from mutcheck.reuse.labels import CODE, EFFECTS, REACH, REACH_FROM_MODULES, Labelled, Places, imported, label, labelled
from mutcheck.reuse.store import REUSABLE, Builder, MutantOutcomes, Store, TestOutcome
from mutcheck.reuse.today import Today, file_status


@dataclass
class ObservedMutant:
    """One mutant's run, as the engine saw it."""

    id: str
    edit: str  # see `edit_of`
    head: str | None
    scope: str  # "PATH::QUALNAME" of the mutated function
    mutated_names: frozenset[str]  # the names the mutated function's code refers to under the mutant
    decision: MutantDecision | None  # what the store said (None: nothing asked)
    keepable: bool  # its tests ran on the swap path once, to the end
    code_watched: bool  # the code its tests ran was watched (see `host.watch`)
    outcomes: dict[str, str] = field(default_factory=dict)  # by test id: the tests run now
    durations: dict[str, float] = field(default_factory=dict)
    witnesses: dict[str, str] = field(default_factory=dict)
    seen: dict[str, Seen] = field(default_factory=dict)  # by test id: beyond what it showed unmutated
    fixtures: dict[str, Seen] = field(default_factory=dict)
    not_kept: set[str] = field(default_factory=set)  # its tests whose outcomes a run in the suite's order settled


@dataclass
class Observed:
    """A run's observations, as reuse keeps them (see `host.watch`)."""

    places: Places
    collection: Seen
    collection_code_watched: bool
    module_names: dict[str, str]  # the project's module files, and their module names
    loaded: list[str]
    baseline: dict[str, Seen]  # by test id
    baseline_fixtures: dict[str, Seen]
    not_kept: set[str]  # tests whose outcomes are never kept (ran target code in a subprocess, order-dependent)
    mutants: list[ObservedMutant]
    order_dependent: set[str] = field(default_factory=set)  # of `not_kept`: failed in the baseline only as split


class Keeper:
    def __init__(self, observed: Observed, today: Today) -> None:
        self.observed = observed
        self.today = today
        # the project's Python files loaded as modules: by collecting, or first by a test
        self.module_names = dict(observed.module_names)
        for seen in [observed.collection, *observed.baseline.values()]:
            self.module_names |= imported(seen, observed.places)
        self.modules = set(self.module_names)
        self._labelled: dict[int, Labelled] = {}
        self.written = self._written()

    def _of(self, seen: Seen) -> Labelled:
        key = id(seen)
        if key not in self._labelled:
            self._labelled[key] = labelled(seen, self.observed.places, self.modules)
        return self._labelled[key]

    def _written(self) -> set[str]:
        """What the run wrote, by place: every sink's writes, and the copy's files changed since it was taken."""
        observed = self.observed
        seens = [observed.collection, *observed.baseline.values(), *observed.baseline_fixtures.values()]
        seens += [seen for mutant in observed.mutants for seen in [*mutant.seen.values(), *mutant.fixtures.values()]]
        return {place for seen in seens for place in self._of(seen).writes}

    def _changed_in_copy(self, place: str) -> bool:
        """A project file the copy holds otherwise than it took it (made, or changed, by the run)."""
        if place.startswith("/") or place in self.today.files.children:  # a folder's writes are in `written`
            return False
        copy = file_status(f"{self.observed.places.project}/{place}")
        if place not in self.today.files.copied:
            return copy is not None and not self.today.files.taken(place)
        status = self.today.files.copied[place]
        return status is not None and (copy is None or copy[2:4] != status[2:4])

    def evidence(self, parts: Iterable[Seen], fixtures: list[dict[str, Seen]]) -> tuple[set[str], bool]:
        """The labels of the sinks given and of the fixtures they use (each fixture's setups, from
        every table of `fixtures` that has it), and whether they can be kept."""
        labels: set[str] = set()
        keepable = True
        pending = list(parts)
        fixtures_done: set[str] = set()
        while pending:
            found = self._of(pending.pop())
            labels |= found.labels
            if found.unfollowed or any(place in self.written or self._changed_in_copy(place) for place in found.reads):
                keepable = False
            for name in found.fixtures - fixtures_done:
                fixtures_done.add(name)
                pending += [seens[name] for seens in fixtures if name in seens]
        return labels, keepable

    def _values(self, labels: Iterable[str]) -> list[tuple[str, str]]:
        return [(text, self.today.value(text)) for text in labels]

    def _collection(self) -> set[str]:
        labels = set(self._of(self.observed.collection).labels)
        labels |= {label(EFFECTS, path) for path in self.observed.module_names}
        if not self.observed.collection_code_watched:  # what ran at import: reachable from module-level code
            labels.add(REACH_FROM_MODULES)
        return labels

    def keep(self, store: Store, key: dict[str, str], reused_from: Store | None) -> tuple[Store, bool]:
        """The new store (its key, labels, modules and outcomes; its whole run left to the caller),
        and whether the run was kept whole: every test's outcome under every mutant, and the baseline."""
        observed = self.observed
        store.key, store.loaded = key, list(observed.loaded)
        code = self.today.code
        store.sources = {path: source for path in sorted(self.modules) if (source := code.source(path)) is not None}
        store.modules = {path: self.module_names[path] for path in store.sources}
        builder = Builder(store)
        store.collection = builder.evidence(self._values(self._collection()))
        whole = True
        base: dict[str, tuple[set[str], bool]] = {}
        for test, seen in observed.baseline.items():
            base[test] = self.evidence([seen], [observed.baseline_fixtures])
            whole = whole and base[test][1] and test not in observed.not_kept
        every = set().union(*(labels for labels, _ in base.values())) if base else set()
        builder.evidence(self._values(every))  # the baseline's, for a whole run
        layout = set().union(*(found.layout for found in self._labelled.values()))
        builder.evidence(self._values(layout))  # which tests there are, for a whole run
        for mutant in observed.mutants:
            tests: dict[str, TestOutcome] = {}
            decision = mutant.decision
            if decision is not None and reused_from is not None:
                for test, kept in decision.reused.items():
                    evidence = builder.evidence(reused_from.evidence(kept.evidence))
                    tests[test] = TestOutcome(kept.outcome, kept.duration, kept.witness, evidence)
            # where its tests' code was not watched: what the mutated code and theirs reach by name counts
            reach = set() if mutant.code_watched else {label(REACH, " ".join(sorted(mutant.mutated_names)))}
            reach |= set() if mutant.code_watched else {label(CODE, mutant.scope)}
            fixtures = [mutant.fixtures, observed.baseline_fixtures]
            for test, outcome in mutant.outcomes.items():
                labels, keepable = base.get(test, (set(), False))
                kept = test not in observed.not_kept and test not in mutant.not_kept
                if mutant.keepable and outcome in REUSABLE and keepable and kept:
                    more, keepable = self.evidence([mutant.seen[test]] if test in mutant.seen else [], fixtures)
                    if keepable:
                        labels = labels | more | reach
                        evidence = builder.evidence(self._values(labels))
                        witness = mutant.witnesses.get(test)
                        tests[test] = TestOutcome(outcome, round(mutant.durations.get(test, 0.0), 4), witness, evidence)
                        continue
                whole = False
            if tests:
                in_order = (mutant.not_kept | observed.order_dependent) & mutant.outcomes.keys()
                store.mutants[mutant.id] = MutantOutcomes(mutant.edit, mutant.head, tests, frozenset(in_order))
        return store, whole
