"""Mutant by mutant, whether the store's outcomes stand today, and if not, which evidence changed."""

from dataclasses import dataclass

from mutcheck.core.outcome import DETECTING
from mutcheck.reuse.evidence import Evidence, changed
from mutcheck.reuse.store import REUSABLE, Entry, Store

NOT_STORED = "not-stored"  # no outcomes of this mutant are kept (a first run, or one that could not be kept)
TIME_LIMIT = "time-limit"  # a test took longer under the mutant than today's limit allows


@dataclass(frozen=True)
class Reuse:
    """What the store said of one mutant: reused, or run again because of `changed`."""

    reused: bool
    source: str | None  # the commit of the run whose outcomes were compared
    changed: list[str]


@dataclass(frozen=True)
class Decision:
    reuse: Reuse
    entry: Entry | None  # the stored outcomes: reused, or tried first (its killers) when run again


class Reuser:
    def __init__(self, store: Store, evidence: Evidence, environment: dict[str, str]) -> None:
        self.store = store
        self.evidence = evidence
        self.environment = environment
        # Entries made under another environment all run again, for the same reason.
        self.environment_changed = changed(store.environment, environment) if store.mutants else []

    def decide(self, mutant_id: str, edit: str, tests: list[str], limits: dict[str, float]) -> Decision:
        """`tests`: the node ids reaching the mutant today; `limits`: each one's time limit today."""
        entry = self.store.mutants.get(mutant_id)
        if entry is None:
            return Decision(Reuse(False, None, [NOT_STORED]), None)
        reasons = list(self.environment_changed)
        if not reasons:
            reasons = changed(entry.evidence, self.evidence.again(entry.evidence, edit, tests))
        if not reasons and (set(entry.outcomes) != set(tests) or not set(entry.outcomes.values()) <= REUSABLE):
            reasons = ["tests"]
        if not reasons and any(entry.durations[test] >= limits[test] for test in tests):
            reasons = [TIME_LIMIT]
        return Decision(Reuse(not reasons, entry.head, reasons), entry)


def killers_first(selected: list[int], tests: list[str], entry: Entry | None) -> list[int]:
    """`selected` (test indices) with the tests that killed the mutant last time first, in their order."""
    if entry is None:
        return selected
    killed = {test for test, outcome in entry.outcomes.items() if outcome in DETECTING}
    return sorted(selected, key=lambda index: tests[index] not in killed)
