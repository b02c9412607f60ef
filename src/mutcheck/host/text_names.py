"""The names code run from text (`exec`, `eval`) refers to, read from its compiled code: what a later
run's reuse weighs against the module-level bindings that changed since (see `reuse.decide`)."""

import dis
from types import CodeType

ANY_NAME = "**"  # it may reach names it does not spell: any binding at all counts
# Loads through which code reaches names it does not spell: a computed attribute, a namespace, a
# frame's, a module imported or looked up by a computed name, more text.
_REACHING = frozenset(
    {
        *("getattr", "hasattr", "setattr", "delattr", "attrgetter", "methodcaller", "getmembers", "dir"),
        *("globals", "vars", "locals", "__dict__", "__getattribute__", "modules", "import_module", "__import__"),
        *("_getframe", "currentframe", "stack", "f_globals", "f_locals", "f_back", "eval", "exec", "compile"),
    }
)
_LOADS = frozenset(
    {
        *("LOAD_GLOBAL", "LOAD_NAME", "LOAD_ATTR", "LOAD_METHOD", "LOAD_SUPER_ATTR", "LOAD_FROM_DICT_OR_GLOBALS"),
        *("IMPORT_NAME", "IMPORT_FROM"),
    }
)


def text_names(code: CodeType) -> set[str]:
    """Every name the code and the code it makes spell (global, attribute, imported: which namespace a
    name is looked up in is the text's to choose, so each counts as any module's binding of that
    name), or {ANY_NAME} where it loads one of the ways to reach names it does not spell."""
    names: set[str] = set()
    pending = [code]
    while pending:
        current = pending.pop()
        names.update(current.co_names)
        # only a code object that names one of those ways, or imports `*`, needs its instructions read
        # (doctest examples are text too: most run with none)
        if _REACHING.isdisjoint(current.co_names) and ("*",) not in current.co_consts:
            pending += [constant for constant in current.co_consts if isinstance(constant, CodeType)]
            continue
        for instruction in dis.get_instructions(current):
            if instruction.opname in _LOADS and instruction.argval in _REACHING:
                return {ANY_NAME}
            if "IMPORT_STAR" in instruction.opname + instruction.argrepr:  # binds names it does not spell
                return {ANY_NAME}
        pending += [constant for constant in current.co_consts if isinstance(constant, CodeType)]
    return names
