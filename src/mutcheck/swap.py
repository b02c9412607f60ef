"""Code swapping: whether a mutant fits in one function's code object, and swapping it in place."""

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any


def iter_code(code: CodeType) -> Iterator[CodeType]:
    """`code` and every code object nested in its constants."""
    yield code
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from iter_code(constant)


def find_code(module_code: CodeType, qualname: str) -> CodeType | None:
    return next((code for code in iter_code(module_code) if code.co_qualname == qualname), None)


def _named(code: CodeType, qualname: str) -> int:
    return sum(nested.co_qualname == qualname for nested in iter_code(code))


def code_fingerprint(code: CodeType, excluded: str | None = None) -> tuple:
    """Byte code, names and constants, recursively, without line numbers; the `excluded` function's
    code is reduced to its free variables (what a swap must keep)."""
    if code.co_qualname == excluded:
        return ("<swapped>", code.co_freevars)
    constants = tuple(
        code_fingerprint(constant, excluded) if isinstance(constant, CodeType) else (type(constant), repr(constant))
        for constant in code.co_consts
    )
    signature = (code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags)
    return (code.co_code, constants, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars, signature)


def swappable(original: CodeType, mutated: CodeType, target: str | None) -> bool:
    """True when the only compiled difference lies inside `target`'s code, with the same free variables.

    Anything else (a default argument, a decorator, a class or module statement, a new closure
    variable) is evaluated outside the function body, so swapping `__code__` would miss it. Nor
    can a name that several functions share (a property's getter and setter, `@overload` stubs)
    say which one the live function is.
    """
    if target is None or _named(original, target) != 1 or _named(mutated, target) != 1:
        return False
    return code_fingerprint(original, target) == code_fingerprint(mutated, target)


def live_function(module: ModuleType, qualname: str) -> FunctionType | None:
    """The function object behind `qualname` (`f` or `Class.method`) in an imported module."""
    owner: object = module
    for name in qualname.split("."):
        owner = vars(owner).get(name) if hasattr(owner, "__dict__") else None
        if owner is None:
            return None
    for attribute in ("__func__", "fget", "__wrapped__"):
        owner = getattr(owner, attribute, owner) if not isinstance(owner, FunctionType) else owner
    if isinstance(owner, FunctionType) and owner.__code__.co_qualname == qualname:
        return owner
    return None


def modules_by_file(files: list[str]) -> dict[str, ModuleType]:
    """The imported modules loaded from `files` (resolved paths), found once before forking."""
    wanted = {str(Path(name).resolve()) for name in files}
    found = {}
    for module in list(sys.modules.values()):
        filename = getattr(module, "__file__", None)
        if filename and (resolved := os.path.realpath(filename)) in wanted:
            found[resolved] = module
    return found


def mutated_function_code(mutant: dict[str, Any]) -> CodeType | None:
    """The swap target's code in the mutated file, compiled by the host before it forks: in a
    child the compile costs twice as much (its allocations fault in copy-on-write pages)."""
    code = compile(mutant["mutated"], str(Path(mutant["file"]).resolve()), "exec")
    return find_code(code, mutant["swap_target"])


def swap_in(mutant: dict[str, Any], mutated_code: CodeType | None, modules: dict[str, ModuleType]) -> None:
    """Replace the live function's code with the mutated one; every reference sees the change."""
    module = modules.get(str(Path(mutant["file"]).resolve()))
    function = live_function(module, mutant["swap_target"]) if module else None
    if function is None or mutated_code is None:
        raise RuntimeError(f"{mutant['swap_target']} is not loaded from {mutant['file']}")
    function.__code__ = mutated_code
