"""Guard-mutation proposals over a file's function scopes: the operators, their ranking and the arid code."""

import ast
import textwrap
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from mutcheck.mutation.mutate import fragment_key
from mutcheck.mutation.scopes import Scopes, dotted
from mutcheck.suggest.data_edits import DATA_OPERATORS, Literals, data_edits, returned_constants, returned_edits
from mutcheck.suggest.no_ops import NoOps

# Most guard-like first: with one suggestion per line, the first of these on a line is kept.
OPERATORS = (
    "delete-guard",
    "drop-operand",
    "force-condition",
    "flip-comparison",
    "swap-and-or",
    "remove-not",
    "unwrap-guard",
    "delete-state-change",
    "ordering",
    "if-to-while",
    "assign-not-accumulate",
    "ternary-branch",
    "remove-clamp",
    "force-flag",
    "remove-early-return",
    "weaken-predicate",
    "swap-predicate",
    "skip-call",
    "narrow-membership",
    *DATA_OPERATORS,  # after the guards': by default they fill lines no other suggestion has
)

_FLIPPED = {
    cst.Equal: cst.NotEqual,
    cst.NotEqual: cst.Equal,
    cst.Is: cst.IsNot,
    cst.IsNot: cst.Is,
    cst.In: cst.NotIn,
    cst.NotIn: cst.In,
    cst.LessThan: cst.LessThanEqual,
    cst.LessThanEqual: cst.LessThan,
    cst.GreaterThan: cst.GreaterThanEqual,
    cst.GreaterThanEqual: cst.GreaterThan,
}
_BOOLEAN_PREFIXES = ("is_", "has_", "should_", "can_", "continues_", "allow", "needs_", "with_", "use_", "enable")
_BOOLEAN_CALLS = ("any", "all", "isinstance", "issubclass", "hasattr", "callable", "bool")
_LOGGERS = ("logger", "logging", "log", "_logger", "_log", "LOGGER", "warnings")
_ARID_SCOPES = ("__repr__", "__str__")
_EXITS = (cst.Return, cst.Continue, cst.Break, cst.Raise)
_DRAINING = ("pop", "popleft", "popitem", "remove", "clear")
_SEQUENCE_TYPES = ("list", "List", "str", "tuple", "Tuple", "bytes", "Sequence")


@dataclass(frozen=True)
class Proposal:
    """One suggested edit, as a catalog entry gives it: `match` is the source of one node of `scope`."""

    scope: str
    operator: str
    match: str
    replace: str | None  # None: the matched statements are deleted
    line: int  # the first line of the code the edit changes
    arid: bool  # in code nobody guards (logging, asserts, docstrings, annotations, __repr__, ...)
    no_op: bool  # changes nothing, as the syntax shows (an early `return x` just before `return x`)
    code: str  # the code the edit changes, and what it becomes: `match` and `replace` unless widened
    new: str


def rank(proposal: Proposal) -> int:
    return OPERATORS.index(proposal.operator)


def one_per_line(proposals: Sequence[Proposal]) -> list[Proposal]:
    """The most guard-like proposal of each line (the first given among equals)."""
    best: dict[int, Proposal] = {}
    for proposal in proposals:
        if proposal.line not in best or rank(proposal) < rank(best[proposal.line]):
            best[proposal.line] = proposal
    return [proposal for proposal in proposals if best[proposal.line] is proposal]


@dataclass(frozen=True)
class _Edit:
    operator: str
    targets: tuple[cst.CSTNode, ...]  # one expression, or consecutive statements of one block
    replace: str | None


def function_scopes(module: cst.Module) -> dict[str, cst.FunctionDef]:
    """Every function by catalog name (`f`, `Class.method`, `outer.inner`), outermost first: an
    `@overload`ed name by its implementation; names that several definitions share are left out."""
    return Scopes(module).functions()


def _statements(block: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    return block.body if isinstance(block, cst.IndentedBlock | cst.SimpleStatementSuite) else ()


def _flag_name(node: cst.CSTNode) -> str | None:
    """The name a flag goes by: a variable's, or an attribute's last part."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


def _is_bool_literal(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value in ("True", "False")


class _FileFacts:
    """What the operators need to know of the whole file: its flags, its predicates, its functions."""

    def __init__(self, module: cst.Module, parents: dict, scopes: dict[str, cst.FunctionDef]) -> None:
        self.module = module
        self.parents = parents
        self.flags: set[str] = set()  # names and attribute names that hold booleans
        self.predicate_calls: dict[str, set[str]] = {}  # predicate name -> the argument sources it is called with
        self.functions = {name: node for name, node in scopes.items() if "." not in name}
        self.collections = dict(_constant_collections(module))  # module constants like `KINDS = ("a", "b")`
        self.literals = Literals(module, parents, self.code)
        for node in _walk(module):
            self._learn(node)

    def _learn(self, node: cst.CSTNode) -> None:
        if isinstance(node, cst.Param | cst.AnnAssign) and node.annotation is not None:
            target = node.name if isinstance(node, cst.Param) else node.target
            if dotted(node.annotation.annotation) == "bool" and (name := _flag_name(target)):
                self.flags.add(name)
        elif isinstance(node, cst.Assign) and _is_bool_literal(node.value):
            self.flags.update(name for target in node.targets if (name := _flag_name(target.target)))
        elif isinstance(node, cst.Call) and len(node.args) == 1 and not node.args[0].keyword and not node.args[0].star:
            name = dotted(node.func)
            if name and self.is_predicate(name):
                self.predicate_calls.setdefault(name, set()).add(self.module.code_for_node(node.args[0].value))

    def is_flag(self, node: cst.CSTNode) -> bool:
        name = _flag_name(node)
        return name is not None and (name in self.flags or name.lstrip("_").startswith(_BOOLEAN_PREFIXES))

    def is_predicate(self, name: str) -> bool:
        return name.split(".")[-1].lstrip("_").startswith(("is_", "has_", "looks_like_", "leaks_"))

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node).strip()


def _constant_collections(module: cst.Module) -> Iterator[tuple[str, list[cst.BaseExpression]]]:
    for statement in module.body:
        if not (isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign)):
            continue
        assign = statement.body[0]
        value = assign.value
        if isinstance(value, cst.Call) and dotted(value.func) in ("frozenset", "set", "tuple") and value.args:
            value = value.args[0].value
        if isinstance(value, cst.Tuple | cst.List | cst.Set) and len(assign.targets) == 1:
            elements = [element.value for element in value.elements]
            constants = all(isinstance(e, cst.SimpleString | cst.Integer) for e in elements)
            if constants and isinstance(name := assign.targets[0].target, cst.Name):
                yield name.value, elements


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)


def _scope_nodes(function: cst.FunctionDef) -> Iterator[cst.CSTNode]:
    """The nodes of a function's body, nested functions and classes left to their own scopes."""
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, cst.FunctionDef | cst.ClassDef):
            stack.extend(reversed(node.children))


def _is_boolean_expression(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Comparison | cst.BooleanOperation):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return True
    if isinstance(node, cst.Call) and (name := dotted(node.func)):
        last = name.split(".")[-1]
        return last in _BOOLEAN_CALLS or last.lstrip("_").startswith(("is_", "has_", "startswith", "endswith"))
    return False


def _is_logging_call(statement: cst.CSTNode) -> bool:
    if not (isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call)):
        return False
    name = dotted(statement.value.func) or ""
    parts = name.removeprefix("self.").split(".")
    return name == "print" or (len(parts) > 1 and parts[0] in _LOGGERS)


def _is_string_statement(node: cst.CSTNode) -> bool:
    """A docstring, or a string standing alone as a statement."""
    if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1:
        node = node.body[0]
    return isinstance(node, cst.Expr) and isinstance(
        node.value, cst.SimpleString | cst.ConcatenatedString | cst.FormattedString
    )


def _is_arid(node: cst.CSTNode, parents: dict, scope: str) -> bool:
    """Logging, asserts, docstrings, annotations, `if TYPE_CHECKING:` blocks, raise messages, __repr__."""
    if scope.split(".")[-1] in _ARID_SCOPES:
        return True
    path: list[cst.CSTNode] = []
    while node is not None:
        if isinstance(node, cst.Assert | cst.Annotation) or _is_logging_call(node) or _is_string_statement(node):
            return True
        if isinstance(node, cst.If) and dotted(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            return True
        if isinstance(node, cst.Raise) and len(path) > 1 and path[-1] is node.exc and isinstance(path[-2], cst.Arg):
            return True  # the raised exception's arguments: its message
        path.append(node)
        node = parents.get(node)
    return False


class _Scope:
    """One function scope: its proposals, each made unique in the scope as `match` must be."""

    def __init__(self, name: str, function: cst.FunctionDef, facts: _FileFacts) -> None:
        self.name = name
        self.function = function
        self.facts = facts
        self.no_ops = NoOps(function, facts.parents, facts.module)
        self.returned = returned_constants(function, facts.code)
        bound = [target.target for target in _scope_nodes(function) if isinstance(target, cst.AssignTarget)]
        bound += [parameter.name for parameter in function.params.params + function.params.kwonly_params]
        self.local_flags = sorted({node.value for node in bound if isinstance(node, cst.Name) and facts.is_flag(node)})
        self.expressions: Counter[str] = Counter()
        self.statement_runs: Counter[str] = Counter()
        for node in _walk(function):
            if isinstance(node, cst.BaseExpression):
                self.expressions[fragment_key(facts.module.code_for_node(node), expression=True)] += 1
            if isinstance(node, cst.IndentedBlock):
                codes = [_statement_code(facts.module, statement) for statement in node.body]
                for count in (1, 2, 3):
                    for start in range(len(codes) - count + 1):
                        self.statement_runs[fragment_key("".join(codes[start : start + count]), expression=False)] += 1

    def proposals(self, positions: dict) -> Iterator[Proposal]:
        for node in _scope_nodes(self.function):
            for edit in _edits(node, self):
                finished = self._unique(edit)
                if finished is not None:
                    match, replace = finished
                    replace = replace if replace is None else replace.strip("\n")
                    line = positions[edit.targets[0]].start.line
                    arid = _is_arid(edit.targets[0], self.facts.parents, self.name)
                    no_op = self.no_ops.changes_nothing(edit.operator, edit.targets[0])
                    code = "".join(_statement_code(self.facts.module, t) for t in edit.targets)
                    new = (edit.replace or "").strip("\n")
                    if isinstance(edit.targets[0], cst.BaseExpression):
                        code, new = _unbracketed(self.facts.code(edit.targets[0])), _unbracketed(new)
                    yield Proposal(self.name, edit.operator, match, replace, line, arid, no_op, code.strip("\n"), new)

    def _unique(self, edit: _Edit) -> tuple[str, str | None] | None:
        """`match` and `replace` for the edit: its own code when unique in the scope, else the
        smallest enclosing run of statements that is (None when there is none)."""
        module = self.facts.module
        first = edit.targets[0]
        if isinstance(first, cst.BaseExpression):
            match = self.facts.code(first)
            if self.expressions[fragment_key(match, expression=True)] == 1:
                return match, edit.replace
        elif self._block_of(first) is not None:
            match = "".join(_statement_code(module, target) for target in edit.targets)
            # runs of more statements than are counted (a whole body) are left to applying to refuse if repeated
            counted = len(edit.targets) > 3 or self.statement_runs[fragment_key(match, expression=False)] == 1
            if counted:
                return match.strip("\n"), edit.replace
        return self._widened(edit)

    def _block_of(self, statement: cst.CSTNode) -> cst.IndentedBlock | None:
        parent = self.facts.parents.get(statement)
        return parent if isinstance(parent, cst.IndentedBlock) else None

    def _widened(self, edit: _Edit) -> tuple[str, str] | None:
        module = self.facts.module
        node: cst.CSTNode | None = self.facts.parents.get(edit.targets[0])
        while node is not None and node is not self.function:
            block = self._block_of(node)
            if isinstance(node, cst.BaseStatement) and block is not None:
                rewritten = _rewrite(node, edit)
                if rewritten is None:
                    return None
                index = list(block.body).index(node)
                before, after = block.body[index - 1 : index], block.body[index + 1 : index + 2]
                for run_before, run_after in (((), ()), (before, ()), ((), after)):
                    run = (*run_before, node, *run_after)
                    match = "".join(_statement_code(module, statement) for statement in run)
                    if self.statement_runs[fragment_key(match, expression=False)] == 1:
                        replace = "".join(
                            rewritten if statement is node else _statement_code(module, statement) for statement in run
                        )
                        return match.strip("\n"), replace.strip("\n")
            node = self.facts.parents.get(node)
        return None


def _unbracketed(code: str) -> str:
    """An expression without the brackets around all of it (a tuple's kept): the texts compare what
    is inside, as the operators build it (an operand dropped from `(a and b)` gives `a`)."""
    try:
        expression = cst.parse_expression(code)
        if not expression.lpar or isinstance(expression, cst.Tuple):
            return code
        return cst.Module(body=[]).code_for_node(expression.with_changes(lpar=[], rpar=[]))
    except (cst.ParserSyntaxError, cst.CSTValidationError):  # no expression, or one that needs them
        return code


def _statement_code(module: cst.Module, statement: cst.CSTNode) -> str:
    """A statement's source without the comment lines above it, ending in a line break."""
    if isinstance(statement, cst.SimpleStatementLine | cst.BaseCompoundStatement):
        statement = statement.with_changes(leading_lines=())
    code = module.code_for_node(statement)
    return code if code.endswith("\n") else code + "\n"


def _rewrite(statement: cst.CSTNode, edit: _Edit) -> str | None:
    """The statement's source with the edit made inside it."""
    module = cst.Module(body=[])
    first = edit.targets[0]
    if isinstance(first, cst.BaseExpression):
        code = edit.replace
        if fragment_key(code, expression=True) is None:
            return None
        tight = isinstance(ast.parse(f"(\n{code}\n)", mode="eval").body, ast.Name | ast.Constant | ast.Call)
        new = cst.parse_expression(code if tight else f"({code})")
        if getattr(first, "lpar", None) and not new.lpar:  # `if(x):` keeps its parentheses: `ifTrue:` is no Python
            new = new.with_changes(lpar=first.lpar, rpar=first.rpar)
        try:
            rewritten = statement.deep_replace(first, new)
        except cst.CSTValidationError:  # a spacing LibCST cannot write for this replacement: no proposal
            return None
    else:
        parent = _parent_block(statement, first)
        if parent is None:
            return None
        body = list(parent.body)
        start = body.index(first)
        replacement = list(cst.parse_module(textwrap.dedent(edit.replace or "")).body)
        body[start : start + len(edit.targets)] = replacement
        rewritten = statement.deep_replace(parent, parent.with_changes(body=body or [cst.parse_statement("pass")]))
    return _statement_code(module, rewritten)


def _parent_block(statement: cst.CSTNode, target: cst.CSTNode) -> cst.IndentedBlock | None:
    for node in _walk(statement):
        if isinstance(node, cst.IndentedBlock) and any(child is target for child in node.body):
            return node
    return None


# The operators. Each looks at one node of the scope and yields the edits it proposes there.


def _edits(node: cst.CSTNode, scope: _Scope) -> Iterator[_Edit]:
    facts = scope.facts
    if isinstance(node, cst.If):
        yield from _if_edits(node, facts)
    elif isinstance(node, cst.While):
        yield _Edit("force-condition", (node.test,), "False")
    elif isinstance(node, cst.CompIf):
        yield from _forced(node.test)
    elif isinstance(node, cst.IfExp):
        yield from _forced(node.test)
        yield _Edit("ternary-branch", (node,), facts.code(node.body))
        yield _Edit("ternary-branch", (node,), facts.code(node.orelse))
    elif isinstance(node, cst.BooleanOperation):
        yield from _boolean_edits(node, facts)
    elif isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        target = node.comparisons[0]
        flipped = _FLIPPED.get(type(target.operator))
        if flipped is not None:
            operator = flipped(**_whitespace(target.operator, flipped))
            new = node.with_changes(comparisons=[target.with_changes(operator=operator)])
            yield _Edit("flip-comparison", (node,), facts.code(new))
        if isinstance(target.operator, cst.In) and isinstance(target.comparator, cst.Name):
            for element in facts.collections.get(target.comparator.value, ()):
                narrowed = f"{facts.code(node.left)} == {facts.code(element)}"
                yield _Edit("narrow-membership", (node,), narrowed)
    elif isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        yield _Edit("remove-not", (node,), facts.code(node.expression))
    elif isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1:
        yield from _statement_edits(node, node.body[0], scope)
    elif isinstance(node, cst.Call):
        yield from _call_edits(node, facts)
        yield from _literal_flag_swaps(node, scope)
    elif isinstance(node, cst.Subscript):
        yield from _index_edits(node, facts)
    elif isinstance(node, cst.IndentedBlock):
        yield from _swaps(node, facts)
        if node is scope.function.body and scope.returned:
            yield from _always_returned(node, scope)
    elif isinstance(node, cst.Attribute):
        yield from _flag_swaps(node, scope)
    elif isinstance(node, cst.DictElement):
        yield from _forced_value(node.value, None, facts)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        yield from _concatenation_swap(node, scope)
    if isinstance(node, cst.Return):
        yield from (_Edit(op, (target,), new) for op, target, new in returned_edits(node, scope.returned, facts.code))
    for operator, target, replacement in data_edits(node, facts.parents, facts.literals, facts.code):
        yield _Edit(operator, (target,), replacement)


def _always_returned(body: cst.IndentedBlock, scope: _Scope) -> Iterator[_Edit]:
    """The whole body (its docstring kept) replaced by `return C`, for each constant it returns."""
    statements = tuple(body.body[1:] if _is_string_statement(body.body[0]) else body.body)
    if len(statements) > 1:
        for constant in scope.returned:
            yield _Edit("return-other", statements, f"return {constant}")


def _whitespace(operator: cst.CSTNode, flipped: type) -> dict:
    spaces = {"whitespace_before": operator.whitespace_before, "whitespace_after": operator.whitespace_after}
    if flipped in (cst.IsNot, cst.NotIn):
        spaces["whitespace_between"] = cst.SimpleWhitespace(" ")
    return spaces


def _forced(condition: cst.BaseExpression) -> Iterator[_Edit]:
    if not _is_bool_literal(condition):
        yield _Edit("force-condition", (condition,), "True")
        yield _Edit("force-condition", (condition,), "False")


def _exits(block: cst.BaseSuite) -> bool:
    statements = _statements(block)
    if not statements:
        return False
    last = statements[-1]
    small = last.body[-1] if isinstance(last, cst.SimpleStatementLine) else last
    return isinstance(small, _EXITS)


def _changes_state(statement: cst.CSTNode) -> bool:
    """A statement that writes something outside its locals: a call made for its effect, `del`,
    an assignment to an attribute or item, or a local name updated from itself."""
    for node in _walk(statement):
        if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call) and not _is_logging_call(node):
            return True
        if isinstance(node, cst.Del | cst.AugAssign):
            return True
        if isinstance(node, cst.Assign):
            targets = [target.target for target in node.targets]
            if any(isinstance(target, cst.Attribute | cst.Subscript) for target in targets):
                return True
            names = {target.value for target in targets if isinstance(target, cst.Name)}
            if any(isinstance(n, cst.Name) and n.value in names for n in _walk(node.value)):
                return True
    return False


def _if_edits(node: cst.If, facts: _FileFacts) -> Iterator[_Edit]:
    yield from _forced(node.test)
    if node.orelse is not None or isinstance(facts.parents.get(node), cst.If):
        return  # an `if` with `else`, or an `elif`: not a guard
    body = _statements(node.body)
    if _exits(node.body):
        yield _Edit("delete-guard", (node,), None)
    elif body and all(_changes_state(statement) for statement in body):
        yield _Edit("delete-state-change", (node,), None)
    unwrapped = "".join(_statement_code(facts.module, statement) for statement in body)
    yield _Edit("unwrap-guard", (node,), unwrapped)
    if _drains(node) and not _exits(node.body):
        loop = cst.While(
            test=node.test,
            body=node.body,
            leading_lines=(),
            whitespace_after_while=node.whitespace_before_test,
            whitespace_before_colon=node.whitespace_after_test,
        )
        yield _Edit("if-to-while", (node,), facts.module.code_for_node(loop))


def _drains(guard: cst.If) -> bool:
    """The guard's body takes from a container its test reads (`if xs and …: xs.pop()`): as a loop
    it would end once the test fails, instead of hanging like a loop whose body cannot end it."""
    tested = {name.value for name in _walk(guard.test) if isinstance(name, cst.Name)}
    for node in _walk(guard.body):
        taken = []
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _DRAINING:
            taken = [node.func.value]
        elif isinstance(node, cst.Del):
            taken = list(_walk(node.target))
        if any(isinstance(name, cst.Name) and name.value in tested for name in taken):
            return True
    return False


def _operands(node: cst.BaseExpression, operator: type, top: bool = True) -> list[cst.BaseExpression]:
    """A chain `a and b and c` (in brackets or not) as its operands; a bracketed chain inside it is one."""
    if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, operator) and (top or not node.lpar):
        return [*_operands(node.left, operator, top=False), *_operands(node.right, operator, top=False)]
    return [node]


def _boolean_edits(node: cst.BooleanOperation, facts: _FileFacts) -> Iterator[_Edit]:
    parent = facts.parents.get(node)
    operator = type(node.operator)
    if isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, operator) and not node.lpar:
        return  # inside a chain: the chain's top proposes for all of it
    operands = _operands(node, operator)
    word = " and " if operator is cst.And else " or "
    codes = [facts.code(operand) for operand in operands]
    for index, operand in enumerate(operands):
        yield _Edit("drop-operand", (node,), word.join(codes[:index] + codes[index + 1 :]))
        yield from _forced(operand)
    yield _Edit("swap-and-or", (node,), (" or " if operator is cst.And else " and ").join(codes))


def _statement_edits(
    line: cst.SimpleStatementLine, statement: cst.BaseSmallStatement, scope: _Scope
) -> Iterator[_Edit]:
    facts = scope.facts
    if isinstance(statement, cst.Return) and statement.value is not None and _is_boolean_expression(statement.value):
        yield from _forced(statement.value)
    if isinstance(statement, cst.Return) and _is_early(line, scope):
        yield _Edit("remove-early-return", (line,), None)
    if _advances_loop(line, scope):
        return  # without its step the loop never ends: a time-out, not a finding
    if _changes_state(line) and not isinstance(statement, cst.Return):
        yield _Edit("delete-state-change", (line,), None)
    if isinstance(statement, cst.AugAssign):
        assign = cst.Assign(targets=[cst.AssignTarget(statement.target)], value=statement.value)
        yield _Edit("assign-not-accumulate", (line,), facts.module.code_for_node(assign))
        if isinstance(statement.operator, cst.AddAssign):  # the first value kept, later ones dropped
            target = facts.code(statement.target)
            yield _Edit("assign-not-accumulate", (line,), f"{target} = {target} or {facts.code(statement.value)}")
    if isinstance(statement, cst.Assign) and _is_boolean_expression(statement.value):
        yield from _forced(statement.value)
    if isinstance(statement, cst.Assign) and isinstance(statement.value, cst.Call):
        arguments = statement.value.args
        single = len(arguments) == 1 and not arguments[0].keyword and not arguments[0].star
        if single and isinstance(arguments[0].value, cst.Name | cst.Attribute | cst.Subscript):
            yield _Edit("skip-call", (statement.value,), facts.code(arguments[0].value))


def _advances_loop(line: cst.SimpleStatementLine, scope: _Scope) -> bool:
    """A statement that changes a name its enclosing `while` loop tests (`n -= 1`, `stack.pop()`)."""
    bound, read = _names(line, scope.facts.module)
    if _changes_state(line):
        bound |= read
    node = scope.facts.parents.get(line)
    while node is not None and node is not scope.function:
        if isinstance(node, cst.While):
            tested = {name.value for name in _walk(node.test) if isinstance(name, cst.Name)}
            if bound & tested:
                return True
        node = scope.facts.parents.get(node)
    return False


def _is_early(line: cst.SimpleStatementLine, scope: _Scope) -> bool:
    """A return that something follows, and not the whole body of a guard (deleting the guard says it)."""
    body = list(scope.function.body.body)
    if body and body[-1] is line:
        return False
    block = scope.facts.parents.get(line)
    guard = scope.facts.parents.get(block)
    return not (isinstance(guard, cst.If) and guard.orelse is None and len(_statements(guard.body)) == 1)


def _call_edits(node: cst.Call, facts: _FileFacts) -> Iterator[_Edit]:
    name = dotted(node.func) or ""
    positional = [arg for arg in node.args if not arg.keyword and not arg.star]
    codes = [facts.code(arg.value) for arg in positional]
    plain = len(positional) == len(node.args)
    for arg in node.args:
        if not arg.star:
            yield from _forced_value(arg.value, arg.keyword, facts)
    if name in ("min", "max") and plain and len(codes) == 2:
        yield from (_Edit("remove-clamp", (node,), code) for code in codes)
    if isinstance(node.func, cst.Attribute) and plain:
        owner = facts.code(node.func.value)
        method = node.func.attr.value
        if method == "append" and len(codes) == 1:
            yield _Edit("ordering", (node,), f"{owner}.insert(0, {codes[0]})")
        elif method == "insert" and len(codes) == 2:
            moved = f"{owner}.append({codes[1]})" if codes[0] == "0" else f"{owner}.insert(0, {codes[1]})"
            yield _Edit("ordering", (node,), moved)
        elif method == "pop" and codes in ([], ["0"]):
            yield _Edit("ordering", (node,), f"{owner}.pop()" if codes else f"{owner}.pop(0)")
    if plain and len(codes) == 1 and facts.is_predicate(name):
        yield from _weakened(node, name, codes[0], facts)
        for other in sorted(facts.predicate_calls):
            if other != name and codes[0] in facts.predicate_calls[other]:
                yield _Edit("swap-predicate", (node,), f"{other}({codes[0]})")


def _literal_flag_swaps(node: cst.Call, scope: _Scope) -> Iterator[_Edit]:
    """`f(parts, True)` -> `f(parts, has_call)`: a constant passed where the function's own flag could decide."""
    for arg in node.args:
        if _is_bool_literal(arg.value):
            for flag in scope.local_flags:
                yield _Edit("swap-predicate", (arg.value,), flag)


def _forced_value(value: cst.BaseExpression, keyword: cst.Name | None, facts: _FileFacts) -> Iterator[_Edit]:
    """A flag passed on (`f(x, has_call)`, `{"k": self.done}`) or a condition computed in place
    (`f(flag=a == b)`), forced True and False."""
    if isinstance(value, cst.Name | cst.Attribute) and not _is_bool_literal(value):
        if facts.is_flag(value) or (keyword is not None and facts.is_flag(keyword)):
            yield from (_Edit("force-flag", (value,), constant) for constant in ("True", "False"))
    elif _is_boolean_expression(value) and not isinstance(value, cst.Call):
        yield from _forced(value)


def _weakened(node: cst.Call, name: str, argument: str, facts: _FileFacts) -> Iterator[_Edit]:
    """`f(x)` -> `g(x)` where `f(p)` returns `... and g(p) and ...`: the predicate cut to one conjunct."""
    function = facts.functions.get(name)
    if function is None or len(function.params.params) != 1 or not isinstance(function.body, cst.IndentedBlock):
        return
    parameter = function.params.params[0].name.value
    statements = [statement for statement in function.body.body if not _is_string_statement(statement)]
    if len(statements) != 1 or not isinstance(statements[0], cst.SimpleStatementLine):
        return
    if not isinstance(statements[0].body[0], cst.Return):
        return
    value = statements[0].body[0].value
    for conjunct in _operands(value, cst.And) if value is not None else ():
        if (
            isinstance(conjunct, cst.Call)
            and len(conjunct.args) == 1
            and isinstance(conjunct.args[0].value, cst.Name)
            and conjunct.args[0].value.value == parameter
            and (inner := dotted(conjunct.func))
        ):
            yield _Edit("weaken-predicate", (node,), f"{inner}({argument})")
            return


def _index_edits(node: cst.Subscript, facts: _FileFacts) -> Iterator[_Edit]:
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return
    index = facts.code(node.slice[0].slice.value)
    swapped = {"0": "-1", "-1": "0"}.get(index)
    if swapped is not None:
        yield _Edit("ordering", (node,), f"{facts.code(node.value)}[{swapped}]")


def _names(statement: cst.CSTNode, module: cst.Module) -> tuple[set[str], set[str]]:
    """The local names a statement binds, and those it reads."""
    tree = ast.parse(textwrap.dedent(_statement_code(module, statement)))
    bound, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
    return bound, read


def _swappable(statement: cst.CSTNode) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine | cst.If | cst.For | cst.While | cst.With):
        return False
    leaves = any(isinstance(node, (*_EXITS, cst.Yield, cst.Global, cst.Nonlocal)) for node in _walk(statement))
    return not leaves and _changes_state(statement)


def _swaps(block: cst.IndentedBlock, facts: _FileFacts) -> Iterator[_Edit]:
    """Two adjacent statements that both change state swapped, when neither needs a value only
    the other makes (a name both read and rebind, like a pipeline's `x = f(x)`, may be shared)."""
    for first, second in zip(block.body, block.body[1:], strict=False):
        if not (_swappable(first) and _swappable(second)):
            continue
        (bound_1, read_1), (bound_2, read_2) = _names(first, facts.module), _names(second, facts.module)
        shared = (bound_1 & (read_2 | bound_2)) | (bound_2 & read_1)
        if all(name in read_1 & read_2 & bound_1 & bound_2 for name in shared):
            module = facts.module
            yield _Edit("ordering", (first, second), _statement_code(module, second) + _statement_code(module, first))


def _flag_swaps(node: cst.Attribute, scope: _Scope) -> Iterator[_Edit]:
    """`x.a` -> `x.b` in a condition, where `x.b` is another flag the scope reads."""
    facts = scope.facts
    parent = facts.parents.get(node)
    in_condition = (isinstance(parent, cst.If | cst.While | cst.IfExp) and parent.test is node) or isinstance(
        parent, cst.BooleanOperation | cst.UnaryOperation
    )
    if not (in_condition and facts.is_flag(node)):
        return
    owner = facts.code(node.value)
    others = {
        other.attr.value
        for other in _scope_nodes(scope.function)
        if isinstance(other, cst.Attribute)
        and facts.code(other.value) == owner
        and other.attr.value != node.attr.value
        and facts.is_flag(other)
        and not isinstance(facts.parents.get(other), cst.AssignTarget)
        and not _is_arid(other, facts.parents, scope.name)
    }
    for attribute in sorted(others):
        yield _Edit("swap-predicate", (node,), f"{owner}.{attribute}")


def _concatenation_swap(node: cst.BinaryOperation, scope: _Scope) -> Iterator[_Edit]:
    """`return a + b` -> `return b + a` in a function that returns a sequence: the parts' order."""
    returns = scope.function.returns
    if not (isinstance(scope.facts.parents.get(node), cst.Return) and returns is not None):
        return
    annotation = returns.annotation
    base = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    if dotted(base) in _SEQUENCE_TYPES:
        facts = scope.facts
        yield _Edit("ordering", (node,), f"{facts.code(node.right)} + {facts.code(node.left)}")


def propose(text: str, scope: str | None = None) -> list[Proposal]:
    """Every proposal in the file's functions (or in `scope` and the functions inside it), in
    source order; arid ones are marked. Raises KeyError for an unknown scope, naming the known."""
    wrapper = MetadataWrapper(cst.parse_module(text))
    module = wrapper.module
    scopes = function_scopes(module)
    chosen = [name for name in scopes if scope is None or name == scope or name.startswith(scope + ".")]
    if scope is not None and not chosen:
        raise KeyError(scope)
    positions = wrapper.resolve(PositionProvider)
    facts = _FileFacts(module, wrapper.resolve(ParentNodeProvider), scopes)
    proposals = [proposal for name in chosen for proposal in _Scope(name, scopes[name], facts).proposals(positions)]
    return sorted(proposals, key=lambda proposal: proposal.line)
