"""What a catalog scope names: every function and class of a file by catalog name, with `@overload`
stubs resolved to their implementation, property accessors named apart, and names that several
definitions share otherwise (conditional definitions) refused instead of silently picking one.

Catalog names are dotted (`f`, `Class.method`, `outer.inner`); a property's setter and deleter are
`Class.prop.setter` and `Class.prop.deleter` (`Class.prop` is its getter). Definitions are
statements, so only statement blocks are walked (a generic visit of every expression costs more
than the rest of applying a file's mutants).
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

import libcst as cst

from mutcheck.core.module_scope import MODULE_SCOPE

_BLOCK_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")  # statement blocks, in source order
_ACCESSORS = ("setter", "deleter", "getter")

Definition = cst.FunctionDef | cst.ClassDef


def dotted(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute) and (base := dotted(node.value)):
        return f"{base}.{node.attr.value}"
    return None


def decorator_names(node: Definition) -> list[str]:
    names = []
    for decorator in node.decorators:
        expression = decorator.decorator
        expression = expression.func if isinstance(expression, cst.Call) else expression
        if name := dotted(expression):
            names.append(name)
    return names


def is_overload(node: Definition) -> bool:
    """An `@overload` stub (typing's, typing_extensions', or under any module name)."""
    return isinstance(node, cst.FunctionDef) and any(
        name == "overload" or name.endswith(".overload") for name in decorator_names(node)
    )


def _accessor(node: Definition) -> str | None:
    """`setter` for a `@prop.setter` definition of `prop` (likewise deleter and getter), else None."""
    if not isinstance(node, cst.FunctionDef):
        return None
    for name in decorator_names(node):
        owner, _, kind = name.rpartition(".")
        if owner == node.name.value and kind in _ACCESSORS:
            return kind
    return None


@dataclass
class Scopes:
    """Every scope of a module by catalog name: its node, the name Python gives its code
    (`outer.<locals>.inner`), and the names that several definitions share (with all of them)."""

    module: cst.Module
    scopes: dict[str, cst.CSTNode] = field(default_factory=dict)
    qualnames: dict[str, str] = field(default_factory=dict)
    ambiguous: dict[str, list[Definition]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.scopes[MODULE_SCOPE] = self.module
        self.qualnames[MODULE_SCOPE] = MODULE_SCOPE
        found: dict[str, list[tuple[Definition, str]]] = {}
        self._walk(self.module, [], [], found)
        for name, definitions in found.items():
            nodes = [node for node, _ in definitions]
            implementations = [node for node in nodes if not is_overload(node)] or nodes
            if len(implementations) == 1:
                chosen = implementations[0]
                self.scopes[name] = chosen
                self.qualnames[name] = next(qualname for node, qualname in definitions if node is chosen)
            else:
                self.ambiguous[name] = implementations

    def _walk(
        self, node: cst.CSTNode, names: list[str], python: list[str], found: dict[str, list[tuple[Definition, str]]]
    ) -> None:
        for field_name in _BLOCK_FIELDS:
            child = getattr(node, field_name, None)
            children = child if isinstance(child, Sequence) else (child,) if child is not None else ()
            for statement in children:
                if isinstance(statement, cst.FunctionDef | cst.ClassDef):
                    own = statement.name.value
                    accessor = _accessor(statement)
                    catalog = [*names, f"{own}.{accessor}" if accessor and accessor != "getter" else own]
                    qualname = [*python, own]
                    found.setdefault(".".join(catalog), []).append((statement, ".".join(qualname)))
                    inside = [*qualname, "<locals>"] if isinstance(statement, cst.FunctionDef) else qualname
                    self._walk(statement, catalog, inside, found)
                elif isinstance(statement, cst.CSTNode):
                    self._walk(statement, names, python, found)

    def functions(self) -> dict[str, cst.FunctionDef]:
        """Every function scope, outermost first (overload stubs and ambiguous names left out)."""
        return {name: node for name, node in self.scopes.items() if isinstance(node, cst.FunctionDef)}
