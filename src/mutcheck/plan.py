"""Which mutants run, and which tests run under each, with what time limit."""

import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from unidiff import PatchSet

from mutcheck.catalog import MODULE_SCOPE
from mutcheck.problems import InputError, Problem

if TYPE_CHECKING:  # the host imports this module, and must not load LibCST
    from mutcheck.mutate import AppliedMutant


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    @classmethod
    def parse(cls, text: str) -> "Shard":
        try:
            index, count = (int(part) for part in text.split("/"))
        except ValueError:
            index = count = 0
        if not 1 <= index <= count:
            raise InputError([Problem("--shard", "", "", f"expected k/n with 1 <= k <= n, got {text!r}")])
        return cls(index, count)

    def keeps(self, mutant_id: str) -> bool:
        """Deterministic, and independent of the catalog's order and size."""
        digest = int.from_bytes(hashlib.sha256(mutant_id.encode()).digest()[:8], "big")
        return digest % self.count == self.index - 1


def changed_lines(root: Path, base: str) -> dict[str, set[int]]:
    """Lines added or changed since git `base` (working tree included), per file relative to `root`."""
    completed = subprocess.run(
        ["git", "diff", "--relative", "--unified=0", "--no-color", "--no-ext-diff", base, "--"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise InputError([Problem("--diff", "", "", f"git diff {base} failed: {completed.stderr.strip()}")])
    lines: dict[str, set[int]] = {}
    for patched in PatchSet(completed.stdout):
        touched = lines.setdefault(patched.path, set())
        for hunk in patched:
            touched.update(line.target_line_no for line in hunk if line.is_added)
            if hunk.removed and not hunk.added:  # a pure deletion touches the line it left behind
                touched.add(max(hunk.target_start, 1))
    return lines


def in_diff(applied: "AppliedMutant", changed: dict[str, set[int]]) -> bool:
    """The mutant's span touches changed lines, or one of its expected killers' files changed."""
    span = set(range(applied.span.start_line, applied.span.end_line + 1))
    if span & changed.get(applied.mutant.file, set()):
        return True
    return any(test.split("::", 1)[0] in changed for test in applied.mutant.killed_by)


def select_tests(scope_qualname: str, covered: list[set[str]]) -> list[int]:
    """Indices of the tests whose baseline run executed the scope (or anything nested in it).

    Module statements run at import, before any test, so no trace tells who depends on them: all."""
    if scope_qualname == MODULE_SCOPE:
        return list(range(len(covered)))
    prefix = scope_qualname + "."
    return [
        index
        for index, names in enumerate(covered)
        if scope_qualname in names or any(name.startswith(prefix) for name in names)
    ]


def test_limit(duration: float, factor: float, constant: float) -> float:
    """One test's time limit under a mutant, from its baseline duration."""
    return factor * duration + constant


def time_limit(selected: list[int], durations: list[float], factor: float, constant: float) -> float:
    """A whole mutant's limit: every selected test's own, plus one more constant of slack."""
    return sum(test_limit(durations[index], factor, constant) for index in selected) + constant
