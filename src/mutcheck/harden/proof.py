"""The proof a written test must pass before it is kept: in the scratch copy, it passes on the original
code three times (a flaky test is no guard) and fails with the mutant applied, as plain pytest runs it;
then, written into the checkout, it passes there too (where it will live)."""

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

from mutcheck.harden.child_process import ChildFailed, Lab, run_child
from mutcheck.harden.wire import PYTEST, ChildSpec, PytestAnswer
from mutcheck.mutation.mutate import AppliedMutant
from mutcheck.sandbox.scratch import remove_bytecode

ORIGINAL_ROUNDS = 3
_TIMEOUT = 300.0


@contextlib.contextmanager
def mutant_in(lab: Lab, applied: AppliedMutant) -> Iterator[None]:
    """The copy's target file with the mutant's edit for the duration of the block, then the original again."""
    path = lab.project / applied.mutant.file
    original = path.read_bytes()
    path.write_text(applied.mutated, encoding=applied.encoding)
    remove_bytecode(path)
    try:
        yield
    finally:
        path.write_bytes(original)
        remove_bytecode(path)


@dataclass(frozen=True)
class _Ran:
    outcome: str | None  # None: the test did not run
    nodeid: str
    detail: str  # what went wrong: a failure's first line, or why it did not run

    def said(self) -> str:
        return f"{self.outcome} ({self.detail})" if self.outcome and self.detail else self.outcome or self.detail


def _ran(lab: Lab, test: str) -> _Ran:
    """The one test's run by plain pytest."""
    try:
        answer = run_child(lab, ChildSpec(PYTEST, [test]), PytestAnswer, _TIMEOUT)
    except ChildFailed as error:
        return _Ran(None, "", str(error))
    if len(answer.outcomes) != 1:
        return _Ran(None, "", f"pytest ran {len(answer.outcomes)} tests for it (exit status {answer.exit})")
    ((nodeid, outcome),) = answer.outcomes.items()
    return _Ran(outcome, nodeid, answer.messages.get(nodeid, ""))


def prove(lab: Lab, applied: AppliedMutant, out: str, text: str, name: str) -> tuple[str | None, str]:
    """(the test's node id, "") when the file `text`, written at `out` in the copy, holds a test
    `name` that passes on the original ORIGINAL_ROUNDS times and fails with the mutant; else
    (None, why not)."""
    path = lab.project / out
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    test = f"{out}::{name}"
    for round_ in range(1, ORIGINAL_ROUNDS + 1):
        ran = _ran(lab, test)
        if ran.outcome != "passed":
            return None, f"{name}, on the original code, run {round_} of {ORIGINAL_ROUNDS}: {ran.said()}"
    with mutant_in(lab, applied):
        with_mutant = _ran(lab, test)
    if with_mutant.outcome != "failed":
        return None, f"{name}, with the mutant: {with_mutant.said()}, not failed"
    return ran.nodeid, ""


def fails_in_checkout(lab: Lab, test: str) -> str:
    """Why the test, already written into the checkout, does not pass there on the checkout's own code
    (a value that held only in the scratch copy), or "" when it passes."""
    ran = _ran(Lab(lab.folder, lab.root, lab.root, lab.pytest_args), test)
    return "" if ran.outcome == "passed" else ran.said()
