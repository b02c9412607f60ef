"""What an edit of a file amounts to: whether it changes more than the layout, whether its byte code
changes, the function a swap puts it in, and that function's code with the evidence marker. An edit
inside one function is parsed and compiled with that function alone, under copies of the class headers
around it, and compared with the file's code of that function: the work grows with the function, not
with the file, so a file's thousand edits cost a thousand functions."""

import __future__

import ast
import bisect
from dataclasses import dataclass
from functools import cached_property, reduce
from operator import or_
from types import CodeType

from mutcheck.core.source_text import Span
from mutcheck.host.swap import (
    chain_unit,
    code_fingerprint,
    compile_marked,
    evidence_code,
    first_line,
    function_swap_chain,
    mark_evidence,
    marked_module,
    marked_payload,
    nested_codes,
    own_parts,
    swap_unit,
)
from mutcheck.mutation.class_cell import carried

_FUTURE_FLAGS = reduce(or_, (getattr(__future__, name).compiler_flag for name in __future__.all_feature_names))
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def layout_free(tree: ast.Module) -> str:
    """The syntax tree without docstrings: equal for two texts that differ only in comments,
    docstrings or formatting (and for "" and a module of them). Changes `tree`."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, *_DEFINITIONS))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or ([] if isinstance(node, ast.Module) else [ast.Pass()])
    return ast.dump(tree)


def parsed(text: str, filename: str = "<unknown>") -> ast.Module | None:
    """`text`'s syntax tree, or None when it does not parse."""
    try:
        return ast.parse(text, filename)
    except (SyntaxError, ValueError):  # ValueError: a NUL byte (3.11)
        return None


@dataclass(frozen=True)
class EditCode:
    """An edit, compiled: `equivalent` when the byte code is the file's own; `swap_target` and
    `marked` as `AppliedMutant` holds them."""

    equivalent: bool
    swap_target: str | None
    marked: bytes | None


@dataclass(frozen=True)
class _Holder:
    """A function defined in the module's body or in classes defined there: its lines (decorators
    included), its qualified name, and each class around it (its name, indentation and first line)."""

    first_line: int
    last_line: int
    qualname: str
    classes: tuple[tuple[str, str, int], ...]


@dataclass(frozen=True)
class _Alone:
    """A holder compiled alone: the code around it there (the module's, then each class body's), the
    file's own code of the function, and where that sits in the file's code (see `swap.code_at`)."""

    around: tuple[CodeType, ...]
    function: CodeType
    positions: tuple[int, ...]


class FileCode:
    """One file's text (with its `line_offsets`) and its code compiled whole, for compiling its edits."""

    def __init__(self, path: str, text: str, offsets: tuple[int, ...], code: CodeType) -> None:
        self.path = path
        self.text = text
        self.offsets = offsets
        self.code = code
        self.flags = code.co_flags & _FUTURE_FLAGS  # its `from __future__` imports, for a function alone
        self._alone: dict[_Holder, _Alone | None] = {}
        self._layouts: dict[_Holder, str | None] = {}
        self._indexes: dict[int, dict[tuple[str, int], tuple[int, CodeType] | None]] = {}

    def same_layout(self, span: Span, replacement: str) -> bool | None:
        """Whether the edited file differs from the file in comments, docstrings and formatting
        only; None when it does not parse."""
        holder = self._holder_of(span)
        if holder is not None and self._shift(holder) >= 0 and (head := self._layout_alone(holder)) is not None:
            tree = self._tree_alone(holder, self._edited_holder(holder, span, replacement))
            if tree is not None:
                return layout_free(tree) == head
        tree = parsed(self._edited(0, len(self.text), span, replacement), self.path)
        return None if tree is None else layout_free(tree) == self._layout

    def edit_key(self, span: Span, replacement: str) -> str:
        """The edited file's syntax tree as a string, equal for two edits of this file exactly when
        their files parse alike: made from the function the edit lies in (the rest of the file is
        the file's own, line for line), else from the module's statement it lies in, else whole."""
        holder = self._holder_of(span)
        if holder is not None and self._shift(holder) >= 0:
            tree = self._tree_alone(holder, self._edited_holder(holder, span, replacement))
            if tree is not None:
                return f"{holder.first_line}:{ast.dump(tree)}"
        at = bisect.bisect_right(self._statements, (span.start_line, len(self.offsets))) - 1
        if at >= 0 and span.last_line <= self._statements[at][1]:
            first, end = self._statements[at]
            tree = parsed(self._edited(self.offsets[first - 1], self.offsets[end], span, replacement), self.path)
            if tree is not None:
                return f"@{first}:{ast.dump(tree)}"
        return ast.dump(ast.parse(self._edited(0, len(self.text), span, replacement), self.path))

    @cached_property
    def _statements(self) -> list[tuple[int, int]]:
        """The first and last line of each statement of the module (decorators included)."""
        return [
            (
                min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))]),
                node.end_lineno or node.lineno,
            )
            for node in ast.parse(self.text, self.path).body
        ]

    def compile_edit(self, span: Span, replacement: str, scope: str | None) -> EditCode:
        """The edit of `span` to `replacement`, compiled; `scope`: the qualified name a swap must lie
        in. Raises SyntaxError (or ValueError) when the edited file does not compile."""
        holder = self._holder_of(span)
        alone = self._compiled_alone(holder) if holder is not None else None
        if holder is not None and alone is not None:
            edit = self._compile_in(holder, alone, span, replacement, scope)
            if edit is not None:
                return edit
        mutated = self._edited(0, len(self.text), span, replacement)
        mutated_code = compile(mutated, self.path, "exec", dont_inherit=True)
        equivalent = code_fingerprint(self.code) == code_fingerprint(mutated_code)
        return EditCode(equivalent, *file_swap(mutated, self.path, self.code, mutated_code, scope))

    def _compile_in(
        self, holder: _Holder, alone: _Alone, span: Span, replacement: str, scope: str | None
    ) -> EditCode | None:
        """The edit compiled with its holder alone; None when that cannot tell (the edited lines no
        longer compile alone as that one function, or the edit reaches the code around it: a
        decorator, a default, a class cell), and the whole file must be compiled."""
        text = self._skeleton(holder) + self._edited_holder(holder, span, replacement)
        levels = self._compiled_levels(text, holder)
        if levels is None:
            return None
        shift = self._shift(holder)
        function = _shifted(levels[-1], shift)
        equivalent = code_fingerprint(alone.function) == code_fingerprint(function)
        tree, kept = carried(text, self.path, alone.function, function, self.flags, shift)
        if tree is not None:  # compiled with the method's class cell kept
            levels = self._levels(kept, holder)
            if levels is None:
                return None
            function = levels[-1]
        if any(own_parts(a) != own_parts(b) for a, b in zip(alone.around, levels, strict=False)):
            return None
        chain = function_swap_chain(alone.function, function)
        target = chain_unit(chain, scope)
        marked = None
        if chain is not None and target is not None:
            tree = tree or ast.increment_lineno(ast.parse(text, self.path), shift)
            if mark_evidence(tree, evidence_code(chain)):
                marked_levels = self._levels(compile_marked(tree, self.path, self.flags), holder)
                marked = marked_payload(alone.positions, marked_levels[-1]) if marked_levels else None
        return EditCode(equivalent, target, marked)

    def _edited(self, start: int, end: int, span: Span, replacement: str) -> str:
        """The text from offset `start` to `end`, with `span` (inside it) replaced."""
        at = self.offsets[span.start_line - 1] + span.start_column
        to = self.offsets[span.end_line - 1] + span.end_column
        return self.text[start:at] + replacement + self.text[to:end]

    def _edited_holder(self, holder: _Holder, span: Span, replacement: str) -> str:
        return self._edited(self.offsets[holder.first_line - 1], self.offsets[holder.last_line], span, replacement)

    def _holder_text(self, holder: _Holder) -> str:
        return self.text[self.offsets[holder.first_line - 1] : self.offsets[holder.last_line]]

    @cached_property
    def _layout(self) -> str:
        return layout_free(ast.parse(self.text, self.path))

    @cached_property
    def _holders(self) -> list[_Holder]:
        """Every holder, in the order of their lines (they never overlap)."""
        found: list[_Holder] = []
        lines = self.text.split("\n")

        def visit(body: list[ast.stmt], classes: tuple[tuple[str, str, int], ...]) -> None:
            for node in body:
                if getattr(node, "type_params", None):  # generics (3.12): their code nests in another
                    continue
                first = first_line(node)
                if isinstance(node, _DEFINITIONS):
                    qualname = ".".join([*(name for name, _, _ in classes), node.name])
                    found.append(_Holder(first, node.end_lineno or node.lineno, qualname, classes))
                elif isinstance(node, ast.ClassDef):
                    line = lines[node.lineno - 1]
                    visit(node.body, (*classes, (node.name, line[: len(line) - len(line.lstrip())], first)))

        visit(ast.parse(self.text, self.path).body, ())
        return sorted(found, key=lambda holder: holder.first_line)

    @cached_property
    def _first_lines(self) -> list[int]:
        return [holder.first_line for holder in self._holders]

    def _holder_of(self, span: Span) -> _Holder | None:
        """The holder whose lines hold every line the span touches."""
        at = bisect.bisect_right(self._first_lines, span.start_line) - 1
        return self._holders[at] if at >= 0 and span.last_line <= self._holders[at].last_line else None

    def _skeleton(self, holder: _Holder) -> str:
        """What comes before a holder's lines compiled alone: the module's names that imports bind
        (the compiler calls an imported module's function as an attribute, not as a method), and a
        header for each class around it, so that its code gets its qualified name."""
        return self._imports + "".join(f"{indent}class {name}:\n" for name, indent, _ in holder.classes)

    @cached_property
    def _imports(self) -> str:
        """An import of each name the module's own statements bind by import, on one line (or none)."""
        names: dict[str, None] = {}
        pending: list[ast.AST] = [ast.parse(self.text, self.path)]
        while pending:
            node = pending.pop()
            if isinstance(node, ast.Import | ast.ImportFrom):
                for alias in node.names:
                    if alias.name != "*":
                        names[alias.asname or alias.name.split(".")[0]] = None
            elif not isinstance(node, (ast.ClassDef, ast.Lambda, *_DEFINITIONS)):  # scopes of their own
                pending += ast.iter_child_nodes(node)
        return f"import {', '.join(names)}\n" if names else ""

    def _shift(self, holder: _Holder) -> int:
        """How far down the file a holder's lines are from where they are compiled alone."""
        return holder.first_line - 1 - self._skeleton(holder).count("\n")

    def _layout_alone(self, holder: _Holder) -> str | None:
        if holder not in self._layouts:
            tree = self._tree_alone(holder, self._holder_text(holder))
            self._layouts[holder] = None if tree is None else layout_free(tree)
        return self._layouts[holder]

    def _tree_alone(self, holder: _Holder, lines: str) -> ast.Module | None:
        """The holder's `lines` parsed alone, when they are still that one definition inside its
        classes (an edit that dedents its lines makes statements of the class or the module)."""
        tree = parsed(self._skeleton(holder) + lines, self.path)
        if tree is None:
            return None
        levels = [*((ast.ClassDef, name) for name, _, _ in holder.classes), (_DEFINITIONS, holder.qualname)]
        body: list[ast.stmt] = tree.body[1 if self._imports else 0 :]
        for kind, qualname in levels:
            if len(body) != 1 or not isinstance(body[0], kind) or body[0].name != qualname.rsplit(".", 1)[-1]:
                return None
            body = body[0].body
        return tree

    def _compiled_levels(self, text: str, holder: _Holder) -> tuple[CodeType, ...] | None:
        """A holder's text (after its skeleton) compiled alone: see `_levels`; None when it does not compile."""
        try:
            code = compile(text, self.path, "exec", flags=self.flags, dont_inherit=True)
        except (SyntaxError, ValueError):
            return None
        return self._levels(code, holder)

    def _levels(self, code: CodeType, holder: _Holder) -> tuple[CodeType, ...] | None:
        """From the module's `code` of a holder compiled alone inward: each class body's code around
        it, then its own (each the only one of its name there); None when one is not found once."""
        names = [name for name, _, _ in holder.classes]
        levels = [code]
        for qualname in [*(".".join(names[: depth + 1]) for depth in range(len(names))), holder.qualname]:
            found = [nested for nested in nested_codes(levels[-1]) if nested.co_qualname == qualname]
            if len(found) != 1:
                return None
            levels.append(found[0])
        return tuple(levels)

    def _in_file(self, holder: _Holder) -> tuple[tuple[int, ...], CodeType] | None:
        """Where the holder's code sits in the file's code, and that code: found by qualified name and
        first line at each level (several definitions may share a name: a property's getter and setter)."""
        names = [name for name, _, _ in holder.classes]
        wanted = [(".".join(names[: depth + 1]), line) for depth, (_, _, line) in enumerate(holder.classes)]
        code, positions = self.code, []
        for key in [*wanted, (holder.qualname, holder.first_line)]:
            found = self._index(code).get(key)
            if found is None:
                return None
            positions.append(found[0])
            code = found[1]
        return tuple(positions), code

    def _index(self, code: CodeType) -> dict[tuple[str, int], tuple[int, CodeType] | None]:
        """The code objects nested in `code` by qualified name and first line, with their places;
        made once per code object (the module's holds a function for each in the file)."""
        if id(code) not in self._indexes:
            index: dict[tuple[str, int], tuple[int, CodeType] | None] = {}
            for position, nested in enumerate(nested_codes(code)):
                key = (nested.co_qualname, nested.co_firstlineno)
                index[key] = None if key in index else (position, nested)  # two alike: neither is told apart
            self._indexes[id(code)] = index
        return self._indexes[id(code)]

    def _compiled_alone(self, holder: _Holder) -> _Alone | None:
        """The holder's unedited lines compiled alone (once); None, and it is never compiled alone,
        unless that gives exactly the file's own code of the function."""
        if holder not in self._alone:
            self._alone[holder] = None
            if self._shift(holder) < 0:  # too near the top for what goes before it
                return None
            levels = self._compiled_levels(self._skeleton(holder) + self._holder_text(holder), holder)
            in_file = self._in_file(holder)
            if levels and in_file and code_fingerprint(levels[-1]) == code_fingerprint(in_file[1]):
                self._alone[holder] = _Alone(levels[:-1], in_file[1], in_file[0])
        return self._alone[holder]


def _shifted(code: CodeType, lines: int) -> CodeType:
    """`code` and the code nested in it, `lines` further down: their line tables count from their
    first line."""
    constants = tuple(_shifted(c, lines) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_firstlineno=code.co_firstlineno + lines, co_consts=constants)


def file_swap(
    mutated: str, filename: str, original: CodeType, mutated_code: CodeType, scope: str | None
) -> tuple[str | None, bytes | None]:
    """A whole edited file's swap: the qualified name a swap changes (see `swap.chain_unit`) and its
    marked payload (see `swap.marked_module`), or None and None when it runs in a copy. `mutated`:
    the file's edited text, `mutated_code` that compiled; `original`: the file's code."""
    tree, kept = carried(mutated, filename, original, mutated_code)
    target = swap_unit(original, kept, scope)
    if target is None:
        return None, None
    return target, marked_module(tree or ast.parse(mutated, filename), filename, original, kept)
