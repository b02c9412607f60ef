"""Values written back as Python source: which can be, as what (a tree of plain data), and how it reads.

A value counts when its source builds an equal value again: literals and plain containers, enum
members, dataclasses and pydantic models of importable types, standard-library values whose
`repr` evaluates back (dates, decimals, paths, ...), and objects of the project's own classes: by
the constructor call (or class method, such as `Interval.from_atomic`) that made them, when it was
recorded, else by their class's constructor given the attributes named as its parameters, else (a
collection) given its items. Whether such
an object's source builds it again is checked by building it and comparing what it holds,
attribute by attribute. Anything else (an open file, a lock, an object whose constructor does not
keep its parameters) is refused with the reason, never guessed at.

What a call returns or leaves behind is written as an *observed* tree: an object of the project's
own classes (compared by identity, so never asserted with `==` whole) becomes a node marked
`"state"`, its attributes as items (and a collection's items, reached by `list({})` or `dict({})`:
an accessor holding `{}` wraps the expression; the names of attributes it holds that cannot be
written, under `"left_out"`); a test asserts on each attribute.

A tree is JSON: `{"text": SOURCE}` for a leaf (an enum member's also lists `"others"`: the source
of its enum's other members, and of a string no member has when its enum is a str), or
`{"open", "close", "items": [[prefix, accessor, tree], ...]}` for a container, where `prefix` is
what precedes the item (`key: `, `name=`) and `accessor` how a test reaches it from its container
(`[0]`, `["key"]`, `.name`; empty: not by itself).
"""

import builtins
import collections.abc
import contextlib
import dataclasses
import enum
import importlib
import inspect
import math
import sys
import threading
from collections.abc import Iterator
from typing import Any

Tree = dict[str, Any]
# id(object) -> (the object, the class method that made it ("" for its class's constructor), the call's
# positional and keyword trees, their imports)
Made = dict[int, tuple[object, str, list[Tree], dict[str, Tree], set[tuple[str, str]]]]

_WIDTH = 88
_OWN_DEPTH = 8  # levels of a collection's own kind nested in it, past which the nesting has no end
_DEPTH = 40  # deeper than any history a test builds: a cycle, or a linked structure, is refused
_MEMBERS = 8  # an enum's other members a variation may put in its place
_OBJECTS = 200  # objects of the project's classes written in one value: past it, a graph, not a test's input
_EXPANDING = threading.local()  # per thread (a test may call from several): the objects being written
_MAPPINGS = (collections.OrderedDict, collections.Counter, collections.defaultdict)
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


def _importable(cls: Any, imports: set[tuple[str, str]]) -> str:
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


def _named(value: Any, imports: set[tuple[str, str]]) -> str:
    """A function, method or class as the name it is imported by (a builtin's needs no import);
    a lambda, a function defined inside another and a bound method have none."""
    owner = getattr(value, "__self__", None)
    if owner is not None and not inspect.ismodule(owner) and not inspect.isclass(owner):
        raise Unwritable(f"{_article(type(owner).__qualname__)} bound method")
    qualname = getattr(value, "__qualname__", "")
    module = getattr(value, "__module__", None) or getattr(getattr(value, "__objclass__", None), "__module__", None)
    if module == "builtins" and qualname:
        found: Any = builtins
        for part in qualname.split("."):
            found = getattr(found, part, None)
        if found is value:
            return qualname
    if not qualname or "<" in qualname or not getattr(value, "__module__", None):
        raise Unwritable(f"{qualname or repr(value)} has no name to import it by")
    return _importable(value, imports)


def _article(name: str) -> str:
    return f"{'an' if name[:1].lower() in ('a', 'e', 'i', 'o', 'u') else 'a'} {name}"


def _container(open_: str, close: str, items: list[tuple[str, str, Tree]]) -> Tree:
    return {"open": open_, "close": close, "items": [list(item) for item in items]}


def _is_own_object(value: object) -> bool:
    """Whether a value is an object of a class outside the standard library that no other rule writes
    (the project's own classes, and those of its dependencies)."""
    cls = type(value)
    if isinstance(value, (type, enum.Enum, BaseException)) or dataclasses.is_dataclass(value):
        return False
    if hasattr(cls, "model_fields") or (isinstance(value, tuple) and hasattr(cls, "_fields")):
        return False
    if inspect.isroutine(value) or inspect.ismodule(value):
        return False
    return _outside_stdlib(cls)


def _outside_stdlib(cls: type) -> bool:
    return cls.__module__.split(".")[0] not in sys.stdlib_module_names and cls.__module__ != "builtins"


def _own_exception(value: object) -> bool:
    """An exception of the project's classes: what a constructor's test observes of the one it made."""
    return isinstance(value, BaseException) and _outside_stdlib(type(value))


def _dataclass_holding_objects(value: object) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type) and _holds_own_object(value)


def _state(value: object) -> dict[str, Any]:
    """An object's attributes: its `__dict__` and the slots its classes declare."""
    state = dict(getattr(value, "__dict__", {}))
    for cls in type(value).__mro__:
        slots = getattr(cls, "__slots__", ())
        for slot in [slots] if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(value, slot):
                state.setdefault(slot, getattr(value, slot))
    return state


def _holds_own_object(value: object, depth: int = 0, seen: set[int] | None = None) -> bool:
    seen = set() if seen is None else seen
    if depth > _DEPTH or id(value) in seen:
        return False
    if _is_own_object(value) or _own_exception(value):
        return True
    seen.add(id(value))  # a container met again (shared, or a cycle) is looked into once
    if type(value) in (list, tuple, set, frozenset):
        return any(_holds_own_object(item, depth + 1, seen) for item in value)  # type: ignore[attr-defined]
    if type(value) is dict:
        return any(_holds_own_object(item, depth + 1, seen) for item in value.values())  # type: ignore[attr-defined]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_holds_own_object(getattr(value, f.name), depth + 1, seen) for f in dataclasses.fields(value))
    return False


@contextlib.contextmanager
def _expanding(value: object) -> Iterator[None]:
    """An object's attributes being written: refused when it is met again inside itself (two objects
    that refer to each other), or past _OBJECTS objects in one value (each may hold several more)."""
    if not getattr(_EXPANDING, "ids", None):  # a value of its own: a new count
        _EXPANDING.ids, _EXPANDING.count = set(), 0
    ids: set[int] = _EXPANDING.ids
    if id(value) in ids:
        raise Unwritable("it refers to itself (a cycle)")
    _EXPANDING.count += 1
    if _EXPANDING.count > _OBJECTS:
        raise Unwritable(f"more than {_OBJECTS} objects of the project's classes in one value")
    ids.add(id(value))
    try:
        yield
    finally:
        ids.discard(id(value))


def tree_of(
    value: object, imports: set[tuple[str, str]], depth: int = 0, made: Made | None = None, observe: bool = False
) -> Tree:
    """The value as a tree of source; `imports` gains the (module, name) pairs it needs. Raises
    Unwritable naming the first part that cannot be written. `observe`: the observed tree (objects of
    the project's classes as their state); else how to build it (`made`: recorded constructor calls)."""
    if depth > _DEPTH:
        raise Unwritable("nested too deeply (a cycle?)")
    inner = depth + 1
    if observe and (_is_own_object(value) or _own_exception(value) or _dataclass_holding_objects(value)):
        return _observed_state(value, imports, inner)
    if isinstance(value, enum.Enum):  # first: a str or int enum's member is not its value
        name = _importable(type(value), imports)
        others = [f"{name}.{member.name}" for member in type(value) if member is not value][:_MEMBERS]
        if isinstance(value, str) and "x" not in {member.value for member in type(value)}:
            # a str enum's field takes any string at run time: one that no member has
            others.append(_string_source("x"))
        return {"text": f"{name}.{value.name}", "others": others}
    if isinstance(value, str):
        return _leaf(_string_source(value))
    if value is NotImplemented:  # what a binary special method returns for an operand it does not take
        return _leaf("NotImplemented")
    if value is None or isinstance(value, (bool, bytes)) or type(value) is int:
        return _leaf(repr(value))
    if type(value) is float:
        if math.isnan(value):
            raise Unwritable("a NaN float (never equal to itself)")
        return _leaf(repr(value) if math.isfinite(value) else f'float("{value}")')
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _dataclass(value, imports, inner, made, observe)
    if hasattr(type(value), "model_fields") and hasattr(value, "model_dump"):
        return _pydantic(value, imports, inner, made, observe)
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        name = _importable(type(value), imports)
        items = [
            (f"{field}=", f".{field}", tree_of(getattr(value, field), imports, inner, made, observe))
            for field in value._fields
        ]
        return _container(f"{name}(", ")", items)
    if type(value) is list:
        return _container(
            "[", "]", [("", f"[{i}]", tree_of(item, imports, inner, made, observe)) for i, item in enumerate(value)]
        )
    if type(value) is tuple:
        items = [("", f"[{i}]", tree_of(item, imports, inner, made, observe)) for i, item in enumerate(value)]
        return _container("(", ",)" if len(value) == 1 else ")", items)
    if type(value) is dict:
        items = []
        for key, item in value.items():
            key_tree = tree_of(key, imports, inner)
            if "text" not in key_tree and type(key) not in (tuple, frozenset):
                raise Unwritable(f"a dict key of type {type(key).__name__}")
            key_text = key_tree.get("text") or format_tree(key_tree)  # a tuple or frozenset key: its source
            items.append((f"{key_text}: ", f"[{key_text}]", tree_of(item, imports, inner, made, observe)))
        return _container("{", "}", items)
    if type(value) in (set, frozenset):
        if not value:
            return _leaf(f"{type(value).__name__}()")
        items = sorted((tree_of(item, imports, inner, made, observe) for item in value), key=format_tree)
        open_, close = ("{", "}") if type(value) is set else ("frozenset({", "})")
        return _container(open_, close, [("", "", item) for item in items])
    if type(value) in _MAPPINGS or type(value) is collections.deque:
        return _collection(value, imports, inner, made, observe)
    if type(value) in (range, slice, complex):  # their repr builds them again, and needs no import
        return _leaf(repr(value))
    if inspect.isroutine(value) or inspect.isclass(value):  # a key function, a class passed: by its name
        return _leaf(_named(value, imports))
    if _is_own_object(value):
        return _own_object(value, imports, inner, made)
    return _by_repr(value, imports)


def _collection(value: Any, imports: set[tuple[str, str]], depth: int, made: Made | None, observe: bool) -> Tree:
    """A `collections` mapping or deque as its constructor given its items (`collections.Counter({"a": 2})`,
    `collections.defaultdict(list, {...})`, `collections.deque([...], maxlen=3)`): their reprs do not build them."""
    imports.add(("", "collections"))
    name = f"collections.{type(value).__name__}"
    if type(value) is collections.deque:
        held = tree_of(list(value), imports, depth, made, observe)
        close = "])" if value.maxlen is None else f"], maxlen={value.maxlen})"
        return {**held, "open": f"{name}([", "close": close}
    held = tree_of(dict(value), imports, depth, made, observe)
    if type(value) is collections.defaultdict:
        factory = tree_of(value.default_factory, imports, depth)
        return {**held, "open": f"{name}({format_tree(factory)}, {{", "close": "})"}
    return {**held, "open": f"{name}({{", "close": "})"}


def _dataclass(value: Any, imports: set[tuple[str, str]], depth: int, made: Made | None, observe: bool) -> Tree:
    name = _importable(type(value), imports)
    items = []
    for field in dataclasses.fields(value):
        if field.init:
            tree = tree_of(getattr(value, field.name), imports, depth, made, observe)
            items.append((f"{field.name}=", f".{field.name}", tree))
    return _container(f"{name}(", ")", items)


def _pydantic(value: Any, imports: set[tuple[str, str]], depth: int, made: Made | None, observe: bool) -> Tree:
    name = _importable(type(value), imports)
    items = []
    for field, info in type(value).model_fields.items():
        keyword = getattr(info, "alias", None) or field
        if not keyword.isidentifier():
            raise Unwritable(f"{name}.{field} has the alias {keyword!r}, no keyword")
        items.append((f"{keyword}=", f".{field}", tree_of(getattr(value, field), imports, depth, made, observe)))
    return _container(f"{name}(", ")", items)


def _observed_state(value: object, imports: set[tuple[str, str]], depth: int) -> Tree:
    """An object as what it holds: each attribute a test can state, by name (one it cannot, such as a
    lock, is left out: it is no part of what a test asserts, but its name is kept under `"left_out"`,
    so that holding it is never taken for lacking it); `imports` gains what the kept ones need."""
    items = []
    left_out = []
    with _expanding(value):
        for name, item in sorted(_state(value).items()):
            needed: set[tuple[str, str]] = set()
            try:
                items.append((f"{name}=", f".{name}", tree_of(item, needed, depth, observe=True)))
            except Unwritable:
                left_out.append(name)
                continue
            imports |= needed
        if isinstance(value, collections.abc.Collection):  # what it holds is state too: a test lists it
            mapping, held = _contents(value)
            # items of its own class (an interval of intervals, each iterating to itself) would hold
            # themselves again without end: its attributes say what it holds
            if not _of_own_kind(value, held):
                needed = set()
                try:
                    items.append(
                        ("", "dict({})" if mapping else "list({})", tree_of(held, needed, depth, observe=True))
                    )
                    imports |= needed
                except Unwritable:
                    pass
    tree = {**_container(f"{type(value).__qualname__}(", ")", items), "state": True}
    return {**tree, "left_out": left_out} if left_out else tree


def _own_object(value: object, imports: set[tuple[str, str]], depth: int, made: Made | None) -> Tree:
    expected = tree_of(value, set(), depth, observe=True)  # what a rebuilt one must hold
    with _expanding(value):
        return _built_by_constructor(value, imports, depth, made, expected)


def _built_by_constructor(
    value: object, imports: set[tuple[str, str]], depth: int, made: Made | None, expected: Tree
) -> Tree:
    """An object of the project's classes as the source that builds it: the constructor call recorded
    when it was made, else its class's constructor given its attributes, else (a collection) given
    its items; the first seen to build an object holding the same (the later ones are not written)."""
    cls = type(value)
    name = _importable(cls, imports)
    ways = [(_by_attributes, "its attributes"), (_by_items, "its items")]
    if made is not None and id(value) in made and made[id(value)][0] is value:
        ways.insert(0, (_recorded_call, "the call that made it"))
        if not made[id(value)][1] and made[id(value)][3]:  # changed since its constructor call: its keywords still hold
            ways.append((_by_items_as_made, "its items and the keywords it was made with"))
    reasons = []
    for way, label in ways:
        needed: set[tuple[str, str]] = set()
        try:
            tree = way(value, needed, depth, made)
            rebuilt = eval(format_tree(tree), namespace(needed))
        except Unwritable as error:
            reasons.append(_first_reason(str(error)))
            continue
        except Exception as error:  # the project's constructor refused the values
            reasons.append(f"{name}(…) from {label} raised {type(error).__name__}")
            continue
        if type(rebuilt) is cls and tree_of(rebuilt, set(), depth, observe=True) == expected:
            imports |= needed
            return tree
        reasons.append(f"{name}(…) from {label} builds an object holding other values")
    raise Unwritable(f"{_article(f'{cls.__module__}.{cls.__qualname__}')}: {'; '.join(dict.fromkeys(reasons))}")


def _first_reason(message: str) -> str:
    """A nested object's refusal, its first reason only: the objects it holds repeat theirs."""
    first = message.split("; ")[0]
    return first if first == message else f"{first}; …"


def _recorded_call(value: object, imports: set[tuple[str, str]], _depth: int, made: Made | None) -> Tree:
    """`Class(...)` or `Class.factory(...)` as the tests called it when they made the object (its
    arguments' trees recorded then)."""
    _, factory, args, kwargs, needed = made[id(value)]  # type: ignore[index]
    imports |= needed
    items = [("", "", tree) for tree in args] + [(f"{key}=", "", tree) for key, tree in kwargs.items()]
    name = _importable(type(value), imports)
    return _container(f"{name}.{factory}(" if factory else f"{name}(", ")", items)


def _by_items(value: object, imports: set[tuple[str, str]], depth: int, made: Made | None) -> Tree:
    """`Class([item, ...])` (or `Class({key: value})` for a mapping): a collection built from what it holds."""
    if not isinstance(value, collections.abc.Collection):
        raise Unwritable(f"a {type(value).__qualname__} is no collection to build from its items")
    name = _importable(type(value), imports)
    _, held = _contents(value)
    if _of_own_kind(value, held):
        raise Unwritable(
            f"the items of a {type(value).__qualname__} are of its own class without end (each holds another)"
        )
    return _container(f"{name}(", ")", [("", "", tree_of(held, imports, depth, made))])


def _by_items_as_made(value: object, imports: set[tuple[str, str]], depth: int, made: Made | None) -> Tree:
    """`Class([item, ...], key=...)`: a collection built from what it holds, given the keyword arguments
    of the constructor call that made it (`StringTrie({...}, separator="~")`)."""
    tree = _by_items(value, imports, depth, made)
    _, _, _, kwargs, needed = made[id(value)]  # type: ignore[index]
    imports |= needed
    return {**tree, "items": [*tree["items"], *[[f"{key}=", "", item] for key, item in kwargs.items()]]}


def _contents(value: object) -> tuple[bool, dict[Any, Any] | list[Any]]:
    """Whether a collection is a mapping, and what it holds: a dict of it, or a list."""
    mapping = isinstance(value, collections.abc.Mapping)
    return mapping, dict(value) if mapping else list(value)  # type: ignore[call-overload]


def _of_own_kind(value: object, held: dict[Any, Any] | list[Any], depth: int = 0) -> bool:
    """Whether a collection holds objects of its own class without end (as portion's intervals,
    each iterating to one again); a nesting that ends (a `Dict` of `Dict`s of values) does not."""
    own = [item for item in (held.values() if isinstance(held, dict) else held) if type(item) is type(value)]
    if not own or depth >= _OWN_DEPTH:
        return bool(own)
    return any(_of_own_kind(item, _contents(item)[1], depth + 1) for item in own)


def _by_attributes(value: object, imports: set[tuple[str, str]], depth: int, made: Made | None) -> Tree:
    """`Class(param=value, ...)`: each constructor parameter given the attribute of its name (or of
    its name with one or two leading underscores); one with a default and no attribute left out."""
    cls = type(value)
    name = _importable(cls, imports)
    state = _state(value)
    try:
        parameters = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError) as error:
        raise Unwritable(f"the constructor of {name} has no signature") from error
    items = []
    for parameter in parameters:
        held = [f"{parameter.name}", f"_{parameter.name}", f"_{cls.__name__}__{parameter.name}"]
        attribute = next((one for one in held if one in state), None)
        if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD) or attribute is None:
            if parameter.default is inspect.Parameter.empty and parameter.kind not in (
                inspect.Parameter.VAR_POSITIONAL,
                inspect.Parameter.VAR_KEYWORD,
            ):
                raise Unwritable(f"no attribute of a {name} holds its constructor's {parameter.name}")
            continue
        prefix = "" if parameter.kind is inspect.Parameter.POSITIONAL_ONLY else f"{parameter.name}="
        items.append((prefix, f".{attribute}", tree_of(state[attribute], imports, depth, made)))
    return _container(f"{name}(", ")", items)


def _by_repr(value: object, imports: set[tuple[str, str]]) -> Tree:
    """A standard-library value whose `repr` builds it again (checked by `rebuilt_equal`)."""
    cls = type(value)
    top = cls.__module__.split(".")[0]
    if top not in _STDLIB_REPR:
        kinds = "a literal, container, enum, dataclass or pydantic model"
        raise Unwritable(f"{_article(f'{cls.__module__}.{cls.__qualname__}')} (not {kinds})")
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


def checked_tree(value: object, imports: set[tuple[str, str]], made: Made | None = None) -> Tree:
    """`tree_of` (how to build it), once its source is seen to build a value that holds the same."""
    needed: set[tuple[str, str]] = set()
    tree = tree_of(value, needed, made=made)
    try:
        rebuilt = eval(format_tree(tree), namespace(needed))  # source this module wrote
    except Exception as error:  # the project's constructor refused its own field values
        raise Unwritable(f"its source does not build it again ({type(error).__name__}: {error})") from error
    if tree_of(rebuilt, set(), observe=True) != tree_of(value, set(), observe=True):
        raise Unwritable("its source builds a different value (a field the constructor does not keep)")
    # a test asserts with ==: a type that compares by identity cannot be asserted on whole
    if not _holds_own_object(value) and rebuilt != value:
        raise Unwritable(f"a {type(value).__qualname__} built from its source is not == to it")
    imports |= needed
    return tree


def observed_tree(value: object, imports: set[tuple[str, str]]) -> Tree:
    """What a test can assert of a value: its checked tree, or, where it holds objects of the
    project's classes, their state (items marked `"state"`)."""
    if not _holds_own_object(value):
        return checked_tree(value, imports)
    return tree_of(value, imports, observe=True)


def holds_state(tree: Tree) -> bool:
    """Whether an observed tree holds an object's state (which `==` cannot assert whole)."""
    return bool(tree.get("state")) or any(holds_state(item) for _, _, item in tree.get("items", []))
