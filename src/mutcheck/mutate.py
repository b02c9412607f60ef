"""LibCST edits: find a mutant's node in its scope, apply the edit, diff it, reject no-ops."""

import ast
import difflib
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from mutcheck.catalog import Mutant
from mutcheck.problems import Problem


@dataclass(frozen=True)
class Span:
    """1-based, inclusive lines; columns as LibCST counts them (0-based)."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class AppliedMutant:
    mutant: Mutant
    original: str
    mutated: str
    diff: str
    span: Span
    equivalent_by_compilation: bool


class MutationError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _ast_key(code: str, expression: bool) -> str | None:
    """A layout-free fingerprint of a code fragment (None if it does not parse that way)."""
    try:
        tree = ast.parse(code.strip(), mode="eval") if expression else ast.parse(textwrap.dedent(code))
    except SyntaxError:
        return None
    return ast.dump(tree)


class _ScopeFinder(cst.CSTVisitor):
    """Qualified names (`f`, `Class.method`, `outer.inner`) of every function and class."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.scopes: dict[str, cst.CSTNode] = {}

    def _enter(self, node: cst.FunctionDef | cst.ClassDef) -> None:
        self.stack.append(node.name.value)
        self.scopes.setdefault(".".join(self.stack), node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._enter(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._enter(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.stack.pop()


class _MatchCollector(cst.CSTVisitor):
    """Nodes (or runs of statements) inside a scope whose code has the same AST as `match`."""

    def __init__(self, module: cst.Module, key: str, expression: bool, statement_count: int) -> None:
        self.module = module
        self.key = key
        self.expression = expression
        self.statement_count = statement_count
        self.matches: list[tuple[cst.CSTNode, ...]] = []
        self.candidates: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self.expression and isinstance(node, cst.BaseExpression):
            code = self.module.code_for_node(node)
            if _ast_key(code, expression=True) == self.key:
                self.matches.append((node,))
            elif len(self.candidates) < 200:
                self.candidates.append(code)
        if not self.expression and isinstance(node, cst.IndentedBlock | cst.Module):
            self._scan_block(node.body)
        return True

    def _scan_block(self, body: Sequence[cst.BaseStatement]) -> None:
        count = self.statement_count
        for start in range(len(body) - count + 1):
            run = tuple(body[start : start + count])
            code = "".join(self.module.code_for_node(statement) for statement in run)
            if _ast_key(code, expression=False) == self.key:
                self.matches.append(run)
        self.candidates.extend(self.module.code_for_node(statement).strip() for statement in body)


class _Replacer(cst.CSTTransformer):
    def __init__(self, targets: tuple[cst.CSTNode, ...], replacement: Sequence[cst.CSTNode] | cst.CSTNode) -> None:
        self.targets = targets
        self.replacement = replacement

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:
        if isinstance(self.replacement, cst.CSTNode):
            return self.replacement if original_node is self.targets[0] else updated_node
        if isinstance(original_node, cst.IndentedBlock) and any(s is self.targets[0] for s in original_node.body):
            body = list(updated_node.body)
            start = next(i for i, s in enumerate(original_node.body) if s is self.targets[0])
            body[start : start + len(self.targets)] = list(self.replacement)
            return updated_node.with_changes(body=body or [cst.SimpleStatementLine([cst.Pass()])])
        return updated_node


def _fail(mutant: Mutant, field: str, message: str) -> MutationError:
    return MutationError(Problem(mutant.source, mutant.id, field, message))


def _is_expression_edit(mutant: Mutant) -> bool:
    """An expression edit when both sides are expressions; deletions and the rest edit statements."""
    if mutant.replace is None:
        return False
    return _ast_key(mutant.match, expression=True) is not None and _ast_key(mutant.replace, expression=True) is not None


def _parse_replacement(mutant: Mutant, expression: bool) -> cst.CSTNode | list[cst.BaseStatement]:
    if mutant.replace is None:
        return []
    try:
        if expression:
            return cst.parse_expression(mutant.replace.strip())
        return list(cst.parse_module(textwrap.dedent(mutant.replace)).body)
    except cst.ParserSyntaxError as error:
        kind = "an expression" if _ast_key(mutant.match, expression=True) is not None else "statements"
        message = f"does not parse as {kind}, the kind of node match is: {str(error).splitlines()[0]}"
        raise _fail(mutant, "replace", message) from error


def _code_fingerprint(code: CodeType) -> tuple:
    """Byte code and constants, recursively, without line numbers."""
    constants = tuple(_code_fingerprint(c) if isinstance(c, CodeType) else (type(c), repr(c)) for c in code.co_consts)
    return (code.co_code, constants, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)


def _compiles_identically(original: str, mutated: str, filename: str) -> bool:
    try:
        return _code_fingerprint(compile(original, filename, "exec")) == _code_fingerprint(
            compile(mutated, filename, "exec")
        )
    except SyntaxError:
        return False


def _preview(candidates: list[str]) -> str:
    shown = sorted({candidate.strip().splitlines()[0] for candidate in candidates if candidate.strip()}, key=len)
    return "; ".join(repr(candidate) for candidate in shown[:8])


def apply_mutant(mutant: Mutant, root: Path) -> AppliedMutant:
    """The mutated source of `mutant.file`, or MutationError naming the field at fault."""
    path = root / mutant.file
    if not path.is_file():
        raise _fail(mutant, "file", f"no such file: {mutant.file}")
    original = path.read_text(encoding="utf-8")
    try:
        module = cst.parse_module(original)
    except cst.ParserSyntaxError as error:
        raise _fail(mutant, "file", f"does not parse: {str(error).splitlines()[0]}") from error
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    finder = _ScopeFinder()
    module.visit(finder)
    scope = finder.scopes.get(mutant.scope)
    if scope is None:
        known = ", ".join(sorted(finder.scopes)) or "none"
        raise _fail(mutant, "scope", f"no function or class {mutant.scope!r} in {mutant.file} (known: {known})")

    expression = _is_expression_edit(mutant)
    replacement = _parse_replacement(mutant, expression)
    key = _ast_key(mutant.match, expression=expression)
    if key is None:
        raise _fail(mutant, "match", "does not parse as " + ("an expression" if expression else "statements"))
    statement_count = 0 if expression else len(ast.parse(textwrap.dedent(mutant.match)).body)
    collector = _MatchCollector(module, key, expression, statement_count)
    scope.visit(collector)
    if len(collector.matches) != 1:
        found = "not found" if not collector.matches else f"found {len(collector.matches)} times"
        raise _fail(mutant, "match", f"{found} in {mutant.scope}; candidates: {_preview(collector.candidates)}")
    targets = collector.matches[0]
    mutated = module.visit(_Replacer(targets, replacement)).code
    try:
        mutated_tree = ast.parse(mutated)
    except SyntaxError as error:
        raise _fail(mutant, "replace", f"the edited file does not parse: {error}") from error
    if ast.dump(mutated_tree) == ast.dump(ast.parse(original)):
        raise _fail(mutant, "replace", "rejected: the edit leaves the code unchanged (AST-equal)")

    positions = wrapper.resolve(PositionProvider)
    first: CodeRange = positions[targets[0]]
    last: CodeRange = positions[targets[-1]]
    span = Span(first.start.line, first.start.column, last.end.line, last.end.column)
    diff = "".join(
        difflib.unified_diff(
            original.splitlines(keepends=True),
            mutated.splitlines(keepends=True),
            fromfile=f"a/{mutant.file}",
            tofile=f"b/{mutant.file}",
        )
    )
    return AppliedMutant(
        mutant=mutant,
        original=original,
        mutated=mutated,
        diff=diff,
        span=span,
        equivalent_by_compilation=_compiles_identically(original, mutated, mutant.file),
    )
