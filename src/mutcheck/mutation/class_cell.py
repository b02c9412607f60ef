"""A method's `__class__` cell, kept when an edit deletes the method's last `super()`: the class body
then makes the cell as before, the edit stays inside the method, and a swap can carry it.

Python makes the cell for a class whose methods name `super` or `__class__`, and each such method
closes over it. A method that no longer names either would change its class body's code, which ran
at import, so the edit could only run in a copy. An `if False: __class__` statement keeps the
method closing over the cell: the compiler emits no code for it, and its name is all it takes. The
one trace of it is the name in the mutated method's `co_freevars`, which only code introspection
sees."""

import ast
from types import CodeType

from mutcheck.host.swap import definitions, first_line, iter_code

CELL = "__class__"


def _holding(code: CodeType) -> set[tuple[str, int]]:
    """The functions in `code` that close over a class cell, by qualified name and first line."""
    return {(nested.co_qualname, nested.co_firstlineno) for nested in iter_code(code) if CELL in nested.co_freevars}


def lost_cells(original: CodeType, mutated: CodeType) -> set[tuple[str, int]]:
    """The functions (by qualified name and first line) that close over their class's cell in
    `original` and no longer do in `mutated`."""
    return _holding(original) - _holding(mutated)


def keep_cells(tree: ast.Module, lost: set[tuple[str, int]]) -> bool:
    """Put `if False: __class__` in each definition of `tree` that `lost` names (after its docstring,
    on the line of the statement it precedes); False when it names none of them."""
    found = [node for name, node in definitions(tree) if (name, first_line(node)) in lost]
    for node in found:
        at = 1 if ast.get_docstring(node, clean=False) is not None else 0
        anchor = node.body[min(at, len(node.body) - 1)]
        dead = ast.If(ast.Constant(False), [ast.Expr(ast.Name(CELL, ast.Load()))], [])
        for part in ast.walk(dead):
            ast.copy_location(part, anchor)
        node.body.insert(at, dead)
    return bool(found)


def carried(
    source: str, filename: str, original: CodeType, mutated: CodeType, flags: int = 0, shift: int = 0
) -> tuple[ast.Module | None, CodeType]:
    """The edited code as a swap carries it: `mutated` (`source` compiled, `shift` lines further down
    the file than `source` has them), or, when the edit drops a method's class cell, `source` with
    the cell kept, as a tree (at the file's lines) and compiled with `flags`."""
    lost = lost_cells(original, mutated)
    if not lost:
        return None, mutated
    tree = ast.increment_lineno(ast.parse(source, filename), shift)
    if not keep_cells(tree, lost):
        return None, mutated
    return tree, compile(tree, filename, "exec", flags=flags, dont_inherit=True)
