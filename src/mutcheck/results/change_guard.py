"""The results' change guard: what `--revert BASE` compared, the hunks it skipped, what guarding tests assert."""

import ast
from pathlib import Path
from typing import TYPE_CHECKING

from mutcheck.core.change_labels import WHOLE_CHANGE
from mutcheck.core.source_text import read_source
from mutcheck.results.matrix import Matrix
from mutcheck.results.model import ChangeGuard, SkippedHunk

if TYPE_CHECKING:  # results are written without LibCST
    from mutcheck.mutation.revert import Change

ABOUT_LENGTH = 160  # one line of a table cell


def _definition(body: list[ast.stmt], name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | None:
    """The last definition of `name` in `body`, as the module ends up binding it."""
    found = None
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            found = node
    return found


def _in_words(name: str, parameters: str) -> str:
    words = name.removeprefix("test_").removeprefix("test").replace("_", " ").strip() or name
    return f"{words} {parameters}" if parameters else words


def what_it_asserts(root: Path, test_id: str) -> str:
    """What a test asserts, in one line: its docstring's first line, or else its name in words
    (with its parameters). The file is parsed, never imported."""
    path, *names = test_id.split("::")
    last, bracket, parameters = (names[-1] if names else path).partition("[")
    words = _in_words(last, bracket + parameters)
    try:
        tree = ast.parse(read_source(root / path)[0])
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return words
    node: ast.AST | None = tree
    for name in [*names[:-1], last] if names else []:
        node = _definition(getattr(node, "body", []), name)
        if node is None:
            return words
    docstring = ast.get_docstring(node) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    first_line = next((line.strip() for line in (docstring or "").splitlines() if line.strip()), "")
    if not first_line:
        return words
    return first_line if len(first_line) <= ABOUT_LENGTH else first_line[: ABOUT_LENGTH - 1] + "…"


def change_guard_section(change: "Change", matrix: Matrix, root: Path) -> ChangeGuard:
    """The change as compared, its skipped hunks, and a line on each test that fails with the
    whole change reverted (the A/B table's rows)."""
    whole = next((result for result in matrix.results if result.applied.mutant.id == WHOLE_CHANGE), None)
    return ChangeGuard(
        base=change.base,
        merge_base=change.merge_base,
        files=list(change.files),
        skipped=[SkippedHunk(**vars(hunk)) for hunk in change.skipped],
        about={test: what_it_asserts(root, test) for test in (whole.killers if whole else ())},
    )
