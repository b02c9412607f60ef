"""Where an edit that no swap can carry sits, named for the fallback's reason: a module's statement,
a class body, or a function's header (a decorator, a default, an annotation), each run by code
around the function rather than in its body."""

import ast
import functools
from collections.abc import Callable

from mutcheck.core.source_text import Span

MODULE_STATEMENT = "module-statement"
CLASS_BODY = "class-body"
FUNCTION_HEADER = "function-header"
OUTSIDE_FUNCTION = "outside-function"  # none of these: an edit across several of them

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def place_of(source: str, span: Span) -> str:
    """The kind of place, outside any one function body, that `span` of `source` lies in."""
    tree = _parsed(source)
    if tree is None:
        return OUTSIDE_FUNCTION
    lines = source.splitlines(keepends=True)

    def position(line: int, byte_column: int) -> tuple[int, int]:
        """ast's (line, UTF-8 byte column) as (line, character column), as spans count."""
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return line, len(text.encode("utf-8")[:byte_column].decode("utf-8", "replace"))

    start, end = (span.start_line, span.start_column), (span.end_line, span.end_column)

    def holds(node: ast.AST) -> bool:
        first = position(node.lineno, node.col_offset)
        last = position(node.end_lineno or node.lineno, node.end_col_offset or 0)
        return first <= start and end <= last

    place = MODULE_STATEMENT
    body: list[ast.stmt] = tree.body
    while True:
        inner = next((node for node in body if holds(node) or _decorated_holds(node, holds)), None)
        if inner is None:
            return place
        if isinstance(inner, _FUNCTIONS):
            if not any(holds(statement) for statement in inner.body):
                return FUNCTION_HEADER
            # in its body: a nested function's header, evaluated each time this one runs, or else
            # something no swap carried for another cause
            place, body = OUTSIDE_FUNCTION, inner.body
            continue
        if isinstance(inner, ast.ClassDef):
            if not any(holds(statement) for statement in inner.body):
                return CLASS_BODY  # its decorators, bases or keywords: the class statement
            place, body = CLASS_BODY, inner.body
            continue
        # a compound statement of the module or class body (`if`, `try`, `with`, …): what it holds
        nested = [child for name in ("body", "orelse", "finalbody") for child in getattr(inner, name, [])]
        clauses = [*getattr(inner, "handlers", []), *getattr(inner, "cases", [])]  # `except`, `case`
        blocks = nested + [statement for clause in clauses for statement in clause.body]
        if not any(holds(child) or _decorated_holds(child, holds) for child in blocks):
            return place
        body = blocks


@functools.lru_cache(maxsize=4)  # a file's mutants are placed one after another
def _parsed(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def _decorated_holds(node: ast.AST, holds: Callable[[ast.AST], bool]) -> bool:
    """A decorated definition holds its decorators too, which lie before its own first line."""
    return isinstance(node, (*_FUNCTIONS, ast.ClassDef)) and any(holds(decorator) for decorator in node.decorator_list)
