"""A Python file's code as reuse compares it: each function's code and the names it refers to, and
the module-level statements by what they do: those that only bind names (a plain value, an
import, a `def`, a class whose creation runs nothing of its own) and those with effects (a call, a
decorator, a change to another object, a star import), in order.

Code is compared as Python parses it (`ast.dump`), so comments, blank lines and moved lines change
nothing; a file that does not parse is one change, whole.
"""

import ast
import builtins
import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from functools import cache, cached_property

_Def = ast.FunctionDef | ast.AsyncFunctionDef
DYNAMIC = "*"  # among a function's names: it reaches names it does not spell (getattr with a computed name, …)
EVERY_NAME = "**"  # "MODULE:**" among a statement's names: every binding of that module (its `__dict__`)
_NAMESPACE = "__dict__ of "  # with DYNAMIC: `NAME.__dict__`, which a module-level statement may narrow
ANYWHERE = "**"  # … in any module (a module imported by a computed name)
# … what code run from text (eval, exec) reaches: anywhere, but for a function whose run was observed,
# the names that text spelled, which its run recorded (`text:` labels: see `reuse.decide`)
RUNS_TEXT = "**text"
# Calls that build a value and do nothing else, spelled as the code calls them.
_PURE_CALLS = frozenset(
    {
        *("dict", "list", "tuple", "set", "frozenset", "str", "int", "float", "bool", "bytes", "object"),
        *("range", "len", "sorted", "min", "max", "sum", "any", "all", "enumerate", "zip", "reversed", "abs"),
        *("round", "isinstance", "issubclass", "ord", "chr", "repr"),
        *("TypeVar", "ParamSpec", "TypeVarTuple", "NewType", "cast", "namedtuple", "field"),
        *("typing.TypeVar", "typing.ParamSpec", "typing.NewType", "typing.cast", "collections.namedtuple"),
        *("dataclasses.field", "re.compile", "logging.getLogger", "getLogger", "frozendict"),
        *("Field", "pydantic.Field", "PrivateAttr", "pydantic.PrivateAttr", "ConfigDict", "pydantic.ConfigDict"),
        *("dedent", "textwrap.dedent", "indent", "textwrap.indent", "Path", "pathlib.Path", "PurePath"),
        *("pathlib.PurePath", "os.path.join", "os.path.dirname", "os.path.basename", "os.path.splitext"),
        *("timedelta", "datetime.timedelta", "Decimal", "decimal.Decimal", "auto", "enum.auto"),
        *("defaultdict", "collections.defaultdict", "OrderedDict", "collections.OrderedDict", "deque"),
        *("collections.deque", "Counter", "collections.Counter", "MappingProxyType", "types.MappingProxyType"),
        *("partial", "functools.partial", "get_args", "typing.get_args", "get_origin", "typing.get_origin"),
        *("TypeAdapter", "pydantic.TypeAdapter", "StringConstraints", "pydantic.StringConstraints"),
        *("itertools.count", "threading.Lock", "threading.RLock", "threading.Event", "threading.Condition"),
        *("threading.local", "weakref.WeakKeyDictionary", "weakref.WeakValueDictionary", "weakref.WeakSet"),
    }
)
# Decorators that wrap or fill in what they decorate and keep no record of it anywhere else: a `def`
# or a class so decorated stays a plain binding.
_PURE_DECORATORS = frozenset(
    {
        *("property", "staticmethod", "classmethod", "abstractmethod", "abc.abstractmethod", "cached_property"),
        *("functools.cached_property", "overload", "typing.overload", "override", "typing.override"),
        *("final", "typing.final", "runtime_checkable", "typing.runtime_checkable", "deprecated"),
        *("typing_extensions.deprecated", "warnings.deprecated", "typing_extensions.final"),
        *("cache", "functools.cache", "lru_cache", "functools.lru_cache", "wraps", "functools.wraps"),
        *("contextmanager", "contextlib.contextmanager", "asynccontextmanager", "contextlib.asynccontextmanager"),
        *("dataclass", "dataclasses.dataclass", "total_ordering", "functools.total_ordering"),
        *("attr.s", "attr.attrs", "attr.define", "attr.frozen", "attrs.define", "attrs.frozen", "define", "frozen"),
    }
)
_ACCESSORS = ("setter", "getter", "deleter")
# Metaclasses (given as `metaclass=`) that only build the class.
_PLAIN_METACLASSES = frozenset({"ABCMeta", "abc.ABCMeta", "EnumMeta", "enum.EnumMeta", "EnumType", "enum.EnumType"})
# Bases whose class creation runs nothing that could register the class elsewhere.
_PLAIN_BASES = frozenset(
    {
        *(name for name, value in vars(builtins).items() if isinstance(value, type)),
        *("ABC", "abc.ABC", "Protocol", "typing.Protocol", "Generic", "typing.Generic", "NamedTuple"),
        *("typing.NamedTuple", "TypedDict", "typing.TypedDict", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"),
        *("enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"),
        *("BaseModel", "pydantic.BaseModel", "RootModel", "pydantic.RootModel", "Exception", "Warning"),
        # their `__init_subclass__` sets attributes of the new class alone
        *("TestCase", "unittest.TestCase", "IsolatedAsyncioTestCase", "unittest.IsolatedAsyncioTestCase"),
    }
)
# Names whose meaning these lists give, as reached through a module's alias (see `_spell_aliases`).
_KNOWN_NAMES = _PURE_CALLS | _PURE_DECORATORS | _PLAIN_BASES | _PLAIN_METACLASSES
# Reaching names the code does not spell: in its own module and the modules it names (DYNAMIC), or in
# any module (ANYWHERE: a module imported by a computed name; RUNS_TEXT: code run from text).
_DYNAMIC_CALLS = frozenset({"globals", "vars", "locals"})
_ANYWHERE_CALLS = frozenset({"__import__", "import_module"})
_TEXT_CALLS = frozenset({"eval", "exec"})
_DYNAMIC_ATTRIBUTES = frozenset({"__dict__", "__getattribute__"})
_BY_NAME = frozenset({"getattr", "hasattr", "setattr", "delattr"})


def digest(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text).hexdigest()[:20]


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.c` for a name or an attribute of one, None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (outer := dotted_name(node.value)):
        return f"{outer}.{node.attr}"
    return None


def _static_import(node: ast.AST) -> bool:
    """`import_module("a.b")` or `__import__("a")`: an import by a name the code spells."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    name = (dotted_name(node.func) or "").rpartition(".")[2]
    first = node.args[0]
    return name in ("import_module", "__import__") and isinstance(first, ast.Constant) and isinstance(first.value, str)


def _node_names(node: ast.AST, found: set[str], spelled: AbstractSet[int] = frozenset()) -> None:
    """The names one node refers to (not its children's): a variable as "NAME", an attribute as
    ".NAME" (of any object), a name imported from a module as "MODULE:NAME" (MODULE with a dot
    for each level of a relative import), DYNAMIC where the code reaches names it does not spell.
    `spelled`: the ids of the callees of imports by a name the code spells (no ANYWHERE for them)."""
    if isinstance(node, ast.Name):
        found.add(node.id)
        if node.id in _DYNAMIC_CALLS:
            found.add(DYNAMIC)
        elif node.id in _TEXT_CALLS:
            found.add(RUNS_TEXT)
        elif node.id in _ANYWHERE_CALLS and id(node) not in spelled:
            found.add(ANYWHERE)
    elif isinstance(node, ast.Attribute):
        found.add("." + node.attr)
        if node.attr in _DYNAMIC_ATTRIBUTES:
            found.add(DYNAMIC)
            if _namespace_of(node):
                found.add(_NAMESPACE + node.value.id)
        elif node.attr in _TEXT_CALLS:
            found.add(RUNS_TEXT)
        elif node.attr in _ANYWHERE_CALLS and id(node) not in spelled:
            found.add(ANYWHERE)
    elif isinstance(node, ast.ImportFrom):
        module = "." * node.level + (node.module or "")
        found.update(f"{module}:{alias.name}" for alias in node.names)  # "MODULE:*" for a star import
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _BY_NAME:
        name = node.args[1] if len(node.args) > 1 else None
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            found.add("." + name.value)
        else:
            found.add(DYNAMIC)


def _namespace_of(node: ast.AST) -> bool:
    """`NAME.__dict__`: the namespace of what a plain name holds."""
    return isinstance(node, ast.Attribute) and node.attr == "__dict__" and isinstance(node.value, ast.Name)


def _narrowed(node: ast.stmt, refers: set[str], imported: Mapping[str, str]) -> set[str]:
    """A module-level statement's names, where it reaches names it does not spell only as
    `MODULE.__dict__` of modules the module binds by `import` alone (`builtins.__dict__`): every
    binding of those modules ("MODULE:**"), not of its own. At module level a name is the module's
    variable, unless the statement binds it itself (a comprehension's target), so the object is that
    module. Anything else, or a function's code (where a local may shadow the import), stays DYNAMIC."""
    holders = {name.removeprefix(_NAMESPACE) for name in refers if name.startswith(_NAMESPACE)}
    refers = {name for name in refers if not name.startswith(_NAMESPACE)}
    if DYNAMIC not in refers or not holders or not holders <= imported.keys():
        return refers
    inner_nodes = list(ast.walk(node))
    stored = {inner.id for inner in inner_nodes if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load)}
    stored |= {inner.arg for inner in inner_nodes if isinstance(inner, ast.arg)}
    if holders & stored or DYNAMIC in _names_of([inner for inner in _executed(node) if not _namespace_of(inner)]):
        return refers
    return (refers - {DYNAMIC}) | {f"{imported[name]}:{EVERY_NAME}" for name in holders}


def names_in(nodes: Iterable[ast.AST]) -> set[str]:
    """The names the code refers to, all of it (see `_node_names`); `getattr(x, "a")` counts as `.a`."""
    return _names_of([node for top in nodes for node in ast.walk(top)])


def executed_names(statement: ast.stmt, namespaces: bool = False) -> set[str]:
    """The names a statement refers to when it runs (see `_executed`); with `namespaces`, each
    `NAME.__dict__` marked too (see `_narrowed`)."""
    return _names_of(list(_executed(statement)), namespaces)


def _names_of(nodes: list[ast.AST], namespaces: bool = False) -> set[str]:
    found: set[str] = set()
    spelled = {id(node.func) for node in nodes if _static_import(node)}
    for node in nodes:
        _node_names(node, found, spelled)
    found.discard("")
    return found if namespaces else {name for name in found if not name.startswith(_NAMESPACE)}


def _executed(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes a statement evaluates when it runs: a function's body and a lambda's are left out."""
    if isinstance(node, _Def | ast.Lambda):
        parts = [*node.decorator_list, node.returns] if isinstance(node, _Def) else []
        for part in [*parts, *_signature(node.args)]:
            if part is not None:
                yield from _executed(part)
        return
    yield node
    for child in ast.iter_child_nodes(node):
        yield from _executed(child)


def _annotations_run(node: ast.AST, in_function: bool = False) -> list[ast.expr]:
    """The annotations a statement evaluates as it runs, unless its module has `from __future__
    import annotations`: its functions' signatures', and its variables' and its class bodies' (a
    function's own variables' are never evaluated); not those in a function's body, which run when
    it does (see `_runs_annotations`)."""
    if isinstance(node, _Def):
        every = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg]
        found = [argument.annotation for argument in every if argument is not None and argument.annotation]
        return found + ([node.returns] if node.returns else [])
    found = [node.annotation] if isinstance(node, ast.AnnAssign) and not in_function else []
    in_function = in_function and not isinstance(node, ast.ClassDef)
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.stmt | ast.ExceptHandler | ast.match_case):
            found += _annotations_run(child, in_function)
    return found


def _runs_annotations(function: _Def) -> bool:
    """Whether running the function evaluates annotations: of a function or class it makes."""
    return any(_annotations_run(item, in_function=True) for item in function.body)


def _signature(arguments: ast.arguments) -> list[ast.expr]:
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    annotations = [argument.annotation for argument in every if argument is not None and argument.annotation]
    return [*arguments.defaults, *(value for value in arguments.kw_defaults if value is not None), *annotations]


def _calls(node: ast.AST) -> bool:
    """Whether running the statement calls something that is not a plain value's constructor (or awaits)."""
    for inner in _executed(node):
        if isinstance(inner, ast.Await | ast.Yield | ast.YieldFrom):
            return True
        if isinstance(inner, ast.Call) and dotted_name(inner.func) not in _PURE_CALLS and not _string_method(inner):
            return True
    return False


def _string_method(call: ast.Call) -> bool:
    """A method of a string literal or of what one returned (`", ".join(names).split()`): str's methods
    only build values."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    receiver = func.value
    literal = isinstance(receiver, ast.Constant) and isinstance(receiver.value, str)
    return (
        literal or isinstance(receiver, ast.JoinedStr) or (isinstance(receiver, ast.Call) and _string_method(receiver))
    )


def _bound(target: ast.expr) -> set[str] | None:
    """The names an assignment target binds; None for a target that changes another object."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Starred):
        return _bound(target.value)
    if isinstance(target, ast.Tuple | ast.List):
        found: set[str] = set()
        for element in target.elts:
            inner = _bound(element)
            if inner is None:
                return None
            found |= inner
        return found
    return None


def _own_objects(tree: ast.Module, plain_classes: frozenset[str]) -> frozenset[str]:
    """The names the module binds once, each by a `def` or class statement without effects: the
    object each holds is one the module made, and only what refers to its name can reach it."""
    once = _bound_once(tree)
    made = (node for node in tree.body if isinstance(node, _Def | ast.ClassDef))
    return frozenset(node.name for node in made if node.name in once and not _effects(node, None, plain_classes))


def _attributes_set(node: ast.stmt, own_objects: frozenset[str]) -> set[str] | None:
    """`f.skip = Skip`: for a plain assignment (it calls nothing) to attributes of objects the module
    made (see `_own_objects`), the names of those objects, each of which it changes as its `def`
    does; None for any other statement. Attributes that Python or pytest read apart (`__code__`,
    `__test__`, `pytestmark`), and objects named as pytest's own names are."""
    if not isinstance(node, ast.Assign) or _calls(node.value):
        return None
    found = set()
    for target in node.targets:
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
            return None
        if target.value.id not in own_objects or target.attr.startswith(("__", *_PYTEST_NAMES)):
            return None
        found.add(target.value.id)
    return None if any(name.startswith(_PYTEST_NAMES) for name in found) else found


class Statement:
    """One of a module's own statements: the names it binds and refers to, whether it has effects,
    and (when asked) its code, function bodies left out."""

    def __init__(
        self,
        node: ast.stmt,
        plain_classes: frozenset[str],
        own_objects: frozenset[str] = frozenset(),
        imported: Mapping[str, str] = {},
    ) -> None:
        """`imported`: the names the module binds by `import` alone, each to its module (see `_narrowed`)."""
        self.node = node
        self.plain_classes = plain_classes
        importing = isinstance(node, ast.Import | ast.ImportFrom)
        attributes_of = _attributes_set(node, own_objects)
        self.binds = frozenset(_binds(node) if attributes_of is None else attributes_of)
        refers = names_in([node]) if importing else _narrowed(node, executed_names(node, True), imported)
        if isinstance(node, ast.ClassDef):
            refers |= _in_class(node.name, _own_names(node), refers)
        if attributes_of is not None:  # the object it changes is its own binding, not something it reads
            refers -= attributes_of
        self.refers = frozenset(refers)
        self.imports = _imports(node)  # (module, relative level) of an import
        self.bases: tuple[str, ...] = ()  # a class statement's bases another module defines (see `_foreign_bases`)
        if isinstance(node, ast.ClassDef) and not _effects_of_pytest(node):
            self.bases = _foreign_bases(node, plain_classes)
            self.own_effects = _class_effects(node, plain_classes, bases=False)
        elif attributes_of is not None:
            self.own_effects = False
        else:
            self.own_effects = _effects(node, None, plain_classes)

    @cached_property
    def annotations(self) -> list[ast.expr]:
        """What it evaluates as annotations (see `_annotations_run`)."""
        return _annotations_run(self.node)

    @property
    def annotations_call(self) -> bool:
        """Whether evaluating its annotations calls something (see `_calls`)."""
        return any(_calls(annotation) for annotation in self.annotations)

    @property
    def effects(self) -> bool:
        """With effects, every base of another module taken as one that runs code (see `project_code`)."""
        return self.own_effects or bool(self.bases)

    @cached_property
    def text(self) -> str:
        return _stubbed_dump(self.node)

    @cached_property
    def effect_text(self) -> str:
        """The code its effects stand on: of a class statement whose making runs only its body's
        statements, its head and those its effects stand on (see `_body_effects`), so that a method's
        new signature beside a registration in its body is a member's change, not the module's
        effects'; the whole statement otherwise."""
        node = self.node
        if isinstance(node, ast.ClassDef) and not self.bases:
            acting = _body_effects(node, self.plain_classes)
            if acting is not None:
                head = [node.name, *map(ast.dump, [*node.bases, *node.keywords, *node.decorator_list])]
                return "\0".join([*head, *map(_stubbed_dump, acting)])
        return self.text

    @cached_property
    def parts(self) -> list[tuple[frozenset[str], frozenset[str]]]:
        """What binds what, from what it refers to: a class statement by its own parts (bases,
        decorators, keywords: they bind the class's name) and each statement of its body (binding
        that member and the class's name); any other statement whole."""
        node = self.node
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            return [
                (frozenset({alias.asname or alias.name} - {"*"}), frozenset({f"{module}:{alias.name}"}))
                for alias in node.names
            ]
        if not isinstance(node, ast.ClassDef):
            return [(self.binds, self.refers)]
        head = [*node.bases, *node.decorator_list, *(keyword.value for keyword in node.keywords)]
        found = [(frozenset({node.name}), frozenset(names_in(head)))]
        own = _own_names(node)
        for item in node.body:
            refers = executed_names(item)
            binds = {node.name, *(f"{node.name}.{name}" for name in _binds(item))}
            found.append((frozenset(binds), frozenset(refers | _in_class(node.name, own, refers))))
        return found

    @cached_property
    def members(self) -> dict[str, str]:
        """The names the statement binds each by a part of its own, and that part's code: for a class
        statement, each member ("CLASS.NAME") by the body's statement binding it (so that a new method
        changes that method's name and the class's, not every name the class binds); for an import,
        each name by what it imports (so that a name added to the line changes only that name)."""
        node = self.node
        found: dict[str, str] = {}
        if isinstance(node, ast.Import | ast.ImportFrom):
            source = f"{node.level}:{node.module}" if isinstance(node, ast.ImportFrom) else ""
            for alias in node.names:
                if alias.name != "*":
                    name = alias.asname or alias.name.partition(".")[0]
                    found[name] = found.get(name, "") + "\0" + source + ast.dump(alias)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                text = _stubbed_dump(item)
                for name in _binds(item):
                    member = f"{node.name}.{name}"
                    found[member] = found.get(member, "") + "\0" + text
        return found


def _imported_modules(tree: ast.Module) -> dict[str, str]:
    """The names the module's own statements bind only by `import` (`import a.b` binds `a`, `import
    a.b as m` binds `m`), each to the module it holds."""
    found: dict[str, str] = {}
    other: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.asname or alias.name.partition(".")[0]
                module = alias.name if alias.asname else name
                if found.setdefault(name, module) != module:
                    other.add(name)
        else:
            other |= _binds(node)
    return {name: module for name, module in found.items() if name not in other}


def _bound_once(tree: ast.Module) -> set[str]:
    """The names the module's own statements bind exactly once."""
    counts: dict[str, int] = {}
    for node in tree.body:
        for name in _binds(node):
            counts[name] = counts.get(name, 0) + 1
    return {name for name, count in counts.items() if count == 1}


def _spell_aliases(tree: ast.Module, imported: Mapping[str, str]) -> None:
    """Spells what a module's aliases stand for where that decides whether a statement only binds,
    each alias bound once at module level: a decorator naming an alias of a pytest mark
    (`parametrize = pytest.mark.parametrize`) as that mark, so that a test's new case is its own
    change, not the module's effects; a known name reached through a module's alias (`import typing
    as t`: `t.overload`, `t.TypeVar`, `t.Generic`) through the module's name. A changed alias
    changes every statement spelled through it. A name some code binds for itself too (a parameter,
    a local variable, a comprehension's target) may not be the alias there: it is spelled nowhere."""
    every = list(ast.walk(tree))
    stored = Counter(node.id for node in every if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load))
    stored.update(node.arg for node in every if isinstance(node, ast.arg))
    # `imported` (see `_imported_modules`): bound by no name of its own; a mark's alias by its assignment
    once = {name for name in _bound_once(tree) if stored[name] <= (0 if name in imported else 1)}
    marks: dict[str, ast.expr] = {}
    modules: dict[str, str] = {}  # alias: the module's name
    for node in tree.body:
        if isinstance(node, ast.Import):
            modules.update((alias.asname, alias.name) for alias in node.names if alias.asname in once)
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(target := node.targets[0], ast.Name)
            and target.id in once
            and (dotted_name(node.value) or "").startswith(("pytest.mark.", "mark."))
        ):
            marks[target.id] = node.value
    spelled = {alias: ast.parse(name, mode="eval").body for alias, name in modules.items()}
    for node in ast.walk(tree):
        alias = node.value.id if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) else None
        if alias in modules and f"{modules[alias]}.{node.attr}" in _KNOWN_NAMES:
            node.value = spelled[alias]
        if isinstance(node, _Def) and marks:
            for position, decorator in enumerate(node.decorator_list):
                called = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(called, ast.Name) and called.id in marks:
                    if isinstance(decorator, ast.Call):
                        decorator.func = marks[called.id]
                    else:
                        node.decorator_list[position] = marks[called.id]


class ModuleCode:
    """A module's code, parsed once; each part worked out when first asked for."""

    def __init__(self, source: bytes) -> None:
        self.whole = digest(source)  # the file's bytes
        try:
            self.tree: ast.Module | None = ast.parse(source)
        except (SyntaxError, ValueError):
            self.tree = None
        else:
            self._imported = _imported_modules(self.tree)
            _spell_aliases(self.tree, self._imported)
        self.parsed = self.tree is not None

    @cached_property
    def statements(self) -> tuple[Statement, ...]:
        """The module's own, in order (a docstring is none)."""
        if self.tree is None:
            return ()
        plain = frozenset(_plain_classes(self.tree))
        own_objects = _own_objects(self.tree, plain)
        return tuple(
            Statement(node, plain, own_objects, self._imported)
            for node in self.tree.body
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        )

    @cached_property
    def _reader(self) -> "_Reader":
        reader = _Reader(self.future)
        if self.tree is not None:
            reader.collect(self.tree, [])
        return reader

    @property
    def functions(self) -> dict[str, str]:
        """Qualified name -> its `def` (decorators, signature, body, nested code)."""
        return self._reader.functions

    @property
    def names(self) -> dict[str, frozenset[str]]:
        """Qualified name -> the names its `def` (or class statement) refers to, and its scopes'."""
        return self._reader.names

    @property
    def classes(self) -> dict[str, str]:
        """Qualified name -> its class statement (methods' bodies left out)."""
        return self._reader.classes

    @property
    def members(self) -> dict[str, frozenset[str]]:
        """Class qualified name -> the names its body binds and never reads (see `_members`)."""
        return self._reader.members

    @property
    def methods(self) -> dict[str, list[str]]:
        """Class qualified name -> its methods' qualified names."""
        return self._reader.methods

    @cached_property
    def future(self) -> frozenset[str]:
        """The `__future__` features the module is compiled with (with `annotations`, no annotation
        is evaluated, and every one reads as a string)."""
        if self.tree is None:
            return frozenset()
        return frozenset(
            alias.name
            for node in self.tree.body
            if isinstance(node, ast.ImportFrom) and node.module == "__future__"
            for alias in node.names
        )

    @cached_property
    def aliases(self) -> dict[str, str]:
        """A name its imports bind -> what it imports (see `_aliases`)."""
        return _aliases(self.tree) if self.tree is not None else {}

    @cached_property
    def binds(self) -> dict[str, str]:
        """Each name the module binds, and the code of the statements binding it, in order (a class's
        members by their own statements); a statement also counts how often each name it refers to
        was bound before it (an order)."""
        order: dict[str, list[str]] = {}
        counts: dict[str, int] = {}
        for statement in self.statements:
            text = _with_order(statement, counts)
            members = statement.members
            for name in statement.binds:
                order.setdefault(name, []).append(members.get(name, text))
            for name in statement.binds:
                counts[name] = counts.get(name, 0) + 1
        return {name: digest("\0".join(texts)) for name, texts in order.items()}

    def effects_any(self, has_effects: Callable[[Statement], bool] = lambda statement: statement.effects) -> bool:
        return any(has_effects(statement) for statement in self.statements) or not self.parsed

    def effects(self, has_effects: Callable[[Statement], bool] = lambda statement: statement.effects) -> str:
        """The statements with effects (by `has_effects`), in order, each with how often the names it
        refers to were bound before it."""
        counts: dict[str, int] = {}
        texts = []
        for statement in self.statements:
            if has_effects(statement):
                texts.append(_with_order(statement, counts, statement.effect_text))
            for name in statement.binds:
                counts[name] = counts.get(name, 0) + 1
        return digest("\0".join(texts)) if self.parsed else self.whole

    @cached_property
    def top_classes(self) -> dict[str, ast.ClassDef]:
        """The module's own classes (at its top, or under an `if` or a `try`), by name."""
        found = {}
        for node in ast.walk(self.tree) if self.tree is not None else ():
            if isinstance(node, _Def):
                continue
            if isinstance(node, ast.ClassDef) and node.name not in found:
                found[node.name] = node
        return found

    def code(self, qualname: str) -> str:
        """The code of `qualname`: a function's, or a class statement's; for a lambda or a
        comprehension, its function's; "" for a name the file no longer has."""
        name = qualname
        while name and name != "<module>":
            if name in self.functions:
                return self.functions[name]
            if name in self.classes:
                return self.classes[name]
            name = name.rpartition(".")[0].removesuffix(".<locals>")
        return ""

    def holder(self, qualname: str) -> str | None:
        """The function or class `qualname` belongs to in this file, or None."""
        name = qualname
        while name and name != "<module>":
            if name in self.functions or name in self.classes:
                return name
            name = name.rpartition(".")[0].removesuffix(".<locals>")
        return None


def _with_order(statement: Statement, counts: dict[str, int], text: str | None = None) -> str:
    before = sorted(f"{name}={counts[name]}" for name in statement.refers if name in counts)
    return (statement.text if text is None else text) + "\0" + ",".join(before)


class _Reader:
    """One pass over a module: its functions and classes by qualified name, and its statements."""

    def __init__(self, future: frozenset[str]) -> None:
        self.future = future  # the module's `__future__` features
        self.functions: dict[str, str] = {}
        self.names: dict[str, frozenset[str]] = {}
        self.classes: dict[str, str] = {}
        self.methods: dict[str, list[str]] = {}
        self.members: dict[str, frozenset[str]] = {}

    def collect(self, node: ast.AST, scope: list[str], own: frozenset[str] | None = None) -> None:
        """`own`: where `node` is part of a class's body, the names that body binds (the class is the
        one `scope` ends with; a method's decorators and signature read its members)."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _Def | ast.ClassDef):
                qualname = ".".join([*scope, child.name])
                if isinstance(child, ast.ClassDef):
                    self.classes[qualname] = digest(_stubbed_dump(child))
                    self.methods[qualname] = [
                        f"{qualname}.{item.name}" for item in child.body if isinstance(item, _Def)
                    ]
                    names, members = _class_names(child), _own_names(child)
                    self.names[qualname] = frozenset(names | _in_class(qualname, members, names) | set(scope))
                    self.members[qualname] = _members(child)
                    self.collect(child, [*scope, child.name], members)
                else:
                    future = ",".join(sorted(self.future)) if _runs_annotations(child) else ""
                    self.functions.setdefault(qualname, digest(ast.dump(child) + future))
                    names = names_in([child])
                    names |= _in_class(".".join(scope), own, names) if own is not None else set()
                    self.names[qualname] = frozenset(names | set(scope) - {"<locals>"})
                    self.collect(child, [*scope, child.name, "<locals>"])
            else:
                self.collect(child, scope, own)


_STUB = [ast.Expr(ast.Constant(...))]


def _stubbed_dump(node: ast.AST) -> str:
    """`ast.dump(node)` with every function's body left out (its decorators and signature kept):
    the bodies are set aside while it dumps, then put back."""
    defs = [inner for inner in ast.walk(node) if isinstance(inner, _Def)]
    bodies = [inner.body for inner in defs]
    try:
        for inner in defs:
            inner.body = _STUB
        return ast.dump(node)
    finally:
        for inner, body in zip(defs, bodies, strict=True):
            inner.body = body


def _class_names(node: ast.ClassDef) -> set[str]:
    """The names a class statement refers to, its methods' bodies left out."""
    found: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, _Def) and inner is not node:
            found |= names_in(
                [*inner.decorator_list, *_signature(inner.args), *([inner.returns] if inner.returns else [])]
            )
    defs = {id(inner) for inner in ast.walk(node) if isinstance(inner, _Def)}
    stack: list[ast.AST] = [node]
    while stack:
        current = stack.pop()
        _node_names(current, found)
        stack += [child for child in ast.iter_child_nodes(current) if id(child) not in defs]
    found.discard("")
    return found


def _own_names(node: ast.ClassDef) -> frozenset[str]:
    """The names a class's body binds itself (its nested classes' members apart)."""
    return frozenset(name for item in node.body for name in _binds(item) if "." not in name)


def _in_class(owner: str, own: frozenset[str], names: Iterable[str]) -> set[str]:
    """Of `names`, read in the body of the class `owner` (its qualified name), those its body binds
    (`own`), as the class's ("CLASS.NAME"): there a name is the class's member before it is the module's."""
    return {f"{owner}.{name}" for name in own.intersection(names)}


def _members(node: ast.ClassDef) -> frozenset[str]:
    """The names a class statement's body binds as its variables and never reads as it runs (its
    methods' decorators and signatures read, their bodies do not run): targets among the class's
    names, not references to anything."""
    stored, read = set(), set()
    for current in (inner for item in node.body for inner in _executed(item)):
        if isinstance(current, ast.Name):
            (stored if isinstance(current.ctx, ast.Store) else read).add(current.id)
    return frozenset(stored - read)


def _decorator_name(decorator: ast.expr) -> str:
    return dotted_name(decorator.func if isinstance(decorator, ast.Call) else decorator) or ""


def _plain_decorator(decorator: ast.expr) -> bool:
    """A pure decorator (see `_PURE_DECORATORS`), given nothing it would have to call."""
    name = _decorator_name(decorator)
    if name not in _PURE_DECORATORS and not name.endswith(_ACCESSORS):
        return False
    return not isinstance(decorator, ast.Call) or not any(
        _calls(argument) for argument in [*decorator.args, *(keyword.value for keyword in decorator.keywords)]
    )


def _plain_decorators(node: _Def, in_class: str | None) -> bool:
    """A test's marks, or a pure wrapper (a property, a cache, …): nothing runs but the wrapping."""
    for decorator in node.decorator_list:
        name = _decorator_name(decorator)
        if name.startswith(("pytest.mark.", "mark.")) and (node.name.startswith("test") or in_class):
            continue
        if not _plain_decorator(decorator):
            return False
    return True


def _foreign_bases(node: ast.ClassDef, plain_classes: frozenset[str]) -> tuple[str, ...]:
    """The class's bases that are neither builtin-plain nor plain classes of its own file, as written
    (a dotted name; "?" for one that is no name): whether they run code when the class is made is
    for the project's other modules to say (see `project_code`)."""
    found = []
    for base in node.bases:
        base = base.value if isinstance(base, ast.Subscript) else base
        name = dotted_name(base)
        if name is None:
            found.append("?")
        elif name not in _PLAIN_BASES and name.rpartition(".")[2] not in plain_classes:
            found.append(name)
    return tuple(found)


_FRESH = (ast.Constant, ast.JoinedStr, ast.List, ast.Dict, ast.Set, ast.Tuple, ast.Lambda, ast.Call)
_FRESH += (ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)


def _bound_elsewhere(item: ast.stmt) -> bool:
    """A class body's assignment of what may be an object made elsewhere (a name, an attribute, an
    item, an operator's result): anything but a value the statement makes (a call is judged apart)."""
    value = item.value if isinstance(item, ast.Assign | ast.AnnAssign | ast.AugAssign) else None
    return value is not None and not isinstance(value, _FRESH)


def _head_effects(node: ast.ClassDef, plain_classes: frozenset[str], bases: bool = True) -> bool:
    """Whether making the class runs code of its own beside its body: a decorator, a metaclass, or
    (with `bases`) a base not known to be plain."""
    if not all(_plain_decorator(decorator) for decorator in node.decorator_list):
        return True
    for keyword in node.keywords:
        if keyword.arg == "metaclass" and dotted_name(keyword.value) not in _PLAIN_METACLASSES:
            return True
        if keyword.arg != "metaclass" and _calls(keyword.value):
            return True
    return bases and bool(_foreign_bases(node, plain_classes))


def _class_effects(node: ast.ClassDef, plain_classes: frozenset[str], bases: bool = True) -> bool:
    """Whether making the class runs code of its own: its head (see `_head_effects`) or a call in its body."""
    return _head_effects(node, plain_classes, bases) or any(
        _effects(item, node.name, plain_classes) for item in node.body
    )


def _body_effects(node: ast.ClassDef, plain_classes: frozenset[str]) -> list[ast.stmt] | None:
    """Of a class whose making runs nothing but its body's statements (a plain head, its bases plain
    classes of its own file or builtin), the statements its effects stand on, in order: those with
    effects, and those binding a member they name, and so on (what such a member holds is what they
    act on). None where that is not all: a head that runs code, or a statement with effects that
    reaches names it does not spell. Nothing else of the class reaches its effects: a member no such
    statement names is only a binding (see `Statement.members`)."""
    if _head_effects(node, plain_classes) or _effects_of_pytest(node):
        return None
    # a member bound to an object made elsewhere may have a `__set_name__` that the class's making calls
    acting = [item for item in node.body if _effects(item, node.name, plain_classes) or _bound_elsewhere(item)]
    needed = set().union(*(executed_names(item) for item in acting)) if acting else set()
    if needed & {DYNAMIC, ANYWHERE, RUNS_TEXT}:
        return None
    chosen = {id(item) for item in acting}
    grew = True
    while grew:
        grew = False
        for item in node.body:
            if id(item) not in chosen and _binds(item) & needed:
                chosen.add(id(item))
                needed |= executed_names(item)
                grew = True
    if needed & {DYNAMIC, ANYWHERE, RUNS_TEXT}:
        return None
    return [item for item in node.body if id(item) in chosen]


def plain_class(node: ast.ClassDef) -> bool:
    """A class whose making runs nothing of its own but what its bases run: no `__init_subclass__`,
    no metaclass but a plain one, no decorator but a pure one, no call in its body."""
    defines_hook = any(isinstance(item, _Def) and item.name == "__init_subclass__" for item in node.body)
    return not defines_hook and not _class_effects(node, frozenset(), bases=False)


# Names pytest reads from a module itself (hooks, plugins, marks, what to leave out): binding one acts.
_PYTEST_NAMES = ("pytest", "collect_ignore")


def _effects_of_pytest(node: ast.stmt) -> bool:
    """A module-level binding of a name pytest reads from the module itself (or from a class)."""
    importing = isinstance(node, ast.Import | ast.ImportFrom)
    return not importing and any(name.rpartition(".")[2].startswith(_PYTEST_NAMES) for name in _binds(node))


def _effects(node: ast.stmt, in_class: str | None = None, plain_classes: frozenset[str] = frozenset()) -> bool:
    if in_class is None and _effects_of_pytest(node):
        return True
    if isinstance(node, _Def):
        signature = [*_signature(node.args), *([node.returns] if node.returns else [])]
        return not _plain_decorators(node, in_class) or any(_calls(part) for part in signature)
    if isinstance(node, ast.ClassDef):
        return _class_effects(node, plain_classes)
    if isinstance(node, ast.Assign):
        return any(_bound(target) is None for target in node.targets) or _calls(node.value)
    if isinstance(node, ast.AnnAssign | ast.AugAssign):
        return _bound(node.target) is None or _calls(node)
    if isinstance(node, ast.Import | ast.ImportFrom):
        return False  # it binds names (a star import: what its module binds, see `project_code`)
    if isinstance(node, ast.Expr):
        return _calls(node)
    if isinstance(node, ast.If | ast.Try | ast.TryStar):
        children = [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
        children += [item for handler in getattr(node, "handlers", []) for item in handler.body]
        tests = [node.test] if isinstance(node, ast.If) else [h.type for h in node.handlers if h.type]
        return any(_calls(test) for test in tests) or any(
            _effects(child, in_class, plain_classes) for child in children
        )
    if isinstance(node, ast.Delete):
        return any(_bound(target) is None for target in node.targets)
    if isinstance(node, ast.Assert):
        return _calls(node)
    if isinstance(node, ast.Pass | ast.Global | ast.Nonlocal):
        return False
    return not (hasattr(ast, "TypeAlias") and isinstance(node, ast.TypeAlias))  # with, for, while, match, …


def _binds(node: ast.stmt) -> set[str]:
    if isinstance(node, _Def | ast.ClassDef):
        found = {node.name}
        if isinstance(node, ast.ClassDef):  # its members as "CLASS.NAME": no variable of the module's
            found |= {f"{node.name}.{name}" for item in node.body for name in _binds(item)}
        return found
    if isinstance(node, ast.Assign):
        return {name for target in node.targets for name in (_bound(target) or ())}
    if isinstance(node, ast.AnnAssign | ast.AugAssign):
        return _bound(node.target) or set()
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(alias.asname or alias.name).partition(".")[0] for alias in node.names if alias.name != "*"}
    if isinstance(node, ast.Delete):
        return {name for target in node.targets for name in (_bound(target) or ())}
    if hasattr(ast, "TypeAlias") and isinstance(node, ast.TypeAlias):
        return {node.name.id}
    found: set[str] = set()
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.stmt):
            found |= _binds(child)
        elif isinstance(child, ast.ExceptHandler):
            found |= {child.name} if child.name else set()
            found |= {name for item in child.body for name in _binds(item)}
        else:
            stored = (inner for inner in ast.walk(child) if isinstance(inner, ast.Name))
            found |= {inner.id for inner in stored if isinstance(inner.ctx, ast.Store)}
    return found


def _imports(node: ast.stmt) -> tuple[tuple[str, int], ...]:
    """The imports the statement runs as its module loads: not those in a function's body."""
    if isinstance(node, _Def):
        return ()
    if isinstance(node, ast.Import):
        return tuple((alias.name, 0) for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        return tuple((f"{base}.{alias.name}" if base else alias.name, node.level) for alias in node.names)
    return tuple(
        entry for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt) for entry in _imports(child)
    )


def _plain_classes(tree: ast.Module) -> set[str]:
    """The module's classes that define no `__init_subclass__`, take no metaclass, and derive only
    from builtin-plain classes or from plain classes of the module (a hook is inherited): a class
    statement deriving from one of them (by name) runs nothing of its own."""
    candidates = {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and not node.keywords
        and not any(isinstance(item, _Def) and item.name == "__init_subclass__" for item in node.body)
    }
    plain = set(candidates)
    changed = True
    while changed:  # a class whose base is not plain is not, nor what derives from it
        changed = False
        for name, node in candidates.items():
            bases = [dotted_name(base.value if isinstance(base, ast.Subscript) else base) for base in node.bases]
            if name in plain and not all(base in _PLAIN_BASES or base in plain for base in bases):
                plain.discard(name)
                changed = True
    return plain


@cache  # a run works the same sources out twice: for its whole run, then in its copy
def parse_module(source: bytes) -> ModuleCode:
    """`source`'s code. A class statement deriving from a class of the same file that defines no
    `__init_subclass__` and takes no metaclass stays a plain binding; from another file's, it has
    effects (its creation may run that class's code)."""
    return ModuleCode(source)


def _aliases(tree: ast.Module) -> dict[str, str]:
    """What each name the module's imports bind imports: `import a.b` binds `a` to "a", `import a.b as
    m` binds `m` to "a.b", `from .a import b` binds `b` to ".a.b" (a module or a name in one)."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, _Def | ast.Lambda):
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                found[alias.asname or alias.name.partition(".")[0]] = (
                    alias.name if alias.asname else alias.name.partition(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            source = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name != "*":
                    found[alias.asname or alias.name] = (
                        f"{source}.{alias.name}" if node.module else f"{source}{alias.name}"
                    )
    return found
