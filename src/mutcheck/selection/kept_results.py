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
    for qualname, function in _functions(tree, []):
        # a nested keeper runs only when the function around it calls it: a test that later takes the
        # kept value from the memo reaches that function, maybe not the nested one
        around = qualname.split(".<locals>.")
        holders = {reach_name(filename, ".<locals>.".join(around[: depth + 1])) for depth in range(len(around))}
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
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name is not None:
                found.add(name)
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
    `self.cache = build()`, `cache = self._cache` then `cache[key] = build(key)`), or handed to a
    method of one that keeps it (`memo.setdefault(key, build(key))`), directly or through a local
    name (`value = build(key)` then `memo[key] = value`). A container the function made and fills
    (`out = []` then `out.append(build(x))`) is its own: it ends with the call, or leaves by its
    return value, which its callers' calls of it stand for. A name bound in any other way (to what
    another holds, a loop's target, a `with … as`, unpacking) may name what outlives the call."""
    nodes = list(_own_nodes(function))
    local: dict[str, set[str]] = {}  # a local name -> what the calls it was assigned from called
    made: set[str] = set()  # names bound to a new container
    elsewhere = {name for node in nodes if isinstance(node, ast.Global | ast.Nonlocal) for name in node.names}
    assigned: set[int] = set()  # the Name nodes of plain assignments
    for node in nodes:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    assigned.add(id(target))
                    local.setdefault(target.id, set()).update(_called(node.value))
                    (made if _new_container(node.value) else elsewhere).add(target.id)
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and id(node) not in assigned:
            elsewhere.add(node.id)
    made -= elsewhere

    def outlives(receiver: ast.expr) -> bool:
        return _root(receiver) not in made

    def results_in(value: ast.AST) -> set[str]:
        names = {inner.id for inner in ast.walk(value) if isinstance(inner, ast.Name)}
        return _called(value).union(*(local.get(name, set()) for name in names))

    kept: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Subscript | ast.Attribute) and outlives(target) for target in targets):
                kept |= results_in(node.value)
        elif _keeping_call(node) and outlives(node.func.value):
            for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
                kept |= results_in(argument)
    return kept
