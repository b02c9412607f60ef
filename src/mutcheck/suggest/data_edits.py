"""Suggested edits to the data a function compares, builds and returns: a string literal swapped for
a neighbour the file uses in the same place, a member of a literal collection dropped, a term of a
sum dropped, a normalising call skipped, a fallback always taken, iteration reversed or cut to its
first item, a bound moved by one, a list changed in place against rebound, a returned constant
swapped for another the function returns."""

from collections.abc import Callable, Iterator, Mapping
from difflib import SequenceMatcher

import libcst as cst

from mutcheck.mutation.scopes import dotted

# The operators only these edits make, most guard-like first (they also make `skip-call`,
# `ordering`, `assign-not-accumulate` and `delete-state-change` edits, operators of the guards').
DATA_OPERATORS = (
    "replace-literal",
    "return-other",
    "fallback-taken",
    "drop-element",
    "drop-term",
    "off-by-one",
    "reverse-order",
    "first-only",
    "rebind-not-change",
)
DataEdit = tuple[str, cst.CSTNode, str | None]  # operator, the node it replaces, the replacement
Code = Callable[[cst.CSTNode], str]

NEIGHBOURS = 3  # the nearest other literals of a place proposed for each literal
_NORMALISING = ("lower", "upper", "casefold", "strip", "lstrip", "rstrip", "title", "capitalize")
_SPLITTING = ("split", "rsplit", "partition", "rpartition")
_ORDERED = ("list", "tuple")
_ITERATORS = ("enumerate", "zip", "map", "filter", "iter", "reversed", "walk", "glob", "rglob", "iterdir")
_VIEWS = ("items", "keys", "values")


def _key_of(node: cst.CSTNode) -> str | None:
    """The key a read names: `x["role"]` and `x.get("role")` both read "role"."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        key = node.slice[0].slice.value
    elif isinstance(node, cst.Call) and dotted(node.func) and (dotted(node.func) or "").endswith(".get") and node.args:
        key = node.args[0].value
    else:
        return None
    return key.evaluated_value if isinstance(key, cst.SimpleString) else None


class Literals:
    """The string literals of a file by the place each fills: the value of a key (`{"role": "tool"}`,
    `x["role"] == "user"`, `f(role="user")`), a comparison with the same code, or a function's
    return value. Two literals of one place are neighbours: one may be written for the other."""

    def __init__(self, module: cst.Module, parents: Mapping[cst.CSTNode, cst.CSTNode], code: Code) -> None:
        self.parents, self.code = parents, code
        self.places: dict[tuple[str, str], dict[str, None]] = {}
        self.enclosing: dict[cst.CSTNode, str] = {}
        self._read(module, "")

    def _read(self, node: cst.CSTNode, function: str) -> None:
        if isinstance(node, cst.FunctionDef):
            function = f"{function}.{node.name.value}"
        for child in node.children:
            self._read(child, function)
        if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
            self.enclosing[node] = function
            place = self.place_of(node)
            if place is not None:
                self.places.setdefault(place, {})[node.evaluated_value] = None

    def place_of(self, node: cst.SimpleString) -> tuple[str, str] | None:
        parent = self.parents.get(node)
        if isinstance(parent, cst.DictElement) and parent.value is node and isinstance(parent.key, cst.SimpleString):
            return "key", str(parent.key.evaluated_value)
        if isinstance(parent, cst.Arg) and parent.keyword is not None:
            return "key", parent.keyword.value
        if isinstance(parent, cst.Return):
            return "return", self.enclosing.get(node, "")
        if isinstance(parent, cst.ComparisonTarget) and isinstance(parent.operator, cst.Equal | cst.NotEqual):
            other = self.parents.get(parent)
            if isinstance(other, cst.Comparison) and len(other.comparisons) == 1:
                key = _key_of(other.left)
                return ("key", key) if key is not None else ("compared", self.code(other.left))
        return None

    def neighbours(self, node: cst.SimpleString) -> list[str]:
        """The other literals of the node's place, nearest first, as source in the node's quotes."""
        place = self.place_of(node)
        value = node.evaluated_value
        if place is None or not isinstance(value, str):
            return []
        others = [other for other in self.places.get(place, {}) if other != value]
        others.sort(key=lambda other: -SequenceMatcher(None, value, other).ratio())
        return [_written(node, other) for other in others[:NEIGHBOURS]]


def _written(node: cst.SimpleString, value: str) -> str:
    quote = node.quote if node.quote in ('"', "'") and node.quote not in value and "\\" not in value else None
    return f"{quote}{value}{quote}" if quote else repr(value)


def _is_number(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Integer | cst.Float) or (
        isinstance(node, cst.UnaryOperation) and isinstance(node.expression, cst.Integer | cst.Float)
    )


def _moved(code: str, node: cst.BaseExpression) -> list[str]:
    """A bound one more and one less."""
    if isinstance(node, cst.Integer):
        value = int(node.value, 0)
        return [str(value + 1), *([str(value - 1)] if value > 0 else [])]
    if isinstance(node, cst.UnaryOperation) and isinstance(node.expression, cst.Integer):
        value = -int(node.expression.value, 0)
        return [str(value - 1), *([str(value + 1)] if value < -1 else [])]
    return [f"{code} + 1", f"{code} - 1"]


def _unpacked(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> bool:
    """A tuple or list that names targets or is given back whole (`a, b = …`, `for a, b in`, `return a, b`)."""
    parent = parents.get(node)
    return isinstance(parent, cst.AssignTarget | cst.For | cst.CompFor | cst.Return | cst.Del | cst.WithItem)


def data_edits(
    node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode], literals: Literals, code: Code
) -> Iterator[DataEdit]:
    """The data edits of one node of a function's body."""
    if isinstance(node, cst.SimpleString):
        for other in literals.neighbours(node):
            yield "replace-literal", node, other
    elif isinstance(node, cst.List | cst.Tuple | cst.Set) and not _unpacked(node, parents):
        yield from _collection_edits(node, code)
    elif isinstance(node, cst.Dict) and len(node.elements) > 1:
        entries = [
            f"{code(element.key)}: {code(element.value)}"
            if isinstance(element, cst.DictElement)
            else f"**{code(element.value)}"
            for element in node.elements
        ]
        for index in range(len(entries)):
            yield "drop-element", node, "{" + ", ".join(entries[:index] + entries[index + 1 :]) + "}"
    elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add | cst.Subtract):
        yield from _term_edits(node, code)
    elif isinstance(node, cst.Call):
        yield from _call_edits(node, parents, code)
    elif isinstance(node, cst.Subscript):
        yield from _subscript_edits(node, code)
    elif isinstance(node, cst.For | cst.CompFor) and not isinstance(node.iter, cst.List | cst.Tuple | cst.Set):
        iterated = code(node.iter)
        called = (dotted(node.iter.func) or "").split(".")[-1] if isinstance(node.iter, cst.Call) else ""
        # reversed() takes sequences and views, not iterators; `any(…)`, `sum(…)`, a set do not see the order
        if called not in _ITERATORS and not _order_blind(node, parents):
            yield "reverse-order", node.iter, f"reversed({iterated})"
        if called not in (*_ITERATORS, *_VIEWS):  # a slice takes sequences only
            yield "first-only", node.iter, f"{iterated}[:1]"
    elif isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        yield from _count_edits(node, code)
    elif isinstance(node, cst.SimpleStatementLine) and _is_reset(node) and _in_loop(node, parents):
        yield "delete-state-change", node, None  # the state of one pass leaks into the next
    elif isinstance(node, cst.Assign) and len(node.targets) == 1 and (line := _line_of(node, parents)) is not None:
        target = node.targets[0].target
        if isinstance(target, cst.Subscript) and code(target).endswith("[:]"):
            yield "rebind-not-change", line, f"{code(target.value)} = {code(node.value)}"


def _line_of(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> cst.SimpleStatementLine | None:
    """The line a call statement or an assignment is alone on."""
    statement = parents.get(node) if isinstance(node, cst.Call) else node
    line = parents.get(statement) if isinstance(statement, cst.Expr | cst.Assign) else None
    return line if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None


def _order_blind(loop: cst.For | cst.CompFor, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> bool:
    """A comprehension whose items' order nothing sees: a set's, or the one argument of `any`, `all`,
    `sum`, `min`, `max`, `sorted`, `len`, `set`, `frozenset`, `Counter`."""
    comprehension = parents.get(loop)
    while isinstance(comprehension, cst.CompFor):  # a nested `for` clause
        comprehension = parents.get(comprehension)
    if isinstance(comprehension, cst.SetComp):
        return True
    argument = parents.get(comprehension) if isinstance(comprehension, cst.GeneratorExp | cst.ListComp) else None
    call = parents.get(argument) if isinstance(argument, cst.Arg) else None
    blind = ("any", "all", "sum", "min", "max", "sorted", "len", "set", "frozenset", "Counter")
    return isinstance(call, cst.Call) and len(call.args) == 1 and (dotted(call.func) or "").split(".")[-1] in blind


def _collection_edits(node: cst.List | cst.Tuple | cst.Set, code: Code) -> Iterator[DataEdit]:
    elements = list(node.elements)
    if any(isinstance(element, cst.StarredElement) for element in elements):
        return
    if len(elements) == 1 and isinstance(node, cst.List):  # `f([event], item)` -> `f([], item)`
        yield "drop-element", node, "[]"
    if len(elements) < 2:
        return
    codes = [code(element.value) for element in elements]
    opening, closing = {cst.List: ("[", "]"), cst.Tuple: ("(", ")"), cst.Set: ("{", "}")}[type(node)]
    for index in range(len(codes)):
        rest = codes[:index] + codes[index + 1 :]
        trailing = "," if isinstance(node, cst.Tuple) and len(rest) == 1 else ""
        yield "drop-element", node, f"{opening}{', '.join(rest)}{trailing}{closing}"
    constants = all(isinstance(element.value, cst.SimpleString | cst.Integer | cst.Name) for element in elements)
    if not isinstance(node, cst.Set) and not constants:  # an order of computed parts: which comes first
        swapped = [codes[1], codes[0], *codes[2:]]
        yield "ordering", node, f"{opening}{', '.join(swapped)}{closing}"
        if len(codes) > 2:  # the last resort tried first
            yield "ordering", node, f"{opening}{', '.join([codes[-1], *codes[:-1]])}{closing}"


def _term_edits(node: cst.BinaryOperation, code: Code) -> Iterator[DataEdit]:
    """`a + b` -> `a` and `b`; `a - b` -> `a`; a number's term (`n + 1`) alone is a bound moved."""
    left, right = node.left, node.right
    if _is_number(left) and _is_number(right):
        return
    if not _is_number(left):
        yield "drop-term", node, code(left)
    if not _is_number(right) and isinstance(node.operator, cst.Add):
        yield "drop-term", node, code(right)


def _argument(arg: cst.Arg, code: Code) -> str:
    """An argument's source without the comma after it (a bare generator given its brackets)."""
    prefix = f"{arg.keyword.value}=" if arg.keyword is not None else str(arg.star)
    return prefix + _bracketed(arg.value, code)


def _bracketed(value: cst.BaseExpression, code: Code) -> str:
    """The value's source, in brackets unless it is one operand already (a name, a call, an item)."""
    atomic = isinstance(value, cst.Name | cst.Attribute | cst.Call | cst.Subscript | cst.List | cst.SimpleString)
    return code(value) if atomic or value.lpar else f"({code(value)})"


def _call_edits(node: cst.Call, parents: Mapping[cst.CSTNode, cst.CSTNode], code: Code) -> Iterator[DataEdit]:
    name = dotted(node.func) or ""
    positional = [arg for arg in node.args if not arg.keyword and not arg.star]
    plain = len(positional) == len(node.args)
    if isinstance(node.func, cst.Attribute):
        method, owner = node.func.attr.value, code(node.func.value)
        if method in _NORMALISING:
            yield "skip-call", node, owner
        elif method == "get" and plain and len(positional) == 2:
            yield "fallback-taken", node, code(positional[1].value)
        elif method in ("append", "extend") and plain and len(positional) == 1:
            line = _line_of(node, parents)
            if line is not None:
                value = _bracketed(positional[0].value, code)  # `f(x for x in y)`, `*(a or b)`
                replaced = f"[{value}]" if method == "append" else value
                yield "assign-not-accumulate", line, f"{owner}[:] = {replaced}"
                if method == "extend":
                    yield "rebind-not-change", line, f"{owner} = [*{owner}, *{value}]"
    elif name == "getattr" and plain and len(positional) == 3:
        yield "fallback-taken", node, code(positional[2].value)
    elif name in _ORDERED and plain and len(positional) == 1:
        iterated = positional[0].value
        if not isinstance(iterated, cst.ListComp | cst.GeneratorExp | cst.List | cst.Tuple):
            yield "reverse-order", node, f"{name}(reversed({code(iterated)}))"
    elif (
        name == "sorted" and node.args and not any(arg.keyword and arg.keyword.value == "reverse" for arg in node.args)
    ):
        yield "reverse-order", node, f"sorted({', '.join(_argument(arg, code) for arg in node.args)}, reverse=True)"
    elif name == "reversed" and plain and len(positional) == 1:
        yield "reverse-order", node, code(positional[0].value)
    elif name == "range" and plain and len(positional) in (1, 2):
        bound = positional[-1].value
        start = f"{code(positional[0].value)}, " if len(positional) == 2 else ""
        for moved in _moved(code(bound), bound):
            yield "off-by-one", node, f"range({start}{moved})"


def _subscript_edits(node: cst.Subscript, code: Code) -> Iterator[DataEdit]:
    if len(node.slice) != 1:
        return
    inner = node.slice[0].slice
    owner = code(node.value)
    split = isinstance(node.value, cst.Call) and isinstance(node.value.func, cst.Attribute)
    if isinstance(inner, cst.Index) and split and node.value.func.attr.value in _SPLITTING:
        yield "skip-call", node, code(node.value.func.value)  # `model.rsplit("/", 1)[-1]` -> `model`
    if not isinstance(inner, cst.Slice):
        return
    if inner.step is not None:
        if code(inner.step) == "-1" and inner.lower is None and inner.upper is None:
            yield "reverse-order", node, owner
        return
    for side in ("lower", "upper"):
        bound = getattr(inner, side)
        if bound is None:
            continue
        for moved in _moved(code(bound), bound):
            lower = moved if side == "lower" else (code(inner.lower) if inner.lower is not None else "")
            upper = moved if side == "upper" else (code(inner.upper) if inner.upper is not None else "")
            yield "off-by-one", node, f"{owner}[{lower}:{upper}]"


def _count_edits(node: cst.Comparison, code: Code) -> Iterator[DataEdit]:
    """`len(x) > 0` -> `len(x) > 1`: a size or a count compared with a number moved by one."""
    target = node.comparisons[0]
    if not isinstance(target.operator, cst.LessThan | cst.LessThanEqual | cst.GreaterThan | cst.GreaterThanEqual):
        return
    counted = isinstance(node.left, cst.Call) and dotted(node.left.func) == "len"
    if counted and isinstance(target.comparator, cst.Integer | cst.UnaryOperation) and _is_number(target.comparator):
        operator = code(node)[len(code(node.left)) : -len(code(target.comparator))]
        for moved in _moved(code(target.comparator), target.comparator):
            yield "off-by-one", node, f"{code(node.left)}{operator}{moved}"


def returned_constants(function: cst.FunctionDef, code: Code) -> list[str]:
    """The constants a function returns in more than one place: upper-case names (`RAW`, `Kind.SUMMARY`)."""
    found: dict[str, None] = {}
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda):
            continue
        if isinstance(node, cst.Return) and isinstance(node.value, cst.Name | cst.Attribute):
            last = (dotted(node.value) or "").split(".")[-1]
            if last.isupper():
                found[code(node.value)] = None
        stack.extend(node.children)
    return list(found) if len(found) > 1 else []


def _is_reset(line: cst.SimpleStatementLine) -> bool:
    """`name = None` (or False, a number, an empty literal): a local set back to where it starts."""
    statement = line.body[0] if len(line.body) == 1 else None
    if not (isinstance(statement, cst.Assign) and len(statement.targets) == 1):
        return False
    value = statement.value
    empty = isinstance(value, cst.List | cst.Dict | cst.Tuple | cst.SimpleString) and not _has_content(value)
    constant = (isinstance(value, cst.Name) and value.value in ("None", "False")) or _is_number(value)
    return isinstance(statement.targets[0].target, cst.Name) and (empty or constant)


def _has_content(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.SimpleString):
        return bool(value.evaluated_value)
    return bool(value.elements)  # type: ignore[union-attr]


def _in_loop(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> bool:
    parent = parents.get(node)
    while parent is not None and not isinstance(parent, cst.FunctionDef | cst.ClassDef | cst.Lambda):
        if isinstance(parent, cst.For | cst.While):
            return True
        parent = parents.get(parent)
    return False


def returned_edits(node: cst.Return, constants: list[str], code: Code) -> Iterator[DataEdit]:
    """`return SUMMARY` -> `return RAW`, where the function returns RAW elsewhere."""
    if node.value is not None and code(node.value) in constants:
        for other in constants:
            if other != code(node.value):
                yield "return-other", node.value, other
