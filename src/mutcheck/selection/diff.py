"""`--diff BASE`: the lines a change touched, and whether a mutant is in it (its code, its catalog
entry or its expected killers' files)."""

import re
import tomllib
from pathlib import Path

from unidiff import PatchSet

from mutcheck.core import git
from mutcheck.mutation.mutate import AppliedMutant


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


def in_diff(applied: AppliedMutant, changed: Changed, entries: set[tuple[str, str]]) -> bool:
    """The mutant's span touches changed lines, its catalog entry changed, or one of its expected
    killers' files changed."""
    if _touches(changed, applied.mutant.file, range(applied.span.start_line, applied.span.end_line + 1)):
        return True
    if (applied.mutant.source, applied.mutant.id) in entries:
        return True
    return any(test.split("::", 1)[0] in changed for test in applied.mutant.killed_by)
