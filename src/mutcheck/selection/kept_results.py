"""Which of a file's functions keep another function's result beyond the call (a memo: `self._memo[key]
= self._build(key)`): a later test that runs the keeper may take what the other function returned in an
earlier test without calling it itself, so under that function's mutants the keeper's tests run too,
as they would in a plain run of the suite, where the mutated result is what the memo holds."""

import ast
from collections.abc import Iterable, Iterator

from mutcheck.core.module_scope import reach_name

_Def = ast.FunctionDef | ast.AsyncFunctionDef
# methods that keep their arguments in the object they are called on
_KEEPING_METHODS = frozenset({"setdefault", "append", "appendleft", "add", "insert", "update", "extend", "__setitem__"})
# calls that make a new container no one else holds (as a display or a comprehension does)
_NEW_CONTAINERS = frozenset({"list", "dict", "set", "bytearray", "defaultdict", "OrderedDict", "deque", "Counter"})
_DISPLAYS = ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp | ast.SetComp


def keepers(source: str, filename: str) -> dict[str, set[str]]:
    """For each function name of the file whose result a function of the file keeps beyond the call,
    itself or through the functions of the file that call it (`memo[key] = build(key)` keeps what
    `build` returns, and so what every function `build` calls made of it), the reach names of those
    keepers (see `module_scope.reach_name`); {} for a file that does not parse. Names are as calls
    spell them (`build(…)`, `self.build(…)`)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    kept: dict[str, set[str]] = {}  # a name -> the keepers of its result
    callers: dict[str, set[str]] = {}  # a name -> the names of the file's functions that call it
    functions = list(_functions(tree, []))
    readers: dict[str, set[str]] = {}  # a name -> the reach names of the file's functions that spell it
    for qualname, function in functions:
        for name in _spelled(_own_nodes(function)):
            readers.setdefault(name, set()).add(reach_name(filename, qualname))
    for qualname, function in functions:
        # a nested keeper runs only when the function around it calls it: a test that later takes the
        # kept value from the memo reaches that function, maybe not the nested one
        around = qualname.split(".<locals>.")
        holders = {reach_name(filename, ".<locals>.".join(around[: depth + 1])) for depth in range(len(around))}
        if _memoized(function):  # its kept value is taken by whatever reads it, without running it again
            holders |= readers.get(function.name, set())
        for callee in _kept_callees(function):
            kept.setdefault(callee, set()).update(holders)
        for callee in _call_names(_own_nodes(function)):
            callers.setdefault(callee, set()).add(function.name)
    found: dict[str, set[str]] = {}
    for name in {*kept, *callers}:
        reaching, pending = {name}, [name]
        while pending:  # the functions whose result holds what `name` returned
            for caller in callers.get(pending.pop(), ()):
                if caller not in reaching:
                    reaching.add(caller)
                    pending.append(caller)
        if keeping := set().union(*(kept.get(each, set()) for each in reaching)):
            found[name] = keeping
    return found


def _functions(node: ast.AST, scope: list[str]) -> Iterator[tuple[str, _Def]]:
    """Every function of the tree with its qualified name, as Python names its code."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _Def):
            yield ".".join([*scope, child.name]), child
            yield from _functions(child, [*scope, child.name, "<locals>"])
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, [*scope, child.name])
        else:
            yield from _functions(child, scope)


def _own_nodes(function: _Def) -> Iterator[ast.AST]:
    """The function's own code: its nested functions, classes and lambdas left to their own names."""

    def own(nodes: Iterator[ast.AST] | list[ast.stmt]) -> list[ast.AST]:
        return [node for node in nodes if not isinstance(node, _Def | ast.ClassDef | ast.Lambda)]

    pending = own(function.body)
    while pending:
        node = pending.pop()
        yield node
        pending += own(ast.iter_child_nodes(node))


def _call_names(nodes: Iterable[ast.AST]) -> set[str]:
    """The names of the functions the calls among `nodes` call, as spelled (`f(…)`, `obj.f(…)`)."""
    found = set()
    for node in nodes:
        if isinstance(node, ast.Call) and (name := _name_of(node.func)) is not None:
            found.add(name)
    return found


def _name_of(expression: ast.expr) -> str | None:
    """The name an expression spells last (`f`, `obj.f`); None for another kind (`table[key]`)."""
    if isinstance(expression, ast.Name):
        return expression.id
    return expression.attr if isinstance(expression, ast.Attribute) else None


def _spelled(nodes: Iterable[ast.AST]) -> set[str]:
    """The names and attribute names `nodes` read (`f`, `self.rows`)."""
    found = set()
    for node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            found.add(node.attr)
    return found


def _called(expression: ast.AST) -> set[str]:
    """The names of the functions the expression calls (see `_call_names`)."""
    return _call_names(ast.walk(expression))


def _keeping_call(node: ast.AST) -> bool:
    """A call of a method that keeps its arguments in the object it is called on."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _KEEPING_METHODS


def _root(node: ast.expr) -> str | None:
    """The name an item's or an attribute's object is reached from (`self` in `self._memo[key]`)."""
    while isinstance(node, ast.Subscript | ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _new_container(value: ast.expr) -> bool:
    """A display, a comprehension, or a call of a container's constructor: an object no one else holds."""
    if isinstance(value, _DISPLAYS):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _NEW_CONTAINERS


def _kept_callees(function: _Def) -> set[str]:
    """The functions whose result the function keeps beyond the call: stored in an item or an
    attribute of an object it did not make itself (`memo[key] = build(key)` with `memo` global,
    `self.cache = build()`, `cache = self._cache` then `cache[key] = build(key)`, `setattr(self, name,
    build())`), bound to a `global` or `nonlocal` name, or handed to a method of one that keeps it
    (`memo.setdefault(key, build(key))`), directly or through a local name (`value = build(key)`,
    `(value := build(key))` or `value, other = build(key)` then `memo[key] = value`); and, for a function
    whose decorator keeps its result (`functools.cache`, `cached_property`, a `memoize`), what it
    returns. A container the function made and fills (`out = []` then `out.append(build(x))`) is its
    own: it ends with the call, or leaves by its return value, which its callers' calls of it stand for,
    and what was put in it travels with it where it is stored (`self._rows = out`). A name bound in any
    other way (to what another holds, a loop's target, a `with … as`) may name what outlives the call."""
    nodes = list(_own_nodes(function))
    local: dict[str, set[str]] = {}  # a local name -> what the calls it was assigned from, or put in it, called
    named: dict[str, set[str]] = {}  # a local name -> the names its assigned values read (`x = value`)
    made: set[str] = set()  # names bound to a new container
    declared = {name for node in nodes if isinstance(node, ast.Global | ast.Nonlocal) for name in node.names}
    elsewhere = set(declared)
    assigned: set[int] = set()  # the Name nodes of plain assignments
    for node in nodes:
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            for target in _targets(node):
                for name in _bound_names(target):
                    assigned.add(id(name))
                    local.setdefault(name.id, set()).update(_called(node.value))
                    named.setdefault(name.id, set()).update(_read_names([node.value]))
                    plain = target is name and _new_container(node.value)
                    (made if plain else elsewhere).add(name.id)
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and id(node) not in assigned:
            elsewhere.add(node.id)
    made -= elsewhere

    def results_in(values: list[ast.expr]) -> set[str]:
        found = set().union(*(_called(value) for value in values))
        pending, reached = _read_names(values), set()
        while pending:  # through the local names they read, and those these were assigned from
            name = pending.pop()
            if name not in reached:
                reached.add(name)
                found |= local.get(name, set())
                pending |= named.get(name, set())
        return found

    stores = [store for node in nodes for store in _stores(node, declared)]
    for receiver, values in stores:  # what is put in a container the function made travels with it
        if receiver in made:
            local[receiver] |= set().union(*(_called(value) for value in values))
            named[receiver] |= _read_names(values)
    kept = set().union(*(results_in(values) for receiver, values in stores if receiver not in made))
    if _memoized(function):
        kept |= results_in([node.value for node in nodes if isinstance(node, ast.Return) and node.value is not None])
    return kept


def _read_names(values: list[ast.expr]) -> set[str]:
    return {inner.id for value in values for inner in ast.walk(value) if isinstance(inner, ast.Name)}


def _targets(node: ast.Assign | ast.AnnAssign | ast.AugAssign | ast.NamedExpr) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def _bound_names(target: ast.expr) -> list[ast.Name]:
    """The names an assignment's target binds (`a`, and each of `a, *b`)."""
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    if isinstance(target, ast.Tuple | ast.List):
        return [name for element in target.elts for name in _bound_names(element)]
    return []


def _stored_in(target: ast.expr, declared: set[str]) -> list[str | None]:
    """The objects an assignment's target stores into, by the name they are reached from (None: one
    reached otherwise), and the `global`/`nonlocal` names it binds (which outlive the call)."""
    if isinstance(target, ast.Subscript | ast.Attribute):
        return [_root(target)]
    if isinstance(target, ast.Name):
        return [None] if target.id in declared else []
    if isinstance(target, ast.Starred):
        return _stored_in(target.value, declared)
    if isinstance(target, ast.Tuple | ast.List):
        return [root for element in target.elts for root in _stored_in(element, declared)]
    return []


def _stores(node: ast.AST, declared: set[str]) -> Iterator[tuple[str | None, list[ast.expr]]]:
    """Where the node stores values beyond its own locals: each receiver (as in `_stored_in`) with the
    values stored in it."""
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value is not None:
        for target in _targets(node):
            for receiver in _stored_in(target, declared):
                yield receiver, [node.value]
    elif _keeping_call(node):
        yield _root(node.func.value), [*node.args, *(keyword.value for keyword in node.keywords)]
    elif isinstance(node, ast.Call) and _setattr_call(node) and len(node.args) == 3:
        yield _root(node.args[0]), [node.args[2]]


def _setattr_call(call: ast.Call) -> bool:
    """`setattr(obj, name, value)` or `object.__setattr__(obj, name, value)`."""
    func = call.func
    return (isinstance(func, ast.Name) and func.id == "setattr") or (
        isinstance(func, ast.Attribute) and func.attr == "__setattr__"
    )


def _memoized(function: _Def) -> bool:
    """A decorator of the function keeps its results (`functools.cache`, `lru_cache(…)`,
    `cached_property`, a project's own `memoize`): named for a cache or a memo."""
    names = [
        _name_of(decorator.func if isinstance(decorator, ast.Call) else decorator)
        for decorator in function.decorator_list
    ]
    return any(name is not None and ("cache" in name.lower() or "memo" in name.lower()) for name in names)
