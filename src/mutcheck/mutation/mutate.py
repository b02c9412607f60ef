"""LibCST edits: find a mutant's node in its scope, splice in the edit, diff it, reject no-ops."""

import ast
import io
import textwrap
import tokenize
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from mutcheck.catalog.catalog import Mutant
from mutcheck.core.module_scope import MODULE_SCOPE
from mutcheck.core.problems import Problem
from mutcheck.core.source_text import Span, edit_diff, line_offsets, read_source, replaced
from mutcheck.mutation.edit_code import EditCode, FileCode
from mutcheck.mutation.outside import place_of
from mutcheck.mutation.scopes import Scopes

_BINARY_PRECEDENCE = {
    ast.BitOr: 6,
    ast.BitXor: 7,
    ast.BitAnd: 8,
    ast.LShift: 9,
    ast.RShift: 9,
    ast.Add: 10,
    ast.Sub: 10,
    ast.Mult: 11,
    ast.Div: 11,
    ast.FloorDiv: 11,
    ast.Mod: 11,
    ast.MatMult: 11,
    ast.Pow: 13,
}


@dataclass(frozen=True)
class FileEdit:
    """A file as a mutant has it: its whole text, or None when the mutant removes it; or, with
    `link`, a symbolic link to that path (`text` is then what the link leads to, for the diff)."""

    path: str
    text: str | None
    encoding: str = "utf-8"
    link: str | None = None


@dataclass(frozen=True)
class AppliedMutant:
    mutant: Mutant
    original: str
    diff: str
    span: Span  # the original text the edit replaces: `replacement` in its place makes `mutated`
    replacement: str
    equivalent_by_compilation: bool
    scope_qualname: str  # the scope as Python names its code, e.g. "outer.<locals>.inner"
    swap_target: str | None  # the innermost function whose code carries the mutant, or None: run a copy
    encoding: str = "utf-8"  # the source file's, from its coding cookie (Python's default without one)
    # A change that spans files (or adds or removes one) lists every file it writes; then it runs
    # in a copy, and `mutated` is only `file`'s text, for the diff and the reports.
    writes: tuple[FileEdit, ...] = ()
    marked: bytes | None = None  # a swap's marked code for the host (`swap.marked_payload`)

    @property
    def mutated(self) -> str:
        """The file's text with the edit; made when asked for, so the thousand mutants of a file
        hold its text once."""
        return replaced(self.original, _offsets(self.original), self.span, self.replacement)

    def edited_range(self) -> tuple[int, int]:
        """Where in `original` (character offsets) the text `replacement` takes the place of starts and ends."""
        offsets = _offsets(self.original)
        span = self.span
        return offsets[span.start_line - 1] + span.start_column, offsets[span.end_line - 1] + span.end_column

    def copy_reason(self) -> str:
        """Why a mutant no swap carries runs on the fallback path: the files it writes whole, or
        where in its file the edit sits (see `outside`)."""
        return "whole-file" if self.writes else place_of(self.original, self.span)

    def files_written(self) -> tuple[FileEdit, ...]:
        return self.writes or (FileEdit(self.mutant.file, self.mutated, self.encoding),)


_offsets = lru_cache(maxsize=16)(line_offsets)


class MutationError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _parse_expression(code: str) -> ast.expr | None:
    """`code` as one expression, even with the line breaks it has inside its brackets in a file
    (parsed inside brackets then, which must not close before the end: `a) or (b` is not one)."""
    if not code.strip():
        return None
    try:
        return ast.parse(code.strip(), mode="eval").body
    except SyntaxError:
        pass
    wrapped = f"(\n{code}\n)"
    try:
        expression = ast.parse(wrapped, mode="eval").body
    except SyntaxError:
        return None
    return expression if _closes_only_at_the_end(wrapped) else None


def _closes_only_at_the_end(wrapped: str) -> bool:
    depth = 0
    brackets = [
        token.string
        for token in tokenize.generate_tokens(io.StringIO(wrapped).readline)
        if token.type == tokenize.OP and token.string in "()[]{}"
    ]
    for position, bracket in enumerate(brackets):
        depth += 1 if bracket in "([{" else -1
        if depth == 0 and position < len(brackets) - 1:
            return False
    return True


def _parse_or_none(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


@lru_cache(maxsize=65536)
def _parse_block(code: str) -> tuple[str, ast.Module]:
    """Statements moved to column 0, and their tree (or the SyntaxError of the text as given).

    Text copied from a file from its first character on has an unindented first line: it takes the
    indentation of the least indented line after it when only that parses, or when that parses to
    the same tree (a multi-line string's content is not moved)."""
    dedented = textwrap.dedent(code.strip("\n"))
    indents = [len(line) - len(line.lstrip()) for line in dedented.splitlines()[1:] if line.strip()]
    shifted_tree = None
    if indents and min(indents) > 0:
        shifted = textwrap.dedent(" " * min(indents) + dedented)
        shifted_tree = _parse_or_none(shifted)
    try:
        tree = ast.parse(dedented)
    except SyntaxError:
        if shifted_tree is None:
            raise
        return shifted, shifted_tree
    if shifted_tree is not None and ast.dump(shifted_tree) == ast.dump(tree):
        return shifted, shifted_tree
    return dedented, tree


@lru_cache(maxsize=65536)
def fragment_key(code: str, expression: bool) -> str | None:
    """A layout-free fingerprint of a code fragment (None if it does not parse that way): how the
    catalog compares a `match` with the code, and `suggest` tells its proposals apart."""
    if expression:
        node = _parse_expression(code)
        return None if node is None else ast.dump(node)
    try:
        return ast.dump(_parse_block(code)[1])
    except SyntaxError:
        return None


def _one_line(code: str, expression: bool) -> str:
    """A candidate as `match` can give it: its own text when on one line, else without line breaks
    and comments (a compound statement by its first line)."""
    code = code.strip()
    if "\n" not in code:
        return code
    tree = _parse_expression(code) if expression else _parse_block(code)[1]
    if tree is None:  # a starred element, which is no expression on its own
        return " ".join(code.split())
    return ast.unparse(tree).splitlines()[0]


Match = tuple[tuple[cst.CSTNode, ...], Sequence[cst.CSTNode]]  # the nodes, and their block for statements


class _MatchIndex(cst.CSTVisitor):
    """Every node (or run of `statement_count` statements) inside a scope, by the layout-free
    fingerprint of its code: built once per scope and kind, then each mutant is a lookup.

    In the module scope, function and class definitions are left out (a whole one may still be a
    statement of the match): they are scopes of their own."""

    def __init__(self, module: cst.Module, expression: bool, statement_count: int, skip_definitions: bool) -> None:
        self.module = module
        self.expression = expression
        self.statement_count = statement_count
        self.skip_definitions = skip_definitions
        self.matches: dict[str | None, list[Match]] = {}
        self.candidates: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self.skip_definitions and isinstance(node, cst.FunctionDef | cst.ClassDef):
            return False
        if self.expression and isinstance(node, cst.BaseExpression):
            code = self.module.code_for_node(node)
            self.matches.setdefault(fragment_key(code, expression=True), []).append(((node,), ()))
            if len(self.candidates) < 200:
                self.candidates.append(code)
        if not self.expression and isinstance(node, cst.IndentedBlock | cst.Module):
            self._scan_block(node.body)
        return True

    def _scan_block(self, body: Sequence[cst.BaseStatement]) -> None:
        count = self.statement_count
        codes = [self.module.code_for_node(statement) for statement in body]
        for start in range(len(body) - count + 1):
            key = fragment_key("".join(codes[start : start + count]), expression=False)
            self.matches.setdefault(key, []).append((tuple(body[start : start + count]), body))
        self.candidates.extend(codes)


@dataclass(frozen=True)
class _ParsedFile:
    text: str
    filename: str
    module: cst.Module
    finder: Scopes
    positions: dict[cst.CSTNode, CodeRange]
    line_offsets: tuple[int, ...]
    file_code: FileCode | None  # None when the file does not compile
    indexes: dict[tuple[str, bool, int], _MatchIndex] = field(default_factory=dict, compare=False)

    def index(self, scope: str, expression: bool, statement_count: int) -> _MatchIndex:
        """The scope's match index for this kind of edit, built on first use."""
        key = (scope, expression, statement_count)
        if key not in self.indexes:
            index = _MatchIndex(self.module, expression, statement_count, scope == MODULE_SCOPE)
            self.finder.scopes[scope].visit(index)
            self.indexes[key] = index
        return self.indexes[key]


@lru_cache(maxsize=64)
def _parse_file(text: str, filename: str) -> _ParsedFile:
    """Parsing, scopes and positions once per file content, shared by all its mutants."""
    module = cst.parse_module(text)
    finder = Scopes(module)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    offsets = line_offsets(text)
    try:
        file_code = FileCode(filename, text, offsets, compile(text, filename, "exec", dont_inherit=True))
    except SyntaxError:
        file_code = None
    positions = dict(wrapper.resolve(PositionProvider))
    return _ParsedFile(text, filename, module, finder, positions, offsets, file_code)


def _fail(mutant: Mutant, field: str, message: str) -> MutationError:
    return MutationError(Problem(mutant.source, mutant.id, field, message))


def _is_expression_edit(mutant: Mutant) -> bool:
    """An expression edit when both sides are expressions; deletions and the rest edit statements."""
    if mutant.replace is None:
        return False
    return (
        fragment_key(mutant.match, expression=True) is not None
        and fragment_key(mutant.replace, expression=True) is not None
    )


def _check_replacement(mutant: Mutant, expression: bool) -> None:
    if mutant.replace is None or fragment_key(mutant.replace, expression=expression) is not None:
        return
    kind = "an expression" if fragment_key(mutant.match, expression=True) is not None else "statements"
    try:
        _parse_block(mutant.replace)
        detail = "it parses only as a statement"
    except SyntaxError as error:
        detail = f"{error.msg} (line {error.lineno})"
    raise _fail(mutant, "replace", f"does not parse as {kind}, the kind of node match is: {detail}")


def _precedence(node: ast.expr) -> int:
    """How tightly an expression binds (Python's operator table; higher binds tighter)."""
    match node:
        case ast.NamedExpr():
            return -1
        case ast.Lambda():
            return 0
        case ast.IfExp():
            return 1
        case ast.BoolOp(op=ast.Or()):
            return 2
        case ast.BoolOp():
            return 3
        case ast.UnaryOp(op=ast.Not()):
            return 4
        case ast.Compare():
            return 5
        case ast.BinOp(op=op):
            return _BINARY_PRECEDENCE[type(op)]
        case ast.UnaryOp():
            return 12
        case ast.Await():
            return 14
    return 15


def _expression_source(match: str, replace: str, column: int) -> str:
    """The replacement for a node at `column`: its continuation lines moved to that column, and
    parenthesized when it binds more loosely than what it replaces or spans lines (the closing
    bracket on a line of its own when the last line ends in a comment)."""
    indent = " " * column
    first, *rest = replace.strip().splitlines()
    source = "\n".join([first, *textwrap.indent(textwrap.dedent("\n".join(rest)), indent).splitlines()])
    if not rest and _precedence(_parse_expression(source)) >= _precedence(_parse_expression(match)):
        return source
    return f"({source})" if _parse_expression(f"({source})") is not None else f"({source}\n{indent})"


def _splice(parsed: _ParsedFile, mutant: Mutant, targets: tuple[cst.CSTNode, ...], block: Sequence) -> tuple[Span, str]:
    """The span of the file's text the edit replaces, and what replaces it (positions, not a tree
    rewrite: fast)."""
    first, last = parsed.positions[targets[0]], parsed.positions[targets[-1]]
    span = Span(first.start.line, first.start.column, last.end.line, last.end.column)
    if not block:
        return span, _expression_source(mutant.match, mutant.replace, first.start.column)
    if mutant.replace is None and len(targets) < len(block):
        # Deleted with their whole lines (indentation, trailing comment, line break): the span
        # runs from the first line's start to the last line's end, its line break included.
        line_end = parsed.line_offsets[last.end.line] - parsed.line_offsets[last.end.line - 1]
        return Span(first.start.line, 0, last.end.line, line_end), ""
    lines = _parse_block(mutant.replace or "pass")[0].splitlines()
    return span, ("\n" + " " * first.start.column).join(lines)


def apply_mutant(mutant: Mutant, root: Path) -> AppliedMutant:
    """The mutated source of `mutant.file`, or MutationError naming the field at fault."""
    path = root / mutant.file
    if not path.is_file():
        raise _fail(mutant, "file", f"no such file: {mutant.file}")
    try:
        text, encoding = read_source(path)
    except (SyntaxError, UnicodeDecodeError) as error:
        raise _fail(mutant, "file", f"cannot be read as Python source: {error}") from error
    return apply_to_text(mutant, text, encoding)


def apply_to_text(mutant: Mutant, text: str, encoding: str = "utf-8") -> AppliedMutant:
    """`apply_mutant` on a text of `mutant.file` (e.g. as it was at a base commit)."""
    try:
        parsed = _parse_file(text, mutant.file)
    except cst.ParserSyntaxError as error:
        raise _fail(mutant, "file", f"does not parse: {str(error).splitlines()[0]}") from error
    scope = parsed.finder.scopes.get(mutant.scope)
    if mutant.scope in parsed.finder.ambiguous:
        lines = ", ".join(str(parsed.positions[node].start.line) for node in parsed.finder.ambiguous[mutant.scope])
        message = f"names several definitions in {mutant.file} (lines {lines}); a scope must name one"
        raise _fail(mutant, "scope", message)
    if scope is None:
        known = ", ".join(sorted(parsed.finder.scopes)) or "none"
        raise _fail(mutant, "scope", f"no function or class {mutant.scope!r} in {mutant.file} (known: {known})")

    expression = _is_expression_edit(mutant)
    _check_replacement(mutant, expression)
    key = fragment_key(mutant.match, expression=expression)
    if key is None:
        raise _fail(mutant, "match", "does not parse as " + ("an expression" if expression else "statements"))
    statement_count = 0 if expression else len(_parse_block(mutant.match)[1].body)
    index = parsed.index(mutant.scope, expression, statement_count)
    matches = index.matches.get(key, [])
    if len(matches) != 1:
        if matches:
            lines = ", ".join(str(parsed.positions[nodes[0]].start.line) for nodes, _ in matches)
            raise _fail(mutant, "match", f"found {len(matches)} times in {mutant.scope} (lines {lines})")
        as_expression = None if expression else fragment_key(mutant.match, expression=True)
        if as_expression is not None and parsed.index(mutant.scope, True, 0).matches.get(as_expression):
            _check_replacement(mutant, expression=True)  # match is an expression there: the replace is at fault
        one_line = {_one_line(code, expression) for code in index.candidates}
        candidates = sorted(filter(None, one_line), key=lambda c: (len(c), c))[:8]
        preview = "; ".join(repr(candidate) for candidate in candidates)
        raise _fail(mutant, "match", f"not found in {mutant.scope}; candidates: {preview}")
    targets, block = matches[0]

    span, replacement = _splice(parsed, mutant, targets, block)
    try:
        replacement.encode(encoding)  # the fallback path writes the file in its own encoding
    except UnicodeEncodeError as error:
        raise _fail(mutant, "replace", f"has {error.object[error.start]!r}, which {encoding} cannot encode") from error
    scope_qualname = parsed.finder.qualnames[mutant.scope]
    try:
        compiled = _compile_edit(parsed, span, replacement, scope_qualname)
    except SyntaxError as error:
        raise _fail(
            mutant, "replace", f"the edited file does not compile: {error.msg} (line {error.lineno})"
        ) from error
    if mutant.replace is not None and fragment_key(mutant.replace, expression=expression) == key:
        raise _fail(mutant, "replace", "rejected: the edit leaves the code unchanged (AST-equal)")
    return AppliedMutant(
        mutant=mutant,
        original=parsed.text,
        diff=edit_diff(mutant.file, parsed.text, parsed.line_offsets, span, replacement),
        span=span,
        replacement=replacement,
        equivalent_by_compilation=compiled.equivalent,
        scope_qualname=scope_qualname,
        swap_target=compiled.swap_target,
        encoding=encoding,
        marked=compiled.marked,
    )


def file_code_of(applied: AppliedMutant) -> FileCode | None:
    """The code of the file a mutant edits, shared by every mutant of that text; None when the file
    does not compile."""
    return _parse_file(applied.original, applied.mutant.file).file_code


def _compile_edit(parsed: _ParsedFile, span: Span, replacement: str, scope: str) -> EditCode:
    """The edit compiled; a file that does not compile unedited is never swapped nor equivalent.
    Raises SyntaxError when the edited file does not compile."""
    if parsed.file_code is not None:
        return parsed.file_code.compile_edit(span, replacement, scope)
    compile(replaced(parsed.text, parsed.line_offsets, span, replacement), parsed.filename, "exec")
    return EditCode(False, None, None)


def scope_source(text: str, filename: str, scope: str) -> str | None:
    """The source of a scope (a definition's whole text, decorators included) in a file's text; None
    when the file does not parse or has no such scope (or several)."""
    try:
        parsed = _parse_file(text, filename)
    except cst.ParserSyntaxError:
        return None
    node = parsed.finder.scopes.get(scope)
    if node is None or scope in parsed.finder.ambiguous:
        return None
    if node is parsed.module:
        return text
    where = parsed.positions[node]
    return text[parsed.line_offsets[where.start.line - 1] : parsed.line_offsets[where.end.line]]


def candidate_nodes(mutant: Mutant, text: str, lines: range) -> Iterator[tuple[str, str, int, int]]:
    """The nodes of `mutant`'s kind (expression or statements) in a file's text that a `match` would
    find exactly once in the scope holding `lines`: the mutant's own scope if it still does, else the
    innermost that does. Each as (scope, code as `match` gives it, first line, last line)."""
    try:
        parsed = _parse_file(text, mutant.file)
    except cst.ParserSyntaxError:
        return
    holding = [
        (name, where)
        for name, node in parsed.finder.scopes.items()
        if node is not parsed.module
        and (where := parsed.positions[node]).start.line <= lines.start
        and lines.stop - 1 <= where.end.line
    ]
    names = [name for name, _ in holding]
    if mutant.scope in names:
        scope = mutant.scope
    elif holding:
        scope = min(holding, key=lambda pair: pair[1].end.line - pair[1].start.line)[0]
    else:
        scope = MODULE_SCOPE
    expression = _is_expression_edit(mutant)
    count = 0 if expression else len(_parse_block(mutant.match)[1].body)
    for matches in parsed.index(scope, expression, count).matches.values():
        if len(matches) != 1:
            continue
        nodes, _ = matches[0]
        first, last = parsed.positions[nodes[0]], parsed.positions[nodes[-1]]
        code = text[
            parsed.line_offsets[first.start.line - 1] + first.start.column : parsed.line_offsets[last.end.line - 1]
            + last.end.column
        ]
        if not expression:  # statements as the catalog writes them: the first one's column is column 0
            head, *rest = code.split("\n")
            column = first.start.column
            code = "\n".join([head, *(line[column:] if not line[:column].strip() else line for line in rest)])
        yield scope, code, first.start.line, last.end.line


def unmarked_equivalents(applied: list[AppliedMutant]) -> list[Problem]:
    """Entries whose edit compiles to the original byte code but that expect a kill or a gap: no
    test can kill them, so the catalog must say `equivalent`."""
    message = "compiles to the original byte code (equivalent by compilation); no test can kill it"
    return [
        Problem(mutant.source, mutant.id, "survives" if mutant.survives else "killed_by", message)
        for mutant in (one.mutant for one in applied if one.equivalent_by_compilation)
        if not mutant.equivalent
    ]
