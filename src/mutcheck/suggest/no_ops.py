"""Suggested edits that change nothing as far as the syntax shows: an exit the code after it makes anyway."""

import ast
from collections.abc import Mapping

import libcst as cst

_FUNCTION_ENDS = "the function ends"
_LOOP_GOES_ON = "the loop goes on"
_ACTING = (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)


class NoOps:
    """The edits of one function that leave what it does as it was: an early `return X` (or
    `continue`) removed where what runs next returns X (or goes on with the loop) anyway, and a
    guard whose whole body is such an exit deleted, unwrapped, or its test changed. A test is judged
    only when it just reads names, attributes, items and constants: no call, no `:=`; such a read
    is taken not to raise."""

    def __init__(self, function: cst.FunctionDef, parents: Mapping[cst.CSTNode, cst.CSTNode], module: cst.Module):
        self.function = function
        self.parents = parents
        self.module = module

    def changes_nothing(self, operator: str, target: cst.CSTNode) -> bool:
        """Whether the edit `operator` makes at `target` (its first node) changes nothing."""
        if operator == "remove-early-return" and isinstance(target, cst.SimpleStatementLine):
            return self._exits_anyway(target.body[0], target)
        if isinstance(target, cst.If):
            return operator in ("delete-guard", "unwrap-guard") and self._redundant_guard(target)
        guard = self._tested_by(target)
        return guard is not None and self._redundant_guard(guard)

    def _redundant_guard(self, guard: cst.If) -> bool:
        """`if …: return X` (or `continue`) alone, where the code after it does the same."""
        if guard.orelse is not None or isinstance(self.parents.get(guard), cst.If):
            return False  # an `if` with `else`, or an `elif`: no guard
        body = guard.body.body
        exit_ = _exit(body[0]) if len(body) == 1 else None
        test = self.module.code_for_node(guard.test)
        acts = any(isinstance(node, _ACTING) for node in ast.walk(ast.parse(f"(\n{test}\n)", mode="eval")))
        return exit_ is not None and not acts and self._exits_anyway(exit_, guard)

    def _exits_anyway(self, exit_: cst.CSTNode, statement: cst.CSTNode) -> bool:
        """Whether what runs once `statement` is done makes the exit `exit_` at once."""
        after = self._after(statement)
        if isinstance(exit_, cst.Continue):
            return after == _LOOP_GOES_ON
        if not isinstance(exit_, cst.Return):
            return False
        if after == _FUNCTION_ENDS:
            return self._value(exit_.value) == self._value(None)
        following = _exit(after) if isinstance(after, cst.CSTNode) else None
        return isinstance(following, cst.Return) and self._value(following.value) == self._value(exit_.value)

    def _after(self, statement: cst.CSTNode) -> cst.CSTNode | str | None:
        """What runs once `statement` is done: the next statement, the function's end, the loop's
        next round, or None where that takes more than the syntax (a `try`, a `with`, a `match`)."""
        node = statement
        while True:
            block = self.parents.get(node)
            if not isinstance(block, cst.IndentedBlock):
                return None
            body = list(block.body)
            index = body.index(node)
            if index + 1 < len(body):
                return body[index + 1]
            owner = self.parents.get(block)
            if owner is self.function:
                return _FUNCTION_ENDS
            if isinstance(owner, cst.For | cst.While):
                return _LOOP_GOES_ON
            if isinstance(owner, cst.Else):
                owner = self.parents.get(owner)  # an `if`, or a loop left once its `else` is done
            if not isinstance(owner, cst.If | cst.For | cst.While):
                return None
            while isinstance(self.parents.get(owner), cst.If):
                owner = self.parents.get(owner)  # an `elif`: the whole chain is done
            node = owner

    def _value(self, value: cst.BaseExpression | None) -> str:
        """A returned value, layout aside (no value is `None`)."""
        code = "None" if value is None else self.module.code_for_node(value)
        return ast.dump(ast.parse(f"(\n{code}\n)", mode="eval"))

    def _tested_by(self, node: cst.CSTNode) -> cst.If | None:
        """The `if` whose test `node` is part of, if any."""
        child, parent = node, self.parents.get(node)
        while parent is not None and not isinstance(parent, cst.BaseStatement | cst.BaseSmallStatement | cst.BaseSuite):
            child, parent = parent, self.parents.get(parent)
        return parent if isinstance(parent, cst.If) and parent.test is child else None


def _exit(statement: cst.CSTNode) -> cst.Return | cst.Continue | None:
    """The `return` or `continue` a statement is, alone on its line."""
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        statement = statement.body[0]
    return statement if isinstance(statement, cst.Return | cst.Continue) else None
