"""What a run keeps for the next: each test's outcome under each mutant with the evidence it stood on
(what collecting read, what the test and the fixtures it uses were seen to depend on unmutated and
under the mutant, and, where the code was not watched, a mark that the code reachable by name from
what they ran counts: see `project_code`), and the project's modules' bytes.

An outcome is not kept when what it stood on cannot be told again: a test that started a
subprocess or used the network, one that read what another test or fixture wrote during the run, a
test whose process had to be killed (a time-out its own process could not stop), or a test that failed in
the baseline only as the workers split it. One that only a run in
the suite's order settled under the mutant stands on that run: every test up to it, in that order
(`order:TEST`), with what each was seen to depend on there and in the mutant's own run.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from mutcheck.host.wire import Seen
from mutcheck.reuse.decide import MutantDecision
from mutcheck.reuse.labels import (
    CODE,
    EFFECTS,
    ORDER,
    REACH,
    REACH_FROM_MODULES,
    Labelled,
    Places,
    imported,
    label,
    labelled,
)
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
    in_order: list[str] = field(default_factory=list)  # that run's tests, in order (when it can be kept)
    in_order_seen: dict[str, Seen] = field(default_factory=dict)  # and what each was seen to depend on there


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
    # a test sharing a value of a project's shared fixture -> its group's name (see `host.wire.shared_reach`)
    sharing: dict[str, str] = field(default_factory=dict)


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

    def _under(
        self,
        mutant: ObservedMutant,
        sequence: list[str],
        fixtures: list[dict[str, Seen]],
        base: dict[str, tuple[set[str], bool]],
    ) -> tuple[set[str], bool] | None:
        """The labels of `sequence`'s tests under the mutant (unmutated, and what each showed beyond
        that in the mutant's run and in the run in the suite's order), and whether they can be kept;
        None when one of them has no baseline evidence."""
        if any(test not in base for test in sequence):
            return None
        labels = set().union(*(base[test][0] for test in sequence))
        keepable = all(base[test][1] for test in sequence)
        parts = [seens[test] for seens in (mutant.seen, mutant.in_order_seen) for test in sequence if test in seens]
        more, more_keepable = self.evidence(parts, fixtures)
        return labels | more, keepable and more_keepable

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
        # what collecting got from where no record follows (`random` unseeded, a subprocess, the network:
        # data a test module or a conftest takes at import) is under every outcome
        drew = bool(self._of(observed.collection).unfollowed)
        whole = not drew
        base: dict[str, tuple[set[str], bool]] = {}
        for test, seen in observed.baseline.items():
            labels, keepable = self.evidence([seen], [observed.baseline_fixtures])
            base[test] = labels, keepable and not drew
            whole = whole and base[test][1] and test not in observed.not_kept
        every = set().union(*(labels for labels, _ in base.values())) if base else set()
        builder.evidence(self._values(every))  # the baseline's, for a whole run
        layout = set().union(*(found.layout for found in self._labelled.values()))
        builder.evidence(self._values(layout))  # which tests there are, for a whole run
        groups: dict[str | None, list[str]] = {}
        for test, group in observed.sharing.items():
            groups.setdefault(group, []).append(test)
        for mutant in observed.mutants:
            tests: dict[str, TestOutcome] = {}
            decision = mutant.decision
            if decision is not None and reused_from is not None and not drew:
                for test, kept in decision.reused.items():
                    evidence = builder.evidence(reused_from.evidence(kept.evidence))
                    tests[test] = TestOutcome(kept.outcome, kept.duration, kept.witness, evidence)
            # where its tests' code was not watched: what the mutated code and theirs reach by name counts
            reach = set() if mutant.code_watched else {label(REACH, " ".join(sorted(mutant.mutated_names)))}
            reach |= set() if mutant.code_watched else {label(CODE, mutant.scope)}
            fixtures = [mutant.fixtures, observed.baseline_fixtures]
            for test, outcome in mutant.outcomes.items():
                if mutant.keepable and outcome in REUSABLE and test not in observed.not_kept:
                    if test not in mutant.not_kept:
                        # a test of a group stands on what every test of it did to the value they share
                        found = self._under(mutant, groups.get(observed.sharing.get(test), [test]), fixtures, base)
                    elif test in mutant.in_order:  # what the suite's order up to it stood on
                        found = self._under(mutant, mutant.in_order[: mutant.in_order.index(test) + 1], fixtures, base)
                        found = (found[0] | {label(ORDER, test)}, found[1]) if found else None
                    else:
                        found = None
                    if found is not None and found[1]:
                        evidence = builder.evidence(self._values(found[0] | reach))
                        witness = mutant.witnesses.get(test)
                        tests[test] = TestOutcome(outcome, round(mutant.durations.get(test, 0.0), 4), witness, evidence)
                        continue
                whole = False
            if tests:
                in_order = (mutant.not_kept | observed.order_dependent) & mutant.outcomes.keys()
                in_order |= decision.in_order & decision.reused.keys() if decision is not None else set()
                store.mutants[mutant.id] = MutantOutcomes(mutant.edit, mutant.head, tests, frozenset(in_order))
        return store, whole
