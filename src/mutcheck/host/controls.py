"""Control runs: a failure under a mutant is a kill only if the same tests, in the same order, pass
unmutated. Which runs each finished mutant needs, which to queue, and when its answers are all in."""

from mutcheck.core.outcome import DETECTING, ORDER_DEPENDENT, PASSED, SKIPPED
from mutcheck.host.children import Child

Sequence = tuple[int, ...]  # tests, in the order they ran


def needs(child: Child) -> list[Sequence]:
    """Per process of the mutant, the tests it ran up to its last failing one and the test
    after that (which decides what the failing one's teardown finalizes)."""
    found = []
    for sequence in child.sequences:
        failing = [position for position, index in enumerate(sequence) if child.outcomes.get(index) in DETECTING]
        if failing:
            found.append(tuple(sequence[: failing[-1] + 2]))
    return found


class Controls:
    """The control runs finished and queued, and the finished mutants waiting for theirs."""

    def __init__(self) -> None:
        self.finished: dict[Sequence, dict[int, str]] = {}  # unmutated runs' outcomes, by their order
        self.queue: list[Sequence] = []
        self.waiting: list[Child] = []  # finished mutants whose controls are not all in
        self.runs = self.tests = 0

    def outcomes_for(self, sequence: Sequence) -> dict[int, str] | None:
        """The outcomes of a control run that began with `sequence` (tests after it cannot change
        how the ones before its last ran), if one has finished."""
        return next((outcomes for key, outcomes in self.finished.items() if key[: len(sequence)] == sequence), None)

    def release(self, running: list[Sequence], unfinished: list[list[int]]) -> list[Child]:
        """The waiting mutants whose controls are all in, with the failures that the control shares
        made order-dependent; queue the controls still missing. `running` are the control runs under
        way, `unfinished` the selections of the mutants yet to run or running.

        A missing control waits while a mutant yet to run, or running, could need a longer one
        that starts the same way (mutants of one function share their selection): one run then
        answers them all. Once every mutant has finished, nothing waits."""
        wanted = {need for child in self.waiting for need in needs(child)}
        missing = {need for need in wanted if self.outcomes_for(need) is None}
        covered = running + self.queue
        for need in sorted(missing, key=len, reverse=True):  # the longest first: they cover the rest
            if any(tuple(sequence[: len(need)]) == need for sequence in [*covered, *unfinished]):
                continue
            self.queue.append(need)
            covered.append(need)
        released = []
        for child in list(self.waiting):
            if any(self.outcomes_for(need) is None for need in needs(child)):
                continue
            self.waiting.remove(child)
            for need in needs(child):
                control = self.outcomes_for(need)
                for index in need:
                    if child.outcomes.get(index) in DETECTING and control.get(index, PASSED) not in (PASSED, SKIPPED):
                        child.outcomes[index] = ORDER_DEPENDENT
                        child.witnesses.pop(index, None)
            released.append(child)
        return released
