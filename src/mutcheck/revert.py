"""Revert mutants: the change to the target files since BASE's merge base, undone hunk by hunk and whole."""

import ast
import io
import re
import subprocess
import tokenize
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import CodeType

from unidiff import Hunk, PatchedFile, PatchSet

from mutcheck.catalog import MODULE_SCOPE, REVERT_FAMILY, Mutant
from mutcheck.change_guard import WHOLE_CHANGE, lines_label, shown_base
from mutcheck.mutate import AppliedMutant, FileEdit, Span, file_diff, read_source
from mutcheck.problems import InputError, Problem
from mutcheck.project_paths import target_files
from mutcheck.report.texts import say
from mutcheck.swap import code_fingerprint, swappable

_OPTION = "--revert"
# The user's diff settings (colour, an external tool, a text conversion, rename detection) would change the hunks.
_DIFF_OPTIONS = ("--relative", "--unified=0", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames")


@dataclass(frozen=True)
class SkippedHunk:
    """A hunk with no revert mutant of its own: why (`layout`, `alone`, `unreferenced`, or `moved`:
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


@dataclass(frozen=True)
class _FileChange:
    """One target file on both sides: None where it does not exist."""

    path: str
    head: str | None
    base: str | None
    encoding: str
    patch: PatchedFile | None  # None for a file git does not track yet


def _git(root: Path, base: str, *args: str) -> bytes:
    completed = subprocess.run(["git", *args], cwd=root, capture_output=True, check=False)
    if completed.returncode != 0:
        # merge-base fails without a word when the histories share no commit.
        reason = completed.stderr.decode(errors="replace").strip() or "no common ancestor with HEAD"
        raise InputError([Problem(_OPTION, "", "", f"git {args[0]} {base} failed: {reason}")])
    return completed.stdout


def _decoded(data: bytes) -> tuple[str, str]:
    """Source bytes as Python reads them (see `read_source`)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return io.TextIOWrapper(io.BytesIO(data), encoding).read(), encoding


def _lines(text: str) -> list[str]:
    """Lines as git counts them: ended by "\n" only, each keeping its end."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def _file_changes(root: Path, base: str, parted: str, targets: tuple[str, ...]) -> list[_FileChange]:
    diff = _git(root, base, "diff", *_DIFF_OPTIONS, parted, "--", *targets).decode("utf-8", errors="replace")
    changes = []
    for patched in PatchSet(diff):
        if not patched.path.endswith(".py") or patched.is_binary_file:
            continue
        head = base_text = None
        encoding = "utf-8"
        if not patched.is_removed_file:
            head, encoding = _read(root, patched.path)
        if not patched.is_added_file:
            # "./": the path is the project's (`--relative`), which may be a folder of the repository.
            base_text, base_encoding = _decoded(_git(root, base, "show", f"{parted}:./{patched.path}"))
            encoding = base_encoding if head is None else encoding
        changes.append(_FileChange(patched.path, head, base_text, encoding, patched))
    untracked = _git(root, base, "ls-files", "-z", "--others", "--exclude-standard", "--", *targets).decode()
    for path in sorted(name for name in untracked.split("\0") if name.endswith(".py")):
        head, encoding = _read(root, path)
        changes.append(_FileChange(path, head, None, encoding, None))
    return sorted(changes, key=lambda change: change.path)


def _read(root: Path, path: str) -> tuple[str, str]:
    try:
        return read_source(root / path)
    except (OSError, SyntaxError, UnicodeDecodeError) as error:
        raise InputError([Problem(path, "", _OPTION, f"cannot be read as Python source: {error}")]) from error


def _layout_free(text: str) -> str | None:
    """The syntax tree without docstrings (None when `text` does not parse): equal for two texts
    that differ only in comments, docstrings or formatting."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _compiled(text: str, path: str) -> CodeType:
    try:
        return compile(text, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        problem = Problem(path, "", _OPTION, f"does not compile: {error.msg} (line {error.lineno})")
        raise InputError([problem]) from error


def _outermost_functions(tree: ast.Module) -> list[tuple[str, int, int]]:
    """(qualified name, first line, last line) of each function outside any other function."""
    found = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((prefix + node.name, node.lineno, node.end_lineno or node.lineno))
            elif isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")

    visit(tree.body, "")
    return found


def _scope(head: str, head_code: CodeType, mutated_code: CodeType, first: int, last: int) -> str | None:
    """The function that holds lines `first`..`last` of the head and whose code alone the revert
    changes, or None: then the revert runs in a copy against every test."""
    for qualname, start, end in _outermost_functions(ast.parse(head)):
        if start <= first and last <= end:
            return qualname if swappable(head_code, mutated_code, qualname) else None
    return None


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
    def __init__(self, base: str, languages: tuple[str, ...]) -> None:
        self.base = shown_base(base)
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
            origin=origin,
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


def _moves(hunks: list[Hunk]) -> dict[int, int]:
    """Code the change moved: each hunk that only deletes lines which another hunk of the file
    writes again (re-indented, perhaps with lines around them), by index, with that other hunk.
    Undone alone, a move's deletion leaves the code in both places, and its addition in neither."""
    moves: dict[int, int] = {}
    for deletion, hunk in enumerate(hunks):
        removed = _code_lines(line.value for line in hunk if line.is_removed)
        if hunk.target_length or not removed:
            continue
        for addition, other in enumerate(hunks):
            taken = addition == deletion or addition in moves or addition in moves.values()
            if not taken and _in_order(removed, _code_lines(line.value for line in other if line.is_added)):
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


def _reverted(head_lines: list[str], base_lines: list[str], hunks: list[Hunk]) -> tuple[str, int, int]:
    """The head with `hunks` put back to the base's lines; and the first and past-the-last index
    of the head's lines that changed (equal for lines put back between two)."""
    lines = list(head_lines)
    places = []
    for hunk in sorted(hunks, key=lambda hunk: hunk.target_start, reverse=True):
        # A pure deletion's target_start is the line before the deleted ones: they go back after it.
        at = hunk.target_start - 1 if hunk.target_length else hunk.target_start
        taken = hunk.source_start - 1 if hunk.source_length else hunk.source_start
        lines[at : at + hunk.target_length] = base_lines[taken : taken + hunk.source_length]
        places.append((at, at + hunk.target_length))
    return "".join(lines), min(start for start, _ in places), max(end for _, end in places)


def _hunk_mutants(
    change: _FileChange, head: str, base: str, builder: _Builder, parted: str, named: Callable[[str], bool]
) -> tuple[list[AppliedMutant], list[SkippedHunk]]:
    head_lines, base_lines = _lines(head), _lines(base)
    head_code = _compiled(head, change.path)
    head_tree = _layout_free(head)
    hunks = list(change.patch or ())
    moves = _moves(hunks)
    moved_by = {addition: deletion for deletion, addition in moves.items()}
    mutants, skipped = [], []
    for index, hunk in enumerate(hunks):
        number = index + 1
        mutant_id = f"revert:{change.path}:{number}"
        group = [hunk] + ([hunks[moved_by[index]]] if index in moved_by else [])
        mutated, start, end = _reverted(head_lines, base_lines, group)
        diff = file_diff(change.path, head, mutated)
        layout = _layout_free(mutated)
        restored = base_lines[hunk.source_start - 1 : hunk.source_start - 1 + hunk.source_length]
        unreferenced = not hunk.target_length and _unreferenced_definitions("".join(restored), named)
        if index in moves or layout is None or layout == head_tree or unreferenced:
            reason = (
                "moved"
                if index in moves
                else "alone"
                if layout is None
                else "layout"
                if layout == head_tree
                else "unreferenced"
            )
            with_id = f"revert:{change.path}:{moves[index] + 1}" if index in moves else None
            skipped.append(
                SkippedHunk(mutant_id, change.path, hunk.target_start, hunk.target_length, reason, diff, with_id)
            )
            continue
        mutated_code = compile(mutated, change.path, "exec", dont_inherit=True)
        touched = [line for member in group for line in _touched_lines(member)]
        target = _scope(head, head_code, mutated_code, min(touched), max(touched))
        where = {lang: lines_label(hunk.target_start, hunk.target_length, lang) for lang in builder.languages}
        if index in moved_by:  # the other half of the move goes back with it
            moved = hunks[moved_by[index]]
            key, extra = "moved_title", {"moved": moved.target_start}
        else:
            key, extra = "hunk_title", {}
        values = {"file": change.path, "number": number, "base": builder.base, **extra}
        title = {lang: say(lang, "revert", key, where=where[lang], **values) for lang in builder.languages}
        origin = f"git diff {parted[:12]} -- {change.path}, hunk {number}"
        prefix = sum(map(len, head_lines[:start]))
        suffix = sum(map(len, head_lines[end:]))
        mutants.append(
            AppliedMutant(
                mutant=builder.mutant(mutant_id, change.path, target, title, "hunk_why", origin),
                original=head,
                mutated=mutated,
                diff=diff,
                span=_whole_lines(head_lines, start, end),
                replacement=mutated[prefix : len(mutated) - suffix],
                equivalent_by_compilation=code_fingerprint(head_code) == code_fingerprint(mutated_code),
                scope_qualname=target or MODULE_SCOPE,
                swap_target=target,
                encoding=change.encoding,
            )
        )
    return mutants, skipped


def _whole_file_mutant(change: _FileChange, builder: _Builder, parted: str) -> AppliedMutant:
    """A file the change added (removed again) or removed (restored)."""
    added = change.base is None
    title = builder.texts("added_title" if added else "removed_title", file=change.path)
    head, base = change.head or "", change.base or ""
    mutant_id = f"revert:{change.path}:1"
    origin = f"git diff {parted[:12]} -- {change.path}"
    return AppliedMutant(
        mutant=builder.mutant(mutant_id, change.path, None, title, "hunk_why", origin),
        original=head,
        mutated=base,
        diff=file_diff(change.path, head, base),
        span=_whole_lines(_lines(head), 0, len(_lines(head))),
        replacement=base,
        equivalent_by_compilation=False,
        scope_qualname=MODULE_SCOPE,
        swap_target=None,
        encoding=change.encoding,
        writes=(FileEdit(change.path, change.base, change.encoding),),
    )


def _whole_change(changes: list[_FileChange], builder: _Builder, parted: str) -> AppliedMutant | None:
    """Every target file as it was at the merge base, or None when that differs from the head only in layout."""
    differing = [
        change
        for change in changes
        if change.head is None or change.base is None or _layout_free(change.head) != _layout_free(change.base)
    ]
    if not differing:
        return None
    primary = next((change for change in differing if change.head is not None), differing[0])
    head, base = primary.head or "", primary.base or ""
    target = None
    equivalent = all(change.head is not None and change.base is not None for change in differing) and all(
        code_fingerprint(_compiled(c.head or "", c.path)) == code_fingerprint(_compiled(c.base or "", c.path))
        for c in differing
    )
    if len(differing) == 1 and primary.head is not None and primary.base is not None:
        touched = [line for hunk in primary.patch or () for line in _touched_lines(hunk)]
        target = _scope(head, _compiled(head, primary.path), _compiled(base, primary.path), min(touched), max(touched))
    title = builder.texts("all_title", count=len(differing))
    origin = f"git diff {parted[:12]} -- " + " ".join(change.path for change in differing)
    return AppliedMutant(
        mutant=builder.mutant(WHOLE_CHANGE, primary.path, target, title, "all_why", origin),
        original=head,
        mutated=base,
        diff="".join(file_diff(change.path, change.head or "", change.base or "") for change in differing),
        span=_whole_lines(_lines(head), 0, len(_lines(head))),
        replacement=base,
        equivalent_by_compilation=equivalent,
        scope_qualname=target or MODULE_SCOPE,
        swap_target=target,
        encoding=primary.encoding,
        writes=() if target else tuple(FileEdit(c.path, c.base, c.encoding) for c in differing),
    )


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


def revert_change(
    root: Path, base: str, targets: tuple[str, ...], languages: tuple[str, ...], tests: tuple[str, ...] = ()
) -> Change:
    """The revert mutants of the change to `targets` from the merge base of `base` and HEAD to the
    working tree (untracked files included), and the hunks that get none; `tests` are searched
    too for the names of deleted definitions."""
    parted = _git(root, base, "merge-base", base, "HEAD").decode().strip()
    changes = _file_changes(root, base, parted, targets)
    builder = _Builder(base, languages)
    named = _names_in(root, (*targets, *tests))
    mutants: list[AppliedMutant] = []
    skipped: list[SkippedHunk] = []
    for change in changes:
        if change.head is None or change.base is None:
            mutants.append(_whole_file_mutant(change, builder, parted))
            continue
        hunk_mutants, hunks_skipped = _hunk_mutants(change, change.head, change.base, builder, parted, named)
        mutants += hunk_mutants
        skipped += hunks_skipped
    whole = _whole_change(changes, builder, parted)
    if whole is not None:
        mutants.append(whole)
    return Change(base, parted, tuple(change.path for change in changes), tuple(mutants), tuple(skipped))
