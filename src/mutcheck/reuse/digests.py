"""Digests of a Python file: the file whole, its module-level code (each function's body left out,
or a test function left out whole) and each function's own code, by the name Python gives its code.

Code is compared as parsed (`ast.dump`), so comments, blank lines and moved lines change nothing;
a file that does not parse is compared whole.
"""

import ast
import hashlib
from dataclasses import dataclass, field

_Def = ast.FunctionDef | ast.AsyncFunctionDef


def digest(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()[:20]


@dataclass(frozen=True)
class SourceDigests:
    whole: str
    module_level: str  # decorators, signatures and every statement outside a function's body
    functions: dict[str, str] = field(default_factory=dict)  # qualified name -> its defs' code
    classes: frozenset[str] = frozenset()

    def function(self, qualname: str) -> str:
        """The code of `qualname`, or of the function holding it (a lambda or comprehension has no
        `def`); a class body's and the module's code are module-level code; "" for a name the file
        no longer has."""
        name = qualname
        while name and name != "<module>":
            if name in self.functions:
                return self.functions[name]
            if name in self.classes:
                return self.module_level
            name = name.rpartition(".")[0].removesuffix(".<locals>")
        return self.module_level if name == "<module>" else ""


def _is_test(node: ast.stmt, in_test_class: bool) -> bool:
    return isinstance(node, _Def) and (node.name.startswith("test") or in_test_class)


class _Split(ast.NodeTransformer):
    """Collects each function's code under its qualified name and leaves a stub in its place; with
    `tests`, a test function (or a `Test` class's method) goes whole, decorators included: a test
    added or edited concerns the mutants its own file's tests reach, not every mutant."""

    def __init__(self, tests: bool) -> None:
        self.tests = tests
        self.scope: list[str] = []
        self.parts: dict[str, list[str]] = {}
        self.classes: set[str] = set()

    def _visit_def(self, node: _Def) -> ast.AST | None:
        qualname = ".".join([*self.scope, node.name])
        self.parts.setdefault(qualname, []).append(ast.dump(node))
        self.scope += [node.name, "<locals>"]
        self.generic_visit(node)
        self.scope[-2:] = []
        node.body = [ast.Expr(ast.Constant(...))]
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _visit_def

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self.classes.add(".".join([*self.scope, node.name]))
        self.scope.append(node.name)
        test_class = self.tests and node.name.startswith("Test")
        node.body = [self.visit(child) for child in node.body if not (self.tests and _is_test(child, test_class))]
        node.body = [child for child in node.body if child is not None] or [ast.Pass()]
        self.scope.pop()
        return node

    def visit_Module(self, node: ast.Module) -> ast.AST:
        node.body = [self.visit(child) for child in node.body if not (self.tests and _is_test(child, False))]
        return node


def source_digests(source: bytes, tests: bool = False) -> SourceDigests:
    """The digests of one file's text; `tests`: a test module's (see `_Split`)."""
    whole = digest(source)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return SourceDigests(whole, whole)
    split = _Split(tests)
    split.visit(tree)
    functions = {name: digest("\0".join(parts)) for name, parts in split.parts.items()}
    return SourceDigests(whole, digest(ast.dump(tree)), functions, frozenset(split.classes))
