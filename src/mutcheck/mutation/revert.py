"""Revert mutants: the change to the target files since BASE's merge base, undone hunk by hunk and whole."""

import ast
import bisect
import codecs
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import CodeType

from unidiff import Hunk

from mutcheck.catalog.catalog import REVERT_FAMILY, Mutant
from mutcheck.core.change_labels import WHOLE_CHANGE, lines_label, shown_base
from mutcheck.core.module_scope import MODULE_SCOPE
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.project_paths import target_files
from mutcheck.core.source_text import Span, edit_diff, file_diff, line_offsets, lines_diff, lines_of
from mutcheck.core.texts import say
from mutcheck.host.swap import code_fingerprint
from mutcheck.mutation.change_files import OPTION, FileChange, changed_files, merge_base
from mutcheck.mutation.edit_code import FileCode, file_swap, layout_free, parsed
from mutcheck.mutation.mutate import AppliedMutant, FileEdit

_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


@dataclass(frozen=True)
class SkippedHunk:
    """A hunk with no revert mutant of its own: why (`layout`, `alone`, `unreferenced`, `base-broken`,
    `name-not-utf8`, or `moved`:
    reverted with `reverted_with`, the hunk that writes its lines again), and what it changed."""

    id: str
    file: str
    first_line: int  # in the working tree; for a deletion, the line the deleted ones followed
    line_count: int
    reason: str
    diff: str
    reverted_with: str | None = None


@dataclass(frozen=True)
class Change:
    base: str  # as the user named it
    merge_base: str
    files: tuple[str, ...]  # the target files the change touches
    mutants: tuple[AppliedMutant, ...]
    skipped: tuple[SkippedHunk, ...]


def _declared_encoding(text: str | None) -> str:
    """The encoding a Python source declares in its first two lines (PEP 263), else UTF-8: a
    reverted file is written in the encoding its own text asks for."""
    for line in lines_of(text or "")[:2]:
        if match := _COOKIE.match(line):
            try:
                return codecs.lookup(match.group(1)).name
            except LookupError:
                break
    return "utf-8"


def _edit(change: FileChange) -> FileEdit:
    """The file as the merge base has it: its text, or the symbolic link it was."""
    return FileEdit(change.path, change.base, _declared_encoding(change.base), change.base_link)


def _layout_free(text: str) -> str | None:
    """`edit_code.layout_free` of a text; None when it does not parse."""
    tree = parsed(text)
    return None if tree is None else layout_free(tree)


def _compiled(text: str, path: str) -> CodeType:
    try:
        return compile(text, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        problem = Problem(path, "", OPTION, f"does not compile: {error.msg} (line {error.lineno})")
        raise InputError([problem]) from error


def _compiles(text: str, path: str) -> CodeType | None:
    """The code of a reverted file, or None: it parses (a `return` back at module level) yet does not compile."""
    try:
        return compile(text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None


@dataclass(frozen=True)
class _Functions:
    """The functions outside any other function (by qualified name, first and last line of the
    `def`), in the order of their lines."""

    found: list[tuple[str, int, int]]

    @classmethod
    def of(cls, tree: ast.Module) -> "_Functions":
        found = []

        def visit(body: list[ast.stmt], prefix: str) -> None:
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.append((prefix + node.name, node.lineno, node.end_lineno or node.lineno))
                elif isinstance(node, ast.ClassDef):
                    visit(node.body, f"{prefix}{node.name}.")

        visit(tree.body, "")
        return cls(sorted(found, key=lambda function: function[1]))

    @cached_property
    def _starts(self) -> list[int]:
        return [start for _, start, _ in self.found]

    def owner(self, first: int, last: int) -> str | None:
        """The function whose lines hold `first`..`last`, or None."""
        at = bisect.bisect_right(self._starts, first) - 1
        if at < 0:
            return None
        name, _, end = self.found[at]
        return name if last <= end else None


def _whole_lines(lines: list[str], start: int, end: int) -> Span:
    """The head's lines from index `start` to before `end`, their line breaks included, as a span:
    replacing its text gives the reverted file. No lines (where deleted lines go back) is the
    start of the line after them."""
    if start == end:
        return Span(start + 1, 0, start + 1, 0)
    if lines[end - 1].endswith("\n"):
        return Span(start + 1, 0, end + 1, 0)
    return Span(start + 1, 0, end, len(lines[end - 1]))  # the file's last line, with no line break


def _touched_lines(hunk: Hunk) -> tuple[int, int]:
    """The working tree's lines a hunk fills, or the two a deletion falls between."""
    first = max(hunk.target_start, 1)
    return first, (first + hunk.target_length - 1 if hunk.target_length else first + 1)


class _Builder:
    def __init__(self, base: str, parted: str, languages: tuple[str, ...]) -> None:
        self.base = shown_base(base)
        self.parted = parted
        self.languages = languages

    def texts(self, key: str, **values: object) -> dict[str, str]:
        return {lang: say(lang, "revert", key, base=self.base, **values) for lang in self.languages}

    def mutant(
        self, mutant_id: str, file: str, scope: str | None, title: dict[str, str], why_key: str, origin: str
    ) -> Mutant:
        return Mutant(
            id=mutant_id,
            family=REVERT_FAMILY,
            file=file,
            scope=scope or MODULE_SCOPE,
            match="",
            replace=None,
            killed_by=(),
            equivalent=None,
            origin=f"git diff {self.parted[:12]} -- {origin}",
            title=title,
            why=self.texts(why_key),
            hint=self.texts("hint"),
            aliases=(),
            source="",
            revert=True,
        )


def _code_lines(lines: Iterable[str]) -> list[str]:
    """Lines of code without their indentation, blank lines and comments left out."""
    return [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]


def _in_order(needle: list[str], haystack: list[str]) -> bool:
    """Every line of `needle` appears in `haystack`, in the same order (others may come between)."""
    remaining = iter(haystack)
    return all(line in remaining for line in needle)


def _moves(hunks: tuple[Hunk, ...], functions: _Functions) -> dict[int, int]:
    """Code the change moved within one function (or among module statements): each hunk that
    only deletes lines which another hunk there writes again (re-indented, perhaps with lines
    around them), by index, with that other hunk. Undone alone, a move's deletion leaves the
    code in both places, and its addition in neither."""
    by_owner: dict[str | None, list[int]] = {}
    for index, hunk in enumerate(hunks):
        by_owner.setdefault(functions.owner(*_touched_lines(hunk)), []).append(index)
    moves: dict[int, int] = {}
    for indexes in by_owner.values():
        for deletion in indexes:
            removed = _code_lines(line.value for line in hunks[deletion] if line.is_removed)
            if hunks[deletion].target_length or not removed:
                continue
            for addition in indexes:
                if addition == deletion or addition in moves or addition in moves.values():
                    continue
                if _in_order(removed, _code_lines(line.value for line in hunks[addition] if line.is_added)):
                    moves[deletion] = addition
                    break
    return moves


def _unreferenced_definitions(code: str, named: Callable[[str], bool]) -> bool:
    """Deleted lines that are only module-level functions and classes which nothing in the head
    names: put back, no code the tests run can reach them, so no test can be expected to notice.
    (A method is not among them: it may override an inherited one.)"""
    try:
        statements = ast.parse(code).body
    except SyntaxError:
        return False
    definitions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return bool(statements) and all(
        isinstance(statement, definitions) and not named(statement.name) for statement in statements
    )


def _undone(hunk: Hunk, base_lines: list[str]) -> tuple[int, int, list[str]]:
    """A hunk undone: the head's lines from index `first` to before `end` become the base's lines."""
    # A pure deletion's target_start is the line before the deleted ones: they go back after it.
    first = hunk.target_start - 1 if hunk.target_length else hunk.target_start
    taken = hunk.source_start - 1 if hunk.source_length else hunk.source_start
    return first, first + hunk.target_length, base_lines[taken : taken + hunk.source_length]


def _reverted(head_lines: list[str], base_lines: list[str], hunks: list[Hunk]) -> tuple[int, int, str]:
    """`hunks` put back to the base's lines: the first and past-the-last index of the head's lines
    that change (equal for lines put back between two), and the text they change to."""
    undone = sorted(_undone(hunk, base_lines) for hunk in hunks)
    pieces = []
    for (_, end, lines), following in zip(undone, [*undone[1:], None], strict=True):
        pieces += lines
        if following is not None:
            pieces += head_lines[end : following[0]]
    return undone[0][0], undone[-1][1], "".join(pieces)


def _skip_reason(layout: bool | None, compiles: bool, unreferenced: bool, base_compiles: bool) -> str | None:
    """`layout`: whether the hunk reverted alone changes only the layout (None: it does not parse)."""
    if layout:
        return "layout"
    if layout is None or not compiles:
        # When the base itself does not compile, not even the whole change can be reverted.
        return "alone" if base_compiles else "base-broken"
    return "unreferenced" if unreferenced else None


def _hunk_mutants(
    change: FileChange,
    head: str,
    base: str,
    builder: _Builder,
    named: Callable[[str], bool],
    progress: Callable[[], None],
) -> tuple[list[AppliedMutant], list[SkippedHunk]]:
    """Each hunk's revert mutant, or why it has none; the work of each grows with the function
    that holds it (`edit_code`), not with the file; `progress` is called once each is decided."""
    head_lines, base_lines = lines_of(head), lines_of(base)
    offsets = line_offsets(head)
    file_code = FileCode(change.path, head, offsets, _compiled(head, change.path))
    functions = _Functions.of(ast.parse(head))
    moves = _moves(change.hunks, functions)
    moved_by = {addition: deletion for deletion, addition in moves.items()}
    base_compiles = _compiles(base, change.path) is not None
    mutants, skipped = [], []
    for index, hunk in enumerate(change.hunks):
        number = index + 1
        mutant_id = f"revert:{change.path}:{number}"
        group = [hunk] + ([change.hunks[moved_by[index]]] if index in moved_by else [])
        start, end, replacement = _reverted(head_lines, base_lines, group)
        span = _whole_lines(head_lines, start, end)
        diff = edit_diff(change.path, head, offsets, span, replacement)
        touched = [line for member in group for line in _touched_lines(member)]
        owner = functions.owner(min(touched), max(touched))
        layout = None if index in moves else file_code.same_layout(span, replacement)
        edit = None
        if layout is False:
            try:
                edit = file_code.compile_edit(span, replacement, owner)
            except (SyntaxError, ValueError):  # it parses (a `return` back at module level) yet does not compile
                edit = None
        restored = "".join(base_lines[hunk.source_start - 1 : hunk.source_start - 1 + hunk.source_length])
        unreferenced = not hunk.target_length and _unreferenced_definitions(restored, named)
        reason = "moved" if index in moves else _skip_reason(layout, edit is not None, unreferenced, base_compiles)
        progress()
        if reason is not None or edit is None:
            with_id = f"revert:{change.path}:{moves[index] + 1}" if index in moves else None
            skipped.append(
                SkippedHunk(mutant_id, change.path, hunk.target_start, hunk.target_length, reason, diff, with_id)
            )
            continue
        scope = owner if edit.swap_target else None  # the tests that reach the function holding the hunk
        where = {lang: lines_label(hunk.target_start, hunk.target_length, lang) for lang in builder.languages}
        if index in moved_by:  # the other half of the move goes back with it
            key, extra = "moved_title", {"moved": change.hunks[moved_by[index]].target_start}
        else:
            key, extra = "hunk_title", {}
        values = {"file": change.path, "number": number, "base": builder.base, **extra}
        title = {lang: say(lang, "revert", key, where=where[lang], **values) for lang in builder.languages}
        mutants.append(
            AppliedMutant(
                mutant=builder.mutant(
                    mutant_id, change.path, scope, title, "hunk_why", f"{change.path}, hunk {number}"
                ),
                original=head,
                diff=diff,
                span=span,
                replacement=replacement,
                equivalent_by_compilation=edit.equivalent,
                scope_qualname=scope or MODULE_SCOPE,
                swap_target=edit.swap_target,
                encoding=_declared_encoding(_first_lines(head_lines, start, end, replacement)),
                marked=edit.marked,
            )
        )
    return mutants, skipped


def _first_lines(head_lines: list[str], start: int, end: int, replacement: str) -> str:
    """The first two lines of the head with its lines `start` to `end` replaced (where a coding
    cookie would be), without making the whole text."""
    if start >= 2:
        return "".join(head_lines[:2])
    return "".join(head_lines[:start]) + replacement + "".join(head_lines[end : end + 2])


def _whole_file_mutant(change: FileChange, builder: _Builder, also: tuple[FileChange, ...] = ()) -> AppliedMutant:
    """A file the change added (removed again), removed (restored), or replaced without hunks
    git could give (reverted whole); `also`: the other half of a moved file, reverted with it."""
    key = "added_title" if change.base is None else "removed_title" if change.head is None else "file_title"
    title = builder.texts("moved_file_title" if also else key, file=change.path, moved=also[0].path if also else "")
    head, base = change.head or "", change.base or ""
    return AppliedMutant(
        mutant=builder.mutant(f"revert:{change.path}:1", change.path, None, title, "hunk_why", change.path),
        original=head,
        diff="".join(file_diff(c.path, c.head or "", c.base or "") for c in (change, *also)),
        span=_whole_lines(lines_of(head), 0, len(lines_of(head))),
        replacement=base,
        equivalent_by_compilation=False,
        scope_qualname=MODULE_SCOPE,
        swap_target=None,
        encoding=_declared_encoding(base),
        writes=tuple(_edit(c) for c in (change, *also)),
    )


def _whole_change(changes: list[FileChange], builder: _Builder) -> AppliedMutant | None:
    """Every target file as it was at the merge base, or None when that differs from the head only
    in layout; a file that did not compile at the base is left as it is (its hunks say why)."""
    differing = [
        change
        for change in changes
        if _layout_free(change.head or "") != _layout_free(change.base or "") and _base_compiles(change)
    ]
    if not differing:
        return None
    primary = next((change for change in differing if change.head is not None), differing[0])
    head, base = primary.head or "", primary.base or ""
    target = scope = marked = None
    both_sides = all(change.head is not None and change.base is not None for change in differing)
    equivalent = both_sides and all(
        code_fingerprint(_compiled(c.head or "", c.path)) == code_fingerprint(_compiled(c.base or "", c.path))
        for c in differing
    )
    if len(differing) == 1 and primary.hunks:
        touched = [line for hunk in primary.hunks for line in _touched_lines(hunk)]
        owner = _Functions.of(ast.parse(head)).owner(min(touched), max(touched))
        head_code, base_code = _compiled(head, primary.path), _compiled(base, primary.path)
        target, marked = file_swap(base, primary.path, head_code, base_code, owner)
        scope = owner if target else None
    title = builder.texts("all_title", count=len(differing))
    return AppliedMutant(
        mutant=builder.mutant(
            WHOLE_CHANGE, primary.path, scope, title, "all_why", " ".join(change.path for change in differing)
        ),
        original=head,
        diff="".join(_reverting_diff(change) for change in differing),
        span=_whole_lines(lines_of(head), 0, len(lines_of(head))),
        replacement=base,
        equivalent_by_compilation=equivalent,
        scope_qualname=scope or MODULE_SCOPE,
        swap_target=target,
        encoding=_declared_encoding(base),
        writes=() if target else tuple(_edit(c) for c in differing),
        marked=marked,
    )


def _reverting_diff(change: FileChange) -> str:
    """The diff that takes a file from the head back to the base, made from git's hunks (a long
    change costs what its hunks cost, not a diff of the whole file made anew)."""
    if not change.hunks:
        return file_diff(change.path, change.head or "", change.base or "")
    base = lines_of(change.base or "")
    return lines_diff(change.path, lines_of(change.head or ""), [_undone(hunk, base) for hunk in change.hunks])


def _names_in(root: Path, paths: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a name appears as a word anywhere in the Python files under `paths` (code,
    strings or comments alike: a test may look a function up by its name)."""
    texts = []
    for path in target_files(root, paths):
        try:
            texts.append((root / path).read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", "\n".join(texts)))
    return words.__contains__


def _base_compiles(change: FileChange) -> bool:
    return change.base is None or _compiles(change.base, change.path) is not None


def _whole_file_skip(change: FileChange, reason: str, with_id: str | None = None) -> SkippedHunk:
    lines = len(lines_of(change.head or ""))
    diff = file_diff(change.path, change.head or "", change.base or "")
    return SkippedHunk(f"revert:{change.path}:1", change.path, 1 if lines else 0, lines, reason, diff, with_id)


def _whole_files(
    changes: list[FileChange], builder: _Builder, named: Callable[[str], bool]
) -> tuple[list[AppliedMutant], list[SkippedHunk]]:
    """Files added, removed or replaced whole. A module of docstrings and comments only is layout;
    a removed module whose name nothing in the head mentions is unreferenced; a file removed and
    one added with the same code (a rename) are reverted together, under the added one's id."""
    whole = [change for change in changes if not change.hunks]
    added = {_layout_free(c.head or ""): c for c in whole if c.base is None}
    renamed_to = {}  # removed file's path → the added file with its code
    for change in whole:
        twin = added.get(_layout_free(change.base or "")) if change.head is None else None
        if twin is not None and twin.path not in renamed_to.values():
            renamed_to[change.path] = twin.path
    renamed_from = {new: old for old, new in renamed_to.items()}
    by_path = {change.path: change for change in whole}
    mutants, skipped = [], []
    for change in whole:
        if change.path in renamed_to:
            skipped.append(_whole_file_skip(change, "moved", f"revert:{renamed_to[change.path]}:1"))
        elif change.path in renamed_from:
            mutants.append(_whole_file_mutant(change, builder, (by_path[renamed_from[change.path]],)))
        elif _layout_free(change.head or "") == _layout_free(change.base or ""):
            skipped.append(_whole_file_skip(change, "layout"))
        elif not _base_compiles(change):
            skipped.append(_whole_file_skip(change, "base-broken"))
        elif change.head is None and not named(Path(change.path).stem):
            skipped.append(_whole_file_skip(change, "unreferenced"))
        else:
            mutants.append(_whole_file_mutant(change, builder))
    return mutants, skipped


def revert_change(
    root: Path,
    base: str,
    targets: tuple[str, ...],
    languages: tuple[str, ...],
    tests: tuple[str, ...] = (),
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> Change:
    """The revert mutants of the change to `targets` (the `tests` left out) from the merge base
    of `base` and HEAD to the working tree, untracked files included, and the hunks that get
    none; the tests are searched too for the names of deleted definitions. `progress` hears how
    many hunks are done, and of how many, before the first and after each."""
    parted = merge_base(root, base)
    changes = changed_files(root, base, parted, targets, tests)
    # A name that is not UTF-8 cannot be written in a results file or a report: said, with escapes.
    unnameable = [change for change in changes if not _utf8(change.path)]
    changes = [change for change in changes if _utf8(change.path)]
    builder = _Builder(base, parted, languages)
    named = _names_in(root, (*targets, *tests))
    mutants, skipped = _whole_files(changes, builder, named)
    for change in unnameable:
        shown = os.fsencode(change.path).decode("utf-8", errors="backslashreplace")
        skipped.append(
            SkippedHunk(f"revert:{shown}:1", shown, 1, len(lines_of(change.head or "")), "name-not-utf8", "")
        )
    with_hunks = [c for c in changes if c.hunks and c.head is not None and c.base is not None]
    total = sum(len(change.hunks) for change in with_hunks)
    done = 0
    progress(done, total)

    def one_more() -> None:
        nonlocal done
        done += 1
        progress(done, total)

    for change in with_hunks:
        hunk_mutants, hunks_skipped = _hunk_mutants(
            change, change.head or "", change.base or "", builder, named, one_more
        )
        mutants += hunk_mutants
        skipped += hunks_skipped
    order = {change.path: position for position, change in enumerate(changes)}
    mutants.sort(key=lambda applied: (order[applied.mutant.file], _number(applied.mutant.id)))
    skipped.sort(key=lambda hunk: (order.get(hunk.file, len(order)), hunk.file, _number(hunk.id)))
    whole = _whole_change(changes, builder)
    if whole is not None:
        mutants.append(whole)
    return Change(base, parted, tuple(change.path for change in changes), tuple(mutants), tuple(skipped))


def _utf8(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _number(mutant_id: str) -> int:
    return int(mutant_id.rsplit(":", 1)[1])
