"""Every reuse decision: test by test under each mutant, whether its stored outcome stands today (and
if not, which evidence changed), and whether a stored whole run stands whole.

A stored outcome stands when the run's key is the same, the mutant's edit is the same, and every
label of its evidence has today the value it had (see `today`), a function's code also referring to
no name whose module-level binding changed (see `project_code`); and when today's time limit under
the mutant would not change how it ended: a test that ended took less than that limit, one stopped at
its limit was charged at least that much before it was stopped. A test with no stored outcome (new,
or not kept) runs. When one
that only a run in the suite's order settled runs again, every test of the mutant runs with it, as
in a fresh run: alone, it would fail before the mutated code starts.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from mutcheck.core.outcome import DETECTING, NOT_RUN, TIMEOUT
from mutcheck.core.reuse_words import IN_ORDER, KEY, MUTANT, NAME, NOT_STORED, TIME_LIMIT
from mutcheck.host.text_names import ANY_NAME
from mutcheck.reuse.labels import CODE, EFFECTS, REACH, REACH_FROM_MODULES, TEXT, kind_of
from mutcheck.reuse.module_code import ANYWHERE
from mutcheck.reuse.store import Store, TestOutcome
from mutcheck.reuse.today import Today


@dataclass(frozen=True)
class MutantDecision:
    """Test by test, what the store said of one mutant."""

    source: str | None  # the commit of the run whose outcomes were compared
    reused: dict[str, TestOutcome]  # by test id: the stored outcomes taken
    reasons: dict[str, list[str]]  # by test id: why each other test runs again
    bail: bool = False
    in_order: frozenset[str] = frozenset()  # of the stored tests, those only a run in the suite's order settled

    @property
    def to_run(self) -> list[str]:
        return list(self.reasons)

    def joined(self, selected: list[str], ran: Mapping[str, str]) -> dict[str, str]:
        """The outcome of every selected test (in the suite's order): run now, or reused; under
        `--bail`, every test after the first that detects the mutant was not run, as in a run of all."""
        outcomes = {}
        stopped = False
        for test in selected:
            if stopped:
                outcomes[test] = NOT_RUN
                continue
            outcome = ran.get(test) or (self.reused[test].outcome if test in self.reused else NOT_RUN)
            outcomes[test] = outcome
            stopped = self.bail and outcome in DETECTING
        return outcomes


@dataclass
class Decider:
    """The decisions of one run against one store, each label's change worked out once."""

    store: Store
    today: Today
    key: dict[str, str]
    bail: bool = False
    _changed: dict[int, list[str]] = field(default_factory=dict)  # label index -> its change, [] for none
    _own: dict[int, list[str]] = field(default_factory=dict)  # label index -> its change by itself (see `own_change`)
    _sets: dict[int, list[str]] = field(default_factory=dict)

    def key_changes(self) -> list[str]:
        return [
            KEY + part
            for part in sorted(self.key.keys() | self.store.key.keys())
            if self.key.get(part) != self.store.key.get(part)
        ]

    def label_change(self, index: int) -> list[str]:
        """The label's change: its own (see `own_change`), or else through the module-level bindings
        its code refers to."""
        if index not in self._changed:
            text = self.store.labels[index][0]
            kind, name = kind_of(text)
            code = self.today.code
            own = self.own_change(index)
            if own or kind not in (CODE, EFFECTS, TEXT):
                self._changed[index] = own
            elif kind == CODE:
                path, _, qualname = name.partition("::")
                self._changed[index] = self._names_changed(path, qualname)
            elif kind == EFFECTS:  # its own bytes did not change it (`own`): what its statements refer to
                self._changed[index] = [text] if code.effects_reach_changed(name) else []
            else:  # a name code run from text spelled: any module's binding of it
                references = {ANYWHERE} if name == ANY_NAME else {"." + name}
                self._changed[index] = [NAME + found for found in code.hits(references, "")]
        return self._changed[index]

    def _names_changed(self, path: str, qualname: str) -> list[str]:
        """For an unchanged function or class body: the changed module-level bindings its code refers
        to. What a class's body binds it does not refer to: a new or changed member counts in the
        code that reads it (`Class.member`, `self.member`: `.member`), and in the class's own name,
        which every use of the class refers to. Not so for a class pytest may collect (one of a test
        module or a conftest, or named `Test…`): pytest reads its members itself (`pytestmark`, …)."""
        code = self.today.code
        if not code.changed_names:
            return []
        names = code.spelled(path, qualname)
        if path not in self._suite and not qualname.rpartition(".")[2].startswith("Test"):
            names -= code.members(path, qualname)
        return [NAME + found for found in code.hits(names, path)]

    @cached_property
    def _suite(self) -> frozenset[str]:
        """The files of the stored run's tests, and its conftests."""
        files = {test.partition("::")[0] for entry in self.store.mutants.values() for test in entry.tests}
        if self.store.whole is not None:
            files |= {test.partition("::")[0] for test in self.store.whole.results.get("tests", ())}
        return frozenset(files | {path for path in self.store.sources if os.path.basename(path) == "conftest.py"})

    def own_change(self, index: int) -> list[str]:
        """The label's change that its own file or value shows, no other module's bindings looked at
        (those take every module's code worked out: see `project_code.changed_names`); [] for none
        such, though `label_change` may still find one. A set's code where it was not watched counts
        as a whole (see `set_change`)."""
        if index not in self._own:
            text, value = self.store.labels[index]
            kind, name = kind_of(text)
            code = self.today.code
            if kind == CODE:
                path, _, qualname = name.partition("::")
                self._own[index] = [text] if code.code_changed(path, qualname, value) else []
            elif kind == EFFECTS:
                self._own[index] = [text] if code.effects_changed_itself(name, value) else []
            elif kind in (TEXT, REACH, REACH_FROM_MODULES):
                self._own[index] = []
            else:
                self._own[index] = [text] if self.today.value(text) != value else []
        return self._own[index]

    def set_change(self, index: int) -> list[str]:
        """What changed of what the set's outcomes stood on ([] for nothing). Where a label's own file
        or value changed, that is the answer: the set's outcomes run again whatever else changed."""
        if index not in self._sets:
            labels = self.store.sets[index]
            found = {change for label in labels for change in self.own_change(label)}
            if not found:
                found = {change for label in labels for change in self.label_change(label)}
            if not found:
                found.update(self._reach_change([self.store.labels[label][0] for label in labels]))
            self._sets[index] = sorted(found)
        return self._sets[index]

    def _reach_change(self, texts: list[str]) -> list[str]:
        """Where the set's code was not watched: the changes its code reaches by name (see `project_code`)."""
        code = self.today.code
        if not code.reaching_changes:  # nothing changed that any code reaches: no need to look
            return []
        marks = [kind_of(text) for text in texts if kind_of(text)[0] in (REACH, REACH_FROM_MODULES)]
        if not marks:
            return []
        names = {name for kind, words in marks if kind == REACH for name in words.split()}
        if any(kind == REACH_FROM_MODULES for kind, _ in marks):
            names |= code.module_level_names
        ran = [kind_of(text)[1] for text in texts if kind_of(text)[0] == CODE]
        return [NAME + name for name in code.reach_changed(ran, names)]

    def common_change(self) -> list[str]:
        """What every stored outcome stands on: the key, and what collecting read."""
        changes = self.key_changes()
        if not changes and self.store.collection is not None:
            changes = self.set_change(self.store.collection)
        return changes or self.today.code.appeared()

    def mutant(self, mutant: str, edit: str, selected: list[str], limits: Mapping[str, float]) -> MutantDecision:
        """`selected`: the tests reaching the mutant today, in the suite's order; `limits`: each one's time limit."""
        entry = self.store.mutants.get(mutant)
        common = self.common_change()
        if entry is None or common or entry.edit != edit:
            why = [NOT_STORED] if entry is None else common or [MUTANT]
            return MutantDecision(entry.head if entry else None, {}, dict.fromkeys(selected, why), self.bail)
        reused, reasons = {}, {}
        for test in selected:
            kept = entry.tests.get(test)
            if kept is None:
                reasons[test] = [NOT_STORED]
            elif changes := self.set_change(kept.evidence):
                reasons[test] = changes
            elif past_the_limit(kept, limits[test]):
                reasons[test] = [TIME_LIMIT]
            else:
                reused[test] = kept
        if reused and entry.in_order & reasons.keys():
            reasons = {test: reasons.get(test, [IN_ORDER]) for test in selected}
            reused = {}
        if self.bail:
            reasons = _before_a_reused_kill(selected, reused, reasons)
        return MutantDecision(entry.head, reused, reasons, self.bail, entry.in_order)

    def whole(self, request: str) -> list[str]:
        """Why the stored whole run does not stand today ([] when it does)."""
        whole = self.store.whole
        if whole is None:
            return [NOT_STORED]
        if whole.request != request:
            return ["request"]
        if changes := self.common_change():
            return changes
        for index in range(len(self.store.sets)):
            if changes := self.set_change(index):
                return changes
        # every outcome stands; a name bound anew in a test module or a conftest may be a test (or a
        # fixture) collecting would find: only a run can say which tests there are
        code = self.today.code
        suite = {code.module_name(path) for path in self._suite}
        return [NAME + name for name in sorted(code.changed_names) if name.rpartition(":")[0] in suite]


def past_the_limit(kept: TestOutcome, limit: float) -> bool:
    """Whether a run today would end otherwise than the stored one by today's limit alone: an outcome
    that took the limit or longer, or a time-out stopped before the test had been charged it (a
    longer limit might have let it finish)."""
    return kept.duration < limit if kept.outcome == TIMEOUT else kept.duration >= limit


def _before_a_reused_kill(
    selected: list[str], reused: dict[str, TestOutcome], reasons: dict[str, list[str]]
) -> dict[str, list[str]]:
    """Under `--bail`, a run of all stops at the first test that detects the mutant: the tests after
    a reused detection need not run."""
    kept = {}
    for test in selected:
        if test in reused and reused[test].outcome in DETECTING:
            break
        if test in reasons:
            kept[test] = reasons[test]
    return kept
