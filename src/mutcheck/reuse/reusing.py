"""One run's reuse, as the engine meets it: asked, mutant by mutant, which tests' stored outcomes
stand today (see `decide`), and told at the end what the run observed, to keep (see `keep`).
Files inside the project are as the run's copy took them (see `today`)."""

import os
import re
from dataclasses import dataclass
from pathlib import Path

from mutcheck.reuse.decide import Decider, MutantDecision
from mutcheck.reuse.keep import Keeper, Observed
from mutcheck.reuse.project_code import ProjectCode
from mutcheck.reuse.store import Store
from mutcheck.reuse.today import FileDigests, FileStatus, ProjectFiles, Today, project_reader

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class ReuseRequest:
    store: Store | None  # None: --fresh, nothing reused (what the run keeps is still made)
    head: str | None  # the commit the run is made at, named by what it keeps
    key: dict[str, str]  # see `key.run_key`
    bail: bool


def edit_of(file: str, scope: str, replaced: str, replacement: str, swap_target: str | None) -> str:
    """A mutant's edit, as the store compares it."""
    return "\0".join([file, scope, replaced, replacement, str(swap_target)])


def names_of(replacement: str) -> frozenset[str]:
    """Every name the replacement's text could refer to."""
    return frozenset(_IDENTIFIER.findall(replacement))


class Reusing:
    def __init__(
        self,
        request: ReuseRequest,
        root: Path,
        copied: dict[str, FileStatus | None],
        module_names: dict[str, str],
        suite: list[str],
    ) -> None:
        """`suite`: the tests collected, in order."""
        self.request = request
        stored = request.store or Store()
        self.digests = FileDigests(stored.files)
        files = ProjectFiles(root, copied)
        collected = stored.evidence(stored.collection) if stored.collection is not None else []
        before = frozenset(name.removeprefix("effects:") for name, _ in collected if name.startswith("effects:"))
        code = ProjectCode(
            project_reader(files),
            {**stored.modules, **module_names},
            stored.sources,
            frozenset(stored.loaded),
            before,
            frozenset(module_names),
        )
        self.today = Today(files, dict(os.environ), self.digests, code, suite)
        self.decider = None if request.store is None else Decider(stored, self.today, request.key, request.bail)

    def decide(self, mutant: str, edit: str, selected: list[str], limits: dict[str, float]) -> MutantDecision | None:
        """Which of `selected` (the tests reaching it, in the suite's order) run under the mutant; None with --fresh."""
        return None if self.decider is None else self.decider.mutant(mutant, edit, selected, limits)

    def keep(self, observed: Observed) -> tuple[Store, bool]:
        """The store the run leaves (its whole run left to the caller), and whether it can be taken whole."""
        store, whole = Keeper(observed, self.today).keep(Store(), self.request.key, self.request.store)
        store.files = dict(self.digests.used)
        return store, whole
