"""The run's progress on the terminal: a bar on a terminal, one plain line per step in logs, in
the run's first language."""

import time
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.console import Console

from mutcheck.core.escape import visible
from mutcheck.core.texts import say

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress


def tally(
    outcomes: Iterable[str], selected: int, lang: str, broken: str | None = None, lines_unrun: bool = False
) -> str:
    """`killed by 3 of 9 tests, 1 timed out`: every outcome that detected the mutant, and the
    order-dependent; or that it is broken, or that no test reached it (`lines_unrun`: its function,
    but not its lines)."""
    if broken:
        return say(lang, "progress", "broken", reason=broken)
    counts = Counter(outcome if outcome != "error" else "failed" for outcome in outcomes)
    detected = counts["failed"] + counts["timeout"]
    key = "failed" if detected else "none_failed" if selected else "unreached"
    text = say(lang, "progress", key, count=detected, selected=selected)
    if lines_unrun and not detected and selected:
        text += say(lang, "progress", "lines_unrun")
    for outcome in ("timeout", "order-dependent"):
        if counts[outcome]:
            text += say(lang, "progress", outcome, count=counts[outcome])
    return text


class Progress:
    """Called by the engine with each step (`reverting` or `applying`: how many of how many hunks or
    proposals are done; `collected`, `note`, `elsewhere`, `baseline`, `planned`, `mutant`)."""

    def __init__(self, console: Console, rounds: int, lang: str) -> None:
        self.console = console
        self.rounds = rounds
        self.lang = lang
        self.total = 0
        self.done = 0
        self.bar: RichProgress | None = None
        self.task: Any = None
        self.preparing_since = 0.0

    def __call__(self, kind: str, data: Any) -> None:
        if kind in ("reverting", "applying"):
            self._preparing(kind, *data)
        elif kind == "collected":
            self._say(say(self.lang, "progress", "collected", count=data))
        elif kind == "note":  # what the host changed of the project's pytest options
            self._say(say(self.lang, "progress", data))
        elif kind == "elsewhere":  # a target file whose module the tests import from another file
            path, elsewhere = data
            self._say(
                say(self.lang, "progress", "imported_elsewhere", path=visible(path), elsewhere=visible(elsewhere))
            )
        elif kind == "baseline":
            self._say(say(self.lang, "progress", "baseline", round=data, rounds=self.rounds))
        elif kind == "planned":
            self.total = data
            self._say(say(self.lang, "progress", "planned", count=data))
            self._start_bar("mutants", data)
        elif kind == "mutant":
            self.done += 1
            if self.bar is not None:
                self.bar.update(self.task, advance=1, description=data.id)
                if self.done == self.total:
                    self.stop()
            else:
                unrun = data.line_reach is not None and not data.line_reach.tests
                counts = tally(data.outcomes.values(), len(data.selected), self.lang, data.broken, unrun)
                self._say(f"[{self.done}/{self.total}] {data.id}: {counts}")

    def _preparing(self, kind: str, done: int, total: int) -> None:
        """Hunks reverted or proposals applied before the run: a bar on a terminal, a line at the
        start and at the end in logs (it may take a while, and nothing else is said meanwhile)."""
        if total == 0:
            return
        if done == 0:
            self.preparing_since = time.monotonic()
            self._say(say(self.lang, "progress", kind, count=total))
            self._start_bar(say(self.lang, "progress", f"{kind}_bar"), total)
        elif self.bar is not None:
            self.bar.update(self.task, completed=done)
        if done == total:
            self.stop()
            seconds = f"{time.monotonic() - self.preparing_since:.1f}"
            self._say(say(self.lang, "progress", f"{kind}_done", count=total, seconds=seconds))

    def _start_bar(self, description: str, total: int) -> None:
        if self.console.is_terminal and total:
            from rich.progress import MofNCompleteColumn
            from rich.progress import Progress as RichProgress

            self.bar = RichProgress(*RichProgress.get_default_columns(), MofNCompleteColumn(), console=self.console)
            self.bar.start()
            self.task = self.bar.add_task(description, total=total)

    def stop(self) -> None:
        """End the bar (also when the run ends early), so later output is not drawn under it."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def _say(self, text: str) -> None:
        if self.bar is None:
            self.console.print(visible(text), markup=False, highlight=False)
