"""Which mutants run, and which tests run under each, with what time limit."""

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from unidiff import PatchSet

from mutcheck.catalog.catalog import Catalog
from mutcheck.core import git
from mutcheck.core.module_scope import is_module_code
from mutcheck.core.problems import InputError, Problem

if TYPE_CHECKING:  # the host imports this module, and must not load LibCST
    from mutcheck.mutation.mutate import AppliedMutant


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


def _git(root: Path, base: str, *args: str) -> str:
    return git.run(root, base, *args, option="--diff").decode(errors="surrogateescape")  # any file name


Changed = dict[str, set[int] | None]  # per file relative to the root: changed lines, None for a new file


def changed_lines(root: Path, base: str) -> Changed:
    """Lines added or changed since `base` and HEAD parted (their merge base, as `git diff
    BASE...HEAD` has it), working tree included; untracked files are new. A pull request's base
    branch moves on after it branched: what landed there is not the pull request's change."""
    parted = _git(root, base, "merge-base", base, "HEAD").strip()
    diff = _git(root, base, "diff", *git.DIFF_OPTIONS, parted, "--")
    lines: Changed = {}
    for patched in PatchSet(diff):
        touched = lines.setdefault(git.patched_path(patched), set())
        for hunk in patched:
            touched.update(line.target_line_no for line in hunk if line.is_added)
            if hunk.removed and not hunk.added:  # a pure deletion touches the line it left behind
                touched.add(max(hunk.target_start, 1))
    untracked = _git(root, base, "ls-files", "-z", "--others", "--exclude-standard")
    lines.update(dict.fromkeys(name for name in untracked.split("\0") if name))
    return lines


def _touches(changed: Changed, file: str, span: range) -> bool:
    if file not in changed:
        return False
    lines = changed[file]
    return lines is None or not lines.isdisjoint(span)


_ENTRY_HEADER = re.compile(r"""^\s*\[\[\s*(?:mutant|"mutant"|'mutant')\s*\]\]\s*(?:#.*)?$""")
_NOT_CONTENT = re.compile(r"^\s*(?:#.*)?$")


def _complete_toml(text: str) -> bool:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return True


def entry_lines(text: str) -> dict[str, range]:
    """Each `[[mutant]]` entry's lines (1-based) in a catalog file's text, by id: from its header to
    its last line of content (the blank lines and comments before the next header belong to none).

    tomllib gives no positions, so headers are found by scanning; a header-like line inside a
    multi-line string is told apart because the text before it does not parse on its own.
    """
    lines = text.splitlines()
    tables = tomllib.loads(text).get("mutant", [])
    if not tables:  # a file of comments only
        return {}
    starts = [
        number
        for number, line in enumerate(lines, start=1)
        if _ENTRY_HEADER.match(line) and _complete_toml("\n".join(lines[: number - 1]))
    ]
    if len(starts) != len(tables):  # a layout the scan does not know: any change touches every entry
        return {table["id"]: range(1, len(lines) + 1) for table in tables}
    spans = {}
    for table, start, next_start in zip(tables, starts, [*starts[1:], len(lines) + 1], strict=True):
        end = next_start - 1
        while end > start and _NOT_CONTENT.match(lines[end - 1]):
            end -= 1
        spans[table["id"]] = range(start, end + 1)
    return spans


def changed_entries(root: Path, changed: Changed, catalog_files: set[str]) -> set[tuple[str, str]]:
    """(catalog file, id) of every catalog entry whose TOML text has changed lines."""
    return {
        (source, entry_id)
        for source in catalog_files & changed.keys()
        for entry_id, span in entry_lines((root / source).read_text(encoding="utf-8")).items()
        if _touches(changed, source, span)
    }


def in_diff(applied: "AppliedMutant", changed: Changed, entries: set[tuple[str, str]]) -> bool:
    """The mutant's span touches changed lines, its catalog entry changed, or one of its expected
    killers' files changed."""
    if _touches(changed, applied.mutant.file, range(applied.span.start_line, applied.span.end_line + 1)):
        return True
    if (applied.mutant.source, applied.mutant.id) in entries:
        return True
    return any(test.split("::", 1)[0] in changed for test in applied.mutant.killed_by)


def narrow(
    root: Path, catalog: Catalog, applied: list["AppliedMutant"], diff_base: str | None, shard: Shard | None
) -> list["AppliedMutant"]:
    """`--diff BASE` and `--shard k/n` applied to the mutants `--only` chose: what `run` runs and `list` lists."""
    if diff_base:
        changed = changed_lines(root, diff_base)
        entries = changed_entries(root, changed, {mutant.source for mutant in catalog.mutants})
        applied = [mutant for mutant in applied if in_diff(mutant, changed, entries)]
    if shard:
        applied = [mutant for mutant in applied if shard.keeps(mutant.mutant.id)]
    return applied


def select_tests(scope: str, covered: list[set[str]], import_reached: set[str] = frozenset()) -> list[int]:
    """Indices of the tests whose baseline run executed the scope (or anything nested in it); all
    names are reach names (see `module_scope.reach_name`).

    Module statements run at import, before any test, so no trace tells who depends on them: all.
    So does a function that ran while pytest imported the project (a table built at import, a
    decorator, a parametrize list): what it made may reach any test."""
    prefix = scope + "."
    if is_module_code(scope) or any(name == scope or name.startswith(prefix) for name in import_reached):
        return list(range(len(covered)))
    return [index for index, names in enumerate(covered) if scope in names or any(n.startswith(prefix) for n in names)]
