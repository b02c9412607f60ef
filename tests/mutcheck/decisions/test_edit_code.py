"""An edit compiled one function at a time says what compiling the whole edited file says: the same
equivalence, the same swap, the same marked code, the same layout verdict, for every shape a
function can have and every kind of edit a line can get."""

import ast
import marshal
import sys

import pytest

from mutcheck.core.source_text import Span, line_offsets, replaced
from mutcheck.host.swap import code_at, code_fingerprint
from mutcheck.mutation.edit_code import FileCode, file_swap, layout_free, parsed

SHAPES = '''from __future__ import annotations
import functools


def plain(x, y=1):
    """doc"""
    if x > y:
        return x
    return [i for i in range(y) if i]


@functools.lru_cache
def cached(n):
    return n * 2


class Outer:
    attr = 1

    class Inner:
        def method(self, a: list[int]) -> int:
            total = 0
            for v in a:
                total += v
            return total

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, new):
        self._value = new

    def uses_super(self):
        return super().__repr__()

    def closure(self):
        count = 0

        def inner():
            nonlocal count
            count += 1
            return count

        return inner

    async def coroutine(self, items):
        async with items as it:
            return [x async for x in it]


class _Mangled:
    def reads(self):
        return self.__secret


if True:
    def conditional():
        return 1


def last(): return "one line"
'''
GENERIC = """

def generic[T](x: T) -> T:
    return x


class Box[T]:
    def get(self) -> T:
        return self.item
"""
SOURCE = SHAPES + (GENERIC if sys.version_info >= (3, 12) else "")


def _outermost_functions(body: list[ast.stmt], prefix: str = "") -> dict[int, str]:
    """For each line of a function outside any other (in the module or its classes), its name."""
    lines = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines.update(dict.fromkeys(range(node.lineno, node.end_lineno + 1), prefix + node.name))
        elif isinstance(node, ast.ClassDef):
            lines.update(_outermost_functions(node.body, f"{prefix}{node.name}."))
    return lines


SCOPES = _outermost_functions(ast.parse(SOURCE).body)  # the scope a swap must lie in, by line


def _edits() -> list[tuple[str, Span, str]]:
    """Five edits of every line: emptied to `pass`, deleted, a statement put before it, dedented,
    and its first name renamed."""
    edits = []
    for number, line in enumerate(SOURCE.split("\n")[:-1], 1):
        indent = line[: len(line) - len(line.lstrip())]
        whole = Span(number, 0, number + 1, 0)
        edits += [
            (f"{number}: pass", whole, f"{indent}pass\n"),
            (f"{number}: deleted", whole, ""),
            (f"{number}: inserted", Span(number, 0, number, 0), f"{indent}extra = 1\n"),
            (f"{number}: dedented", whole, line[4:] + "\n"),
        ]
        if word := next((w for w in line.replace("(", " ").split() if w.isidentifier()), None):
            column = line.index(word)
            edits.append((f"{number}: renamed", Span(number, column, number, column + len(word)), "other"))
    return edits


def _whole_file(span: Span, replacement: str, scope: str | None):
    """What compiling the whole edited file says, or "no" when it does not compile."""
    mutated = replaced(SOURCE, line_offsets(SOURCE), span, replacement)
    original = compile(SOURCE, "m.py", "exec", dont_inherit=True)
    try:
        code = compile(mutated, "m.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return "no"
    target, marked = file_swap(mutated, "m.py", original, code, scope)
    return code_fingerprint(original) == code_fingerprint(code), target, marked


def _marked_function(payload: bytes | None, positions: tuple[int, ...]):
    """The fingerprint of a payload's code at `positions` of the file's code (None for no payload)."""
    if payload is None:
        return None
    at, code = marshal.loads(payload)
    return code_fingerprint(code_at(code, positions[len(at) :]))


EDITS = _edits()


@pytest.fixture  # each test its own: a module-wide one would hand each test what the earlier ones left in it
def file_code() -> FileCode:
    return FileCode("m.py", SOURCE, line_offsets(SOURCE), compile(SOURCE, "m.py", "exec", dont_inherit=True))


@pytest.mark.parametrize(("name", "span", "replacement"), EDITS, ids=[name for name, _, _ in EDITS])
def test_an_edit_compiled_within_its_function_is_what_the_whole_file_compiles_to(file_code, name, span, replacement):
    scope = SCOPES.get(span.start_line)
    expected = _whole_file(span, replacement, scope)
    try:
        edit = file_code.compile_edit(span, replacement, scope)
    except (SyntaxError, ValueError):
        assert expected == "no"
        return
    assert expected != "no"
    equivalent, target, marked = expected
    assert (edit.equivalent, edit.swap_target) == (equivalent, target)
    if marked is not None:
        positions = marshal.loads(edit.marked)[0]
        assert _marked_function(edit.marked, positions) == _marked_function(marked, positions)
    else:
        assert edit.marked is None


@pytest.mark.parametrize(("name", "span", "replacement"), EDITS, ids=[name for name, _, _ in EDITS])
def test_an_edit_parsed_within_its_function_has_the_layout_verdict_of_the_whole_file(
    file_code, name, span, replacement
):
    tree = parsed(replaced(SOURCE, line_offsets(SOURCE), span, replacement))
    expected = None if tree is None else layout_free(tree) == layout_free(ast.parse(SOURCE))
    assert file_code.same_layout(span, replacement) == expected


def test_an_edit_of_a_function_body_is_compiled_with_the_function_alone(file_code, monkeypatch):
    """The point of it all: the file's whole text is compiled only for edits that reach outside a
    function's body (or that the function alone cannot tell)."""
    compiled = []
    real_compile = compile

    def recording(source, filename, mode, *args, **kwargs):
        compiled.append(source)
        return real_compile(source, filename, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.compile", recording)
    method = next(number for number, line in enumerate(SOURCE.split("\n"), 1) if "def method" in line)
    body = [
        (span, text)
        for _, span, text in EDITS
        if SCOPES.get(span.start_line) == "Outer.Inner.method" and span.start_line > method
        if _whole_file(span, text, "Outer.Inner.method") != "no"
    ]
    file_code.compile_edit(*body[0], "Outer.Inner.method")  # what the file's code objects are is found once
    compiled.clear()
    for span, replacement in body:
        file_code.compile_edit(span, replacement, "Outer.Inner.method")
    assert len(body) >= 10
    assert not [source for source in compiled if isinstance(source, str) and "def plain" in source]
    assert compiled  # each was compiled, with its function alone
