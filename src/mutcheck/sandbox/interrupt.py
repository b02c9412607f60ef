"""SIGINT and SIGTERM in the mutcheck process: raised as `Interrupted` wherever the process is, so
that every `finally` on the way out cleans up, and turned into one line and exit 130 or 143.

Cleanup itself must not be cut short: inside `deferred()` a signal is held until the block ends,
and once one has been raised the others are ignored.
"""

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from mutcheck.core.exit_code import ExitCode

_EXIT_CODES = {signal.SIGINT: ExitCode.INTERRUPTED, signal.SIGTERM: ExitCode.TERMINATED}


class Interrupted(BaseException):
    """A BaseException, so that no `except Exception` on the way out swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class _State:
    received: int | None = None  # the first signal
    raised = False
    deferring = 0  # nested `deferred()` blocks under way


def _on_signal(signum: int, _frame: object) -> None:
    if _State.received is not None:
        return  # the first one is being handled: cleanup is under way
    _State.received = signum
    if not _State.deferring:
        _State.raised = True
        raise Interrupted(signum)


def interruption_in(error: BaseException) -> Interrupted | None:
    """The `Interrupted` an exception carries: Python wraps one raised while a class is being made
    (in `__set_name__`, e.g. a signal landing as a library is imported) in a RuntimeError."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, Interrupted):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


@contextmanager
def deferred() -> Iterator[None]:
    """A block that a signal does not interrupt: it is raised when the block ends."""
    _State.deferring += 1
    try:
        yield
    finally:
        _State.deferring -= 1
    if _State.received is not None and not _State.raised and not _State.deferring:
        _State.raised = True
        raise Interrupted(_State.received)


@contextmanager
def handled() -> Iterator[None]:
    """Catch SIGINT and SIGTERM from here on; an interruption in the block (or a KeyboardInterrupt)
    ends the process with one line and its exit code."""
    for signum in _EXIT_CODES:
        signal.signal(signum, _on_signal)
    try:
        yield
    except (Interrupted, KeyboardInterrupt) as error:
        signum = error.signum if isinstance(error, Interrupted) else signal.SIGINT
        print(f"interrupted ({signal.Signals(signum).name}): scratch folders removed", file=sys.stderr)
        sys.exit(_EXIT_CODES[signum])
