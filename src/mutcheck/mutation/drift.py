"""Catalog entries the change moved away from: an entry that applies at BASE's merge base but no longer
at the head is a finding of the change, not an input error. It comes with its scope's text on both
sides and, where the guarded node's new place can be told unambiguously (mapped through the diff, the
one node there most like the old one), the `scope`, `match` and `replace` that would apply again."""

import difflib
import keyword
import re
from dataclasses import dataclass, replace
from pathlib import Path

from mutcheck.catalog.catalog import Mutant
from mutcheck.core.problems import Problem
from mutcheck.core.source_text import file_diff, line_offsets
from mutcheck.mutation.change_files import merge_base, text_at
from mutcheck.mutation.mutate import (
    AppliedMutant,
    MutationError,
    apply_to_text,
    candidate_nodes,
    read_source,
    scope_source,
)

SIMILAR = 0.6  # how alike (difflib's ratio) the new node must be to the old one
_MARGIN = 0.1  # and how much more alike than the next best
_TOKEN = re.compile(r"[^\W\d]\w*|\d[\w.]*|\S")


@dataclass(frozen=True)
class Drift:
    mutant: Mutant
    field: str  # the field at fault at the head
    message: str  # why the entry does not apply at the head
    diff: str  # its scope, from the merge base's text to the head's
    proposal: dict[str, str | None] | None  # the fields that would make it apply again (replace None: delete)


def _head_lines(base: str, head: str, first: int, last: int) -> range | None:
    """The head's lines that the base's lines `first`..`last` (1-based) became, through the diff."""
    matcher = difflib.SequenceMatcher(None, base.splitlines(), head.splitlines(), autojunk=False)
    mapped: list[int] = []
    for tag, base_start, base_end, head_start, head_end in matcher.get_opcodes():
        if base_end < first or base_start >= last or tag == "delete":
            continue
        if tag == "equal":
            low, high = max(base_start, first - 1), min(base_end, last)
            mapped += range(head_start + low - base_start + 1, head_start + high - base_start + 1)
        else:  # replaced lines: the whole block they became
            mapped += range(head_start + 1, head_end + 1)
    return range(min(mapped), max(mapped) + 1) if mapped else None


def _tokens(code: str) -> list[str]:
    """Code as words: names, numbers and single other characters, whatever its layout or indentation
    (a match copied from a file keeps the file's indentation after its first line)."""
    return _TOKEN.findall(code)


def _similarity(old: str, new: str) -> float:
    return difflib.SequenceMatcher(None, _tokens(old), _tokens(new), autojunk=False).ratio()


def _renames(old: str, new: str) -> dict[str, str]:
    """The names the new node calls by another name (`value` where it now says `number`)."""
    before, after = _tokens(old), _tokens(new)
    renames = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:
            for name, renamed in zip(before[i1:i2], after[j1:j2], strict=True):
                if name.isidentifier() and renamed.isidentifier() and not keyword.iskeyword(renamed):
                    renames[name] = renamed
    return renames


def _new_replace(mutant: Mutant, old_match: str, new_match: str) -> str | None:
    """The edit carried over to the new node: where the replacement quotes the old match, the new one
    in its place; else with the names the new node renamed renamed in it too (a replacement that
    depends on no name of the match, a constant, stays as it is)."""
    if mutant.replace is None:
        return None
    if old_match.strip() in mutant.replace:
        return mutant.replace.replace(old_match.strip(), new_match.strip())
    edited = mutant.replace
    for name, renamed in _renames(old_match, new_match).items():
        edited = re.sub(rf"\b{re.escape(name)}\b", renamed, edited)
    return edited


def _proposal(mutant: Mutant, at_base: AppliedMutant, base: str, head: str) -> dict[str, str | None] | None:
    lines = _head_lines(base, head, at_base.span.start_line, at_base.span.end_line)
    if lines is None:
        return None
    span, offsets = at_base.span, line_offsets(base)
    base_match = base[offsets[span.start_line - 1] + span.start_column : offsets[span.end_line - 1] + span.end_column]
    candidates = [
        (similarity, scope, code)
        for scope, code, first, last in candidate_nodes(mutant, head, lines)
        if (similarity := _similarity(base_match, code)) >= SIMILAR and first in lines and last in lines
    ]
    candidates.sort(key=lambda candidate: -candidate[0])
    if not candidates or (len(candidates) > 1 and candidates[1][0] > candidates[0][0] - _MARGIN):
        return None
    _, scope, code = candidates[0]
    fields = {"scope": scope, "match": code, "replace": _new_replace(mutant, base_match, code)}
    moved = replace(mutant, scope=scope, match=code, replace=fields["replace"])
    try:
        apply_to_text(moved, head)
    except MutationError:
        return None
    return fields


def drifted(
    root: Path, base: str, option: str, failures: list[tuple[Mutant, MutationError]]
) -> tuple[list[Drift], list[Problem]]:
    """Of the entries that failed to apply at the head, those that apply at the merge base of `base`
    and HEAD (findings of the change), and the problems of the others (input errors, as ever)."""
    parted = merge_base(root, base, option)
    found, problems = [], []
    for mutant, error in failures:
        base_text = text_at(root, parted, mutant.file, option)
        try:
            at_base = apply_to_text(mutant, base_text) if base_text is not None else None
        except MutationError:
            at_base = None
        if at_base is None:
            problems.append(error.problem)
            continue
        path = root / mutant.file
        head_text = read_source(path)[0] if path.is_file() else ""
        proposal = _proposal(mutant, at_base, base_text, head_text)
        before = scope_source(base_text, mutant.file, mutant.scope) or ""
        after = scope_source(head_text, mutant.file, proposal["scope"] if proposal else mutant.scope) or ""
        diff = file_diff(mutant.file, before, after)
        found.append(Drift(mutant, error.problem.field, error.problem.message, diff, proposal))
    return found, problems
