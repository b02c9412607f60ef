"""Code swapping: which code objects a mutant changes, every live function that carries one of them
(however it is held: decorated, cached, a closure made at import, a registry), swapping them in place,
and the evidence marker that tells whether the mutated code ran."""

import ast
import dis
import functools
import gc
import inspect
import itertools
import marshal
import os
import sys
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FunctionType, ModuleType

from mutcheck.core.module_scope import reach_name

CodePair = tuple[CodeType, CodeType]  # a code object as the target has it, and as the mutant has it
MARKER = "\0mutcheck: the mutated code ran"  # a constant the compiler keeps, replaced by the marker's counter
_CACHE_WRAPPER = type(functools.lru_cache(lambda: None))


def iter_code(code: CodeType) -> Iterator[CodeType]:
    """`code` and every code object nested in its constants."""
    yield code
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from iter_code(constant)


def nested_codes(code: CodeType) -> list[CodeType]:
    return [constant for constant in code.co_consts if isinstance(constant, CodeType)]


def _constant(constant: object) -> object:
    """A constant as two processes compare it: a frozenset's order follows the string hashes, which
    differ between processes (a code object compiled by the command is loaded by the host)."""
    if isinstance(constant, CodeType):
        return "<code>"
    if isinstance(constant, frozenset):
        return (frozenset, tuple(sorted(repr(_constant(item)) for item in constant)))
    if isinstance(constant, tuple):
        return (tuple, tuple(_constant(item) for item in constant))
    return (type(constant), repr(constant))


_CLASS_RECORDS = ("__firstlineno__", "__static_attributes__")  # 3.13+: what a class body records of itself


def _records(code: CodeType) -> set[int]:
    """The constants a class body stores only as a record of its own source (3.13+: its first line,
    the attributes its methods assign): a mutant that shifts the lines below it, or deletes one
    `self.x = …`, changes them, but the class was made long before, and the swap changes nothing
    else of it."""
    if not any(name in code.co_names for name in _CLASS_RECORDS):
        return set()
    instructions = list(dis.get_instructions(code))
    return {
        load.arg
        for load, store in itertools.pairwise(instructions)
        if load.opname == "LOAD_CONST" and store.opname == "STORE_NAME" and store.argval in _CLASS_RECORDS
    }


def own_parts(code: CodeType) -> tuple:
    """Everything of a code object but the content of the code objects nested in it."""
    records = _records(code)
    constants = tuple("<record>" if at in records else _constant(c) for at, c in enumerate(code.co_consts))
    signature = (code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags)
    return (code.co_code, constants, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars, signature)


@functools.lru_cache(maxsize=1 << 16)
def code_fingerprint(code: CodeType) -> tuple:
    """Byte code, names and constants, recursively, without line numbers or file names. Cached:
    code objects that compare equal have equal fingerprints, and a change of many hunks compares
    the same unchanged functions once per hunk."""
    return (own_parts(code), tuple(code_fingerprint(nested) for nested in nested_codes(code)))


def changed_chain(original: CodeType, mutated: CodeType) -> tuple[list[CodePair], list[int]]:
    """From the module's code inward, each code object the mutant changes, down to the innermost one
    that holds the whole difference (the code objects outside it differ only in the one they hold),
    and where each sits among its parent's nested code objects (-1 for the module). Empty when the
    two compile alike."""
    chain: list[CodePair] = []
    path: list[int] = []
    pair, position = (original, mutated), -1
    while code_fingerprint(pair[0]) != code_fingerprint(pair[1]):
        chain.append(pair)
        path.append(position)
        if own_parts(pair[0]) != own_parts(pair[1]):
            break
        nested = enumerate(zip(nested_codes(pair[0]), nested_codes(pair[1]), strict=True))
        differing = [(at, codes) for at, codes in nested if code_fingerprint(codes[0]) != code_fingerprint(codes[1])]
        if len(differing) != 1:
            break
        position, pair = differing[0]
    return chain, path


def swap_chain(original: CodeType, mutated: CodeType) -> list[CodePair] | None:
    """The code objects a swap changes, outermost first (the module's excluded: it never runs again),
    when the whole difference lies inside one function's body; None otherwise.

    Anything else (a default argument, a decorator, a class or module statement) is evaluated outside
    a function body, so swapping code objects would miss it. A function whose free variables change
    changes its parent's cells too, so the difference then lies in the parent (or in a class body,
    for `super()`, unless `mutation.class_cell` keeps the cell): the innermost code never changes its
    free variables, and `__code__` takes it."""
    return _swappable(changed_chain(original, mutated)[0][1:])


def function_swap_chain(original: CodeType, mutated: CodeType) -> list[CodePair] | None:
    """`swap_chain` of two files that differ only inside one function: from that function's code
    (`original`, and `mutated` as the mutant has it) inward."""
    return _swappable(changed_chain(original, mutated)[0])


def _swappable(chain: list[CodePair]) -> list[CodePair] | None:
    """The chain up to its innermost function: a class body ran when its class was made, so an edit
    of one (a class attribute, the `__class__` cell of `super()`) is carried by the function that
    makes the class at each call; a class made at import has none and runs in a copy."""
    while chain and not _is_function(chain[-1][0]):
        chain = chain[:-1]
    return chain or None


def swap_unit(original: CodeType, mutated: CodeType, scope: str | None) -> str | None:
    """The qualified name of the innermost code object a swap changes, when the mutant can be
    swapped and lies inside `scope` (Python's qualified name: the tests that reach it are the ones
    selected); None when it runs in a copy instead."""
    return chain_unit(swap_chain(original, mutated), scope)


def chain_unit(chain: list[CodePair] | None, scope: str | None) -> str | None:
    """`swap_unit` of a `swap_chain`. The innermost code may also be a function that holds `scope`:
    an edit of a nested function's body that changes which variables it closes over changes the
    cells of the function that makes it, whose swap then carries the edit. Only when the nested
    code itself changed: an edit of its decorator, a default or an annotation is evaluated by the
    holder, where tests that never run the nested code can see it."""
    if chain is None or scope is None:
        return None
    original, mutated = chain[-1]
    innermost = original.co_qualname
    if innermost == scope or innermost.startswith(scope + "."):
        return innermost
    if scope.startswith(innermost + ".<locals>.") and _changed_within(original, mutated, scope):
        return innermost
    return None


def _changed_within(original: CodeType, mutated: CodeType, scope: str) -> bool:
    """Whether the code of `scope` (a qualified name) nested in `original` differs in `mutated`."""
    before = [code for code in iter_code(original) if code.co_qualname == scope]
    after = [code for code in iter_code(mutated) if code.co_qualname == scope]
    if len(before) != 1 or len(after) != 1:  # not one definition: no telling which is which
        return False
    return code_fingerprint(before[0]) != code_fingerprint(after[0])


def _is_function(code: CodeType) -> bool:
    return bool(code.co_flags & inspect.CO_NEWLOCALS)


def evidence_code(chain: list[CodePair]) -> CodeType:
    """The original of the innermost `def` of a swap chain: the code whose start the marker reports
    (a lambda or comprehension runs only inside the function that holds it)."""
    return next(pair[0] for pair in reversed(chain) if not pair[0].co_name.startswith("<"))


def definitions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function definition, with the qualified name Python gives its code."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                yield name, child
                yield from walk(child, name + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".")
            else:
                yield from walk(child, prefix)

    yield from walk(tree, "")


def first_line(node: ast.stmt) -> int:
    """A statement's first line, its decorators included (a function's code starts there)."""
    return min([node.lineno, *(decorator.lineno for decorator in getattr(node, "decorator_list", ()))])


@dataclass
class Marker:
    """Counts the starts of the mutated code: a C counter called as the code's first statement."""

    counter: "itertools.count[int]"

    def count(self) -> int:
        # its repr, `count(N)`: the pickling support that also tells N warns from 3.12 on (an error
        # under a project's `-W error`) and is gone in 3.14
        return int(repr(self.counter)[len("count(") : -1])


def first_statement(node: ast.FunctionDef | ast.AsyncFunctionDef, placeholder: str = MARKER) -> None:
    """Put the marker's statement first in a definition's body (after its docstring): a call of the
    placeholder constant, on the line of the statement it precedes."""
    body = node.body
    docstring = isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    at = 1 if docstring and isinstance(body[0].value.value, str) else 0
    anchor = body[min(at, len(body) - 1)]
    call = ast.Expr(ast.Call(ast.Constant(placeholder), [], []))
    for part in (call, call.value, call.value.func):
        ast.copy_location(part, anchor)
    body.insert(at, call)


def mark_evidence(tree: ast.Module, evidence: CodeType) -> bool:
    """Put the marker's first statement in the definition of `tree` whose code is `evidence` (by
    qualified name and first line); False when that definition cannot be told apart."""
    found = [
        node
        for name, node in definitions(tree)
        if name == evidence.co_qualname and first_line(node) == evidence.co_firstlineno
    ]
    if len(found) != 1:
        return False
    first_statement(found[0])
    return True


def compile_marked(tree: ast.Module, filename: str, flags: int = 0) -> CodeType:
    """A tree with the marker's placeholder in it, compiled (calling a string constant only warns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "'str' object is not callable"
        return compile(tree, filename, "exec", flags=flags, dont_inherit=True)


def marked_payload(positions: tuple[int, ...], code: CodeType) -> bytes:
    """What the host needs of a swap's marked code: the marked code of one function and where it sits
    in the file's code (`positions`: the nested code objects leading to it; none: the whole file's
    code), marshalled: as small as the function, however long the file."""
    return marshal.dumps((positions, code))


def marked_module(tree: ast.Module, filename: str, original: CodeType, mutated: CodeType) -> bytes | None:
    """The mutated file (`tree`, which is changed; `mutated`, its code) compiled with a first statement
    in the innermost `def` of the swap (see `evidence_code`) that calls a placeholder constant, as a
    payload for the host (which puts the marker's counter in the placeholder's place); None when that
    definition cannot be told apart. Compiled where the catalog is applied, while the host starts,
    not in the host."""
    chain = swap_chain(original, mutated)
    if chain is None:
        return None
    if not mark_evidence(tree, evidence_code(chain)):
        return None
    return marked_payload((), compile_marked(tree, filename))


def code_at(code: CodeType, positions: tuple[int, ...]) -> CodeType:
    """The code object nested in `code` at `positions`: each its place among its parent's nested
    code objects (`code` itself for none)."""
    for position in positions:
        code = nested_codes(code)[position]
    return code


def _with_filename(code: CodeType, filename: str) -> CodeType:
    """`code` and the code objects nested in it, named after `filename` (as tracebacks show them)."""
    constants = tuple(_with_filename(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=constants)


def _with_nested(code: CodeType, position: int, replacement: CodeType) -> CodeType:
    """`code` with its `position`-th nested code object replaced."""
    constants, seen = [], -1
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            seen += 1
            constant = replacement if seen == position else constant
        constants.append(constant)
    return code.replace(co_consts=tuple(constants))


class LiveFunctions:
    """The function objects whose code comes from the target files, by file and qualified name, and
    the functools caches in front of them: found once, by walking every object the garbage collector
    tracks (before the host's heap is frozen, and before the baseline forks)."""

    def __init__(self, files: Iterable[str]) -> None:
        wanted = set(files)
        real: dict[str, str] = {}

        def target(function: object) -> bool:
            if type(function) is not FunctionType:
                return False
            filename = function.__code__.co_filename
            if filename not in real:
                real[filename] = os.path.realpath(filename)
            return real[filename] in wanted

        self.functions: dict[tuple[str, str], list[FunctionType]] = {}
        self.caches: list[tuple[str, object]] = []  # (reach name, its lru_cache wrapper)
        for candidate in gc.get_objects():
            if target(candidate):
                code = candidate.__code__
                self.functions.setdefault((real[code.co_filename], code.co_qualname), []).append(candidate)
            elif type(candidate) is _CACHE_WRAPPER and target(wrapped := _unwrapped(candidate)):
                code = wrapped.__code__
                self.caches.append((reach_name(real[code.co_filename], code.co_qualname), candidate))
        self.known_codes = {
            id(code) for group in self.functions.values() for function in group for code in iter_code(function.__code__)
        }
        self._fingerprints: dict[int, tuple] = {}

    def carrying(self, file: str, original: CodeType) -> list[FunctionType]:
        """The live functions of `file` whose code is `original`'s (compiled from the same text)."""
        wanted = code_fingerprint(original)
        found = []
        for candidate in self.functions.get((file, original.co_qualname), ()):
            key = id(candidate.__code__)
            if key not in self._fingerprints:
                self._fingerprints[key] = code_fingerprint(candidate.__code__)
            if self._fingerprints[key] == wanted:
                found.append(candidate)
        return found


def _unwrapped(wrapper: object) -> object:
    try:
        return inspect.unwrap(wrapper)
    except ValueError:  # a __wrapped__ cycle
        return None


@dataclass
class Swap:
    """A mutant's code swap: the live functions and the code each gets, the reach names (see
    `module_scope.reach_name`) of the innermost code it changes and of the `def` whose start its
    marker counts, and the marker."""

    assignments: list[tuple[FunctionType, CodeType]]
    innermost: str
    evidence: str
    marker: Marker

    def apply(self) -> None:
        """In a forked child: every reference to those functions now runs the mutant."""
        for function, code in self.assignments:
            function.__code__ = code


def prepare_swap(
    live: LiveFunctions, file: str, original: CodeType, marked: bytes, innermost: str
) -> tuple[Swap | None, str | None]:
    """The swap that carries a mutant into the live functions of `file`, or None and why it cannot (a
    reason key of the results' `fallback`). `original`: the file's code, compiled from the text the
    host imported; `marked`: see `marked_payload`; `innermost`: the qualified name of the innermost
    code object the mutant changes.

    The marker's statement calls the counter's `__next__`, a constant: no name is looked up, no frame
    is made. A string constant shifts no nested code object, so the chain's positions hold when the
    code objects outside the marked one are rebuilt to hold it."""
    positions, marked_code = marshal.loads(marked)
    chain, path = changed_chain(code_at(original, positions), _with_filename(marked_code, file))
    evidence, marked_evidence = chain[-1]
    if MARKER not in marked_evidence.co_consts:
        return None, "no-marker"
    counter = itertools.count()
    codes = [code for _, code in chain]
    constants = tuple(counter.__next__ if constant == MARKER else constant for constant in marked_evidence.co_consts)
    codes[-1] = marked_evidence.replace(co_consts=constants)
    for outer in range(len(codes) - 2, -1, -1):
        codes[outer] = _with_nested(codes[outer], path[outer + 1], codes[outer + 1])
    assignments = [  # the module's code, from a payload of the whole file's, never runs again
        (function, code)
        for (original_code, _), code in zip(chain, codes, strict=True)
        if _is_function(original_code)
        for function in live.carrying(file, original_code)
    ]
    if not assignments:
        return None, "no-live-function"
    return Swap(assignments, reach_name(file, innermost), reach_name(file, evidence.co_qualname), Marker(counter)), None


def modules_by_file(files: list[str]) -> dict[str, ModuleType]:
    """The imported modules loaded from `files` (resolved paths), found once before forking."""
    wanted = {str(Path(name).resolve()) for name in files}
    found = {}
    for module in list(sys.modules.values()):
        filename = getattr(module, "__file__", None)
        if filename and (resolved := os.path.realpath(filename)) in wanted:
            found[resolved] = module
    return found
