"""Values written back as Python source: which can be, as what (a tree of plain data), and how it reads.

A value counts when its source builds an equal value again: literals and plain containers, enum
members, dataclasses and pydantic models of importable types, and standard-library values whose
`repr` evaluates back (dates, decimals, paths, ...). Anything else (an open file, a lock, an
object of a class with no constructor fields) is refused with the reason, never guessed at.

A tree is JSON: `{"text": SOURCE}` for a leaf (an enum member's also lists `"others"`: the source
of its enum's other members, and of a string no member has when its enum is a str), or
`{"open", "close", "items": [[prefix, accessor, tree], ...]}` for a container, where `prefix` is
what precedes the item (`key: `, `name=`) and `accessor` how a test reaches it from its container
(`[0]`, `["key"]`, `.name`; empty: not by itself).
"""

import dataclasses
import enum
import importlib
import math
from typing import Any

Tree = dict[str, Any]

_WIDTH = 88
_DEPTH = 40  # deeper than any history a test builds: a cycle, or a linked structure, is refused
_MEMBERS = 8  # an enum's other members a variation may put in its place
_STDLIB_REPR = {"datetime", "decimal", "fractions", "uuid", "pathlib", "ipaddress"}


class Unwritable(Exception):
    """A value with no source that builds it again; the message says which and why."""


def _leaf(text: str) -> Tree:
    return {"text": text}


def _string_source(text: str) -> str:
    """A string literal as most projects' formatters write it: in double quotes, unless that
    needs more escapes than single ones."""
    quoted = repr(text)
    if quoted.startswith('"') or ('"' in text and "'" not in text):
        return quoted
    return '"' + quoted[1:-1].replace("\\'", "'").replace('"', '\\"') + '"'


def _importable(cls: type, imports: set[tuple[str, str]]) -> str:
    """How generated code names a class: its module's top-level name imported, then attributes."""
    module, qualname = cls.__module__, cls.__qualname__
    if "<locals>" in qualname or module in ("__main__", "builtins"):
        raise Unwritable(f"{qualname} is not importable by name")
    try:
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as error:
        raise Unwritable(f"{module}.{qualname} is not importable by name") from error
    if found is not cls:
        raise Unwritable(f"{module}.{qualname} names another object")
    outer = qualname.split(".")[0]
    imports.add((module, outer))
    return qualname


def _container(open_: str, close: str, items: list[tuple[str, str, Tree]]) -> Tree:
    return {"open": open_, "close": close, "items": [list(item) for item in items]}


def tree_of(value: object, imports: set[tuple[str, str]], depth: int = 0) -> Tree:
    """The value as a tree of source; `imports` gains the (module, name) pairs it needs. Raises
    Unwritable naming the first part that cannot be written."""
    if depth > _DEPTH:
        raise Unwritable("nested too deeply (a cycle?)")
    inner = depth + 1
    if isinstance(value, enum.Enum):  # first: a str or int enum's member is not its value
        name = _importable(type(value), imports)
        others = [f"{name}.{member.name}" for member in type(value) if member is not value][:_MEMBERS]
        if isinstance(value, str) and "x" not in {member.value for member in type(value)}:
            # a str enum's field takes any string at run time: one that no member has
            others.append(_string_source("x"))
        return {"text": f"{name}.{value.name}", "others": others}
    if isinstance(value, str):
        return _leaf(_string_source(value))
    if value is None or isinstance(value, (bool, bytes)) or type(value) is int:
        return _leaf(repr(value))
    if type(value) is float:
        if math.isnan(value):
            raise Unwritable("a NaN float (never equal to itself)")
        return _leaf(repr(value) if math.isfinite(value) else f'float("{value}")')
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _dataclass(value, imports, inner)
    if hasattr(type(value), "model_fields") and hasattr(value, "model_dump"):
        return _pydantic(value, imports, inner)
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        name = _importable(type(value), imports)
        items = [(f"{field}=", f".{field}", tree_of(getattr(value, field), imports, inner)) for field in value._fields]
        return _container(f"{name}(", ")", items)
    if type(value) is list:
        return _container("[", "]", [("", f"[{i}]", tree_of(item, imports, inner)) for i, item in enumerate(value)])
    if type(value) is tuple:
        items = [("", f"[{i}]", tree_of(item, imports, inner)) for i, item in enumerate(value)]
        return _container("(", ",)" if len(value) == 1 else ")", items)
    if type(value) is dict:
        items = []
        for key, item in value.items():
            key_tree = tree_of(key, imports, inner)
            if "text" not in key_tree:
                raise Unwritable(f"a dict key of type {type(key).__name__}")
            items.append((f"{key_tree['text']}: ", f"[{key_tree['text']}]", tree_of(item, imports, inner)))
        return _container("{", "}", items)
    if type(value) in (set, frozenset):
        if not value:
            return _leaf(f"{type(value).__name__}()")
        items = sorted((tree_of(item, imports, inner) for item in value), key=format_tree)
        open_, close = ("{", "}") if type(value) is set else ("frozenset({", "})")
        return _container(open_, close, [("", "", item) for item in items])
    return _by_repr(value, imports)


def _dataclass(value: Any, imports: set[tuple[str, str]], depth: int) -> Tree:
    name = _importable(type(value), imports)
    items = []
    for field in dataclasses.fields(value):
        if field.init:
            items.append((f"{field.name}=", f".{field.name}", tree_of(getattr(value, field.name), imports, depth)))
    return _container(f"{name}(", ")", items)


def _pydantic(value: Any, imports: set[tuple[str, str]], depth: int) -> Tree:
    name = _importable(type(value), imports)
    items = []
    for field, info in type(value).model_fields.items():
        keyword = getattr(info, "alias", None) or field
        if not keyword.isidentifier():
            raise Unwritable(f"{name}.{field} has the alias {keyword!r}, no keyword")
        items.append((f"{keyword}=", f".{field}", tree_of(getattr(value, field), imports, depth)))
    return _container(f"{name}(", ")", items)


def _by_repr(value: object, imports: set[tuple[str, str]]) -> Tree:
    """A standard-library value whose `repr` builds it again (checked by `rebuilt_equal`)."""
    cls = type(value)
    top = cls.__module__.split(".")[0]
    if top not in _STDLIB_REPR:
        kinds = "a literal, container, enum, dataclass or pydantic model"
        raise Unwritable(f"a {cls.__module__}.{cls.__qualname__} (not {kinds})")
    text = repr(value)
    if text.startswith(f"{cls.__module__}."):
        imports.add(("", cls.__module__))
    elif text.startswith(f"{cls.__qualname__}("):
        imports.add((cls.__module__, cls.__qualname__))
    else:
        raise Unwritable(f"the repr of a {cls.__qualname__} does not name its type")
    return _leaf(text)


def format_tree(tree: Tree, indent: int = 0) -> str:
    """The source of a tree: on one line when it fits the width, else one item per line."""
    if "text" in tree:
        return tree["text"]
    flat = tree["open"] + ", ".join(prefix + format_tree(item) for prefix, _, item in tree["items"])
    flat += tree["close"]
    if indent + len(flat) <= _WIDTH or not tree["items"]:
        return flat
    pad = " " * (indent + 4)
    lines = [f"{pad}{prefix}{format_tree(item, indent + 4)}," for prefix, _, item in tree["items"]]
    close = tree["close"].lstrip(",")
    return tree["open"] + "\n" + "\n".join(lines) + "\n" + " " * indent + close


def import_lines(imports: set[tuple[str, str]]) -> list[str]:
    """`import module` / `from module import name` lines, sorted, the plain imports first."""
    plain = sorted(f"import {name}" for module, name in imports if not module)
    named: dict[str, set[str]] = {}
    for module, name in imports:
        if module:
            named.setdefault(module, set()).add(name)
    return plain + [f"from {module} import {', '.join(sorted(names))}" for module, names in sorted(named.items())]


def namespace(imports: set[tuple[str, str]]) -> dict[str, Any]:
    """The names generated source uses, imported."""
    names: dict[str, Any] = {}
    for module, name in imports:
        if not module:
            names[name.split(".")[0]] = importlib.import_module(name.split(".")[0])
            importlib.import_module(name)
        else:
            names[name] = getattr(importlib.import_module(module), name)
    return names


def checked_tree(value: object, imports: set[tuple[str, str]]) -> Tree:
    """`tree_of`, once its source is seen to build a value with the same tree again."""
    needed: set[tuple[str, str]] = set()
    tree = tree_of(value, needed)
    try:
        rebuilt = eval(format_tree(tree), namespace(needed))  # source this module wrote
    except Exception as error:  # the project's constructor refused its own field values
        raise Unwritable(f"its source does not build it again ({type(error).__name__}: {error})") from error
    if tree_of(rebuilt, set()) != tree:
        raise Unwritable("its source builds a different value (a field the constructor does not keep)")
    if rebuilt != value:  # a test asserts with ==: a type that compares by identity cannot be asserted on
        raise Unwritable(f"a {type(value).__qualname__} built from its source is not == to it")
    imports |= needed
    return tree
