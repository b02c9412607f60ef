"""The pytest test a witness becomes: its input as source, the call, the assertions, its docstring."""

import ast
import builtins
import json
import keyword
import re
import textwrap
from dataclasses import dataclass

from mutcheck.catalog.catalog import Mutant
from mutcheck.core.texts import say
from mutcheck.harden.values import Tree, format_tree, holds_state, import_lines
from mutcheck.harden.wire import (
    ASYNC_GENERATOR,
    ASYNCIO_RUN,
    CLASS,
    CONSTRUCTOR,
    COROUTINE,
    FUNCTION,
    GENERATOR,
    METHOD,
    PROPERTY,
    Located,
)
from mutcheck.harden.witness import Witness

_WIDTH = 88
_BUILTINS = frozenset(vars(builtins))
_WHOLE = 1200  # characters of an expected value a reader takes in whole; past it, the part that differs
_SPECIAL = re.compile(r"[.^$*+?{}\[\]\\|()]")  # what `pytest.raises(match=...)` would read as a pattern
# special methods as a test writes them: (form, the one result type its builtin passes on unchanged)
_FORMS = {
    **{name: (f"{{0}} {operator} {{1}}", None) for name, operator in [
        ("__eq__", "=="), ("__ne__", "!="), ("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">="),
        ("__and__", "&"), ("__or__", "|"), ("__xor__", "^"), ("__sub__", "-"), ("__add__", "+"), ("__mul__", "*"),
    ]},
    "__getitem__": ("{0}[{1}]", None),
    "__contains__": ("{1} in {0}", "bool"),
    "__len__": ("len({0})", "int"),
    "__bool__": ("bool({0})", "bool"),
}  # fmt: skip
# special methods written as the statement that calls them, where their result is not asserted
_STATEMENTS = {"__setitem__": "{0}[{1}] = {2}", "__delitem__": "del {0}[{1}]"}
_MATCH = 100  # characters of an exception's message its test matches: the start says which error it is


@dataclass(frozen=True)
class WrittenTest:
    name: str
    source: str  # the function, from `def` to its last line
    imports: frozenset[tuple[str, str]]


def test_name(mutant_id: str) -> str:
    return "test_kills_" + (re.sub(r"\W+", "_", mutant_id.lower()).strip("_") or "mutant")


def _docstring(mutant: Mutant, languages: tuple[str, ...]) -> str:
    paragraphs = []
    for lang in languages:
        title = mutant.title.get(lang) or mutant.title.get(languages[0], "")
        paragraphs.append(say(lang, "harden", "docstring", id=mutant.id, title=title))
        reason = mutant.why.get(lang)
        if reason:
            # broken at spaces only: never inside a name or a code span (a line of CJK text may run long)
            lines = textwrap.wrap(reason, _WIDTH - 4, break_long_words=False, break_on_hyphens=False)
            paragraphs.append("\n".join(lines))
    text = "\n\n".join(paragraphs).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return '"""' + textwrap.indent(text, "    ").lstrip() + '\n    """'


def _snake(name: str) -> str:
    """A class's name as a variable's: `_NoneStep` gives `none_step`."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name.lstrip("_")).lower() or "value"


def _variable(name: str, taken: set[str]) -> str:
    """A new variable's name: never a keyword, nor a builtin the test may use (`dict` for a `Dict`)."""
    chosen = name if name.isidentifier() and not keyword.iskeyword(name) else f"{name}_value"
    while chosen in taken or chosen in _BUILTINS:
        chosen += "_"
    taken.add(chosen)
    return chosen


def _focused(expr: str, original: Tree, mutant: Tree | None) -> list[tuple[str, Tree]]:
    """(expression, expected) pairs: the whole value when a reader can take it in, else the part
    where the mutant's value first differs, reached by index, key or attribute."""
    if len(format_tree(original)) <= _WHOLE or mutant is None or "items" not in original or "items" not in mutant:
        return [(expr, original)]
    ours, theirs = original["items"], mutant["items"]
    accessors = [accessor for _, accessor, _ in ours]
    if original["open"] != mutant["open"] or not all(accessors):
        return [(expr, original)]
    if accessors != [accessor for _, accessor, _ in theirs]:
        if original["open"] in ("[", "(") and len(ours) != len(theirs):
            return [(f"len({expr})", {"text": str(len(ours))})]
        return [(expr, original)]
    for (_, accessor, item), (_, _, other) in zip(ours, theirs, strict=True):
        if item != other:
            return _focused(expr + accessor, item, other)
    return [(expr, original)]


def _attribute_names(observed: Tree) -> list[str]:
    """The attributes an observed object holds: those written as items, and those left out."""
    written = [accessor[1:] for _, accessor, _ in observed["items"] if accessor.startswith(".")]
    return [name for name in [*written, *observed.get("left_out", ())] if name.isidentifier()]


def _checks(expr: str, original: Tree, mutant: Tree | None) -> list[tuple[str, Tree]]:
    """(expression, expected) pairs for a value that holds objects compared by identity: each object
    by its attributes (those where the mutant's differs, else all), containers item by item, never
    an object whole."""
    if not holds_state(original):
        return _focused(expr, original, mutant)
    alike = mutant is not None and mutant.get("open") == original["open"] and "items" in mutant
    theirs = {accessor: item for _, accessor, item in mutant["items"]} if alike else {}  # type: ignore[index]
    found: list[tuple[str, Tree]] = []
    if original.get("state") and not alike:  # the mutant gave another kind of value: its type tells
        found.append((f"type({expr}).__qualname__", {"text": json.dumps(original["open"][:-1])}))
    elif original["open"] in ("[", "(") and len(original["items"]) != len(theirs):
        found.append((f"len({expr})", {"text": str(len(original["items"]))}))
    differing = [(accessor, item) for _, accessor, item in original["items"] if theirs.get(accessor) != item]
    if original.get("state") and alike:  # an attribute only one of them holds: whether it is there tells
        ours, others = _attribute_names(original), _attribute_names(mutant)  # type: ignore[arg-type]
        found += [(f"({json.dumps(name)} in vars({expr}))", {"text": "False"}) for name in others if name not in ours]
        # one the original holds but cannot write, and the mutant lacks: its value is not asserted above
        absent = [name for name in original.get("left_out", ()) if name not in others]
        found += [(f"({json.dumps(name)} in vars({expr}))", {"text": "True"}) for name in absent]
    for accessor, item in differing if alike and differing else [(a, i) for _, a, i in original["items"]]:
        reached = accessor.replace("{}", expr) if "{}" in accessor else expr + accessor
        found += _checks(reached, item, theirs.get(accessor))
    return found


def _assertion(expr: str, expected: Tree) -> str:
    head = f"    assert {expr} == "
    if expected.get("text") in ("None", "True", "False", "NotImplemented"):
        head = f"    assert {expr} is "
    return head + format_tree(expected, 4)


def write_test(mutant: Mutant, languages: tuple[str, ...], located: Located, witness: Witness) -> WrittenTest:
    """The test of one witness: the recorded (or varied) input as source, the call, and assertions
    on what the original does where the mutant does otherwise."""
    imports: set[tuple[str, str]] = {tuple(pair) for pair in witness.call["imports"]}  # type: ignore[misc]
    imports |= {tuple(pair) for pair in witness.original.get("imports", [])}  # type: ignore[misc]
    imports |= {tuple(pair) for pair in witness.original.get("after_imports", [])}  # type: ignore[misc]
    module, kind, qualname = located.module, located.kind, located.qualname
    owner_path, name = qualname.rpartition(".")[0], qualname.rpartition(".")[2]
    imports.add((module, qualname.split(".")[0]))
    taken = {imported for _, imported in imports} | {"result", "raised", "pytest", "asyncio", "collected"}
    parameters = list(located.parameters)
    if kind in (METHOD, PROPERTY, CLASS, CONSTRUCTOR):
        parameters = parameters[1:]
    lines, arguments, variables = [], [], {}
    if kind in (METHOD, PROPERTY):
        receiver = _variable(_snake(owner_path.rpartition(".")[2]), taken)
        variables["self"] = receiver
        lines.append(f"    {receiver} = {format_tree(witness.call['self'], 4)}")
        callee = f"{receiver}.{name}"
        if witness.call.get("unbound"):  # `self` of another type: the method through its class
            callee, arguments = f"{owner_path}.{name}", [receiver]
    elif kind == CONSTRUCTOR:
        callee = format_tree(witness.call["class"]) if witness.call.get("class") else owner_path
    else:
        callee = name if kind == FUNCTION else f"{owner_path}.{name}"
    flat = [format_tree(tree) for tree in witness.call["args"]]
    flat += [f"{key}={format_tree(tree)}" for key, tree in witness.call["kwargs"].items()]
    long_call = len(f"    result = {callee}({', '.join(flat)})") > _WIDTH
    for index, tree in enumerate(witness.call["args"]):
        key = f"arg{index}"
        if long_call or key in witness.differs:
            variables[key] = _variable(parameters[index] if index < len(parameters) else key, taken)
            lines.append(f"    {variables[key]} = {format_tree(tree, 4)}")
            arguments.append(variables[key])
        else:
            arguments.append(format_tree(tree, 4))
    for key, tree in witness.call["kwargs"].items():
        if long_call or key in witness.differs:
            variables[key] = _variable(key, taken)
            lines.append(f"    {variables[key]} = {format_tree(tree, 4)}")
            arguments.append(f"{key}={variables[key]}")
        else:
            arguments.append(f"{key}={format_tree(tree, 4)}")
    flavour, style = located.flavour, located.async_style
    in_loop = flavour in (COROUTINE, ASYNC_GENERATOR) and style != ASYNCIO_RUN  # an async test
    written_call = callee if kind == PROPERTY else _call_source(callee, arguments)
    if kind == METHOD and not witness.call.get("unbound") and not witness.call["kwargs"]:
        written_call = _operator_form(name, variables["self"], arguments, witness) or written_call
    call = _consuming(written_call, flavour, in_loop, lines, imports)
    raised = witness.original.get("raised")
    if raised is not None:
        exception = raised["qualname"]
        if raised["module"] != "builtins":
            imports.add((raised["module"], exception.split(".")[0]))
        imports.add(("", "pytest"))
        # the mutant raising a subclass (ShortKeyError for KeyError) passes `pytest.raises`: the type is asserted
        other = (witness.mutant.get("raised") or {}).get("qualname")
        exact = other is not None and other != exception
        lines += [
            f"    with pytest.raises({exception}{_match(raised.get('message'))}){' as raised' if exact else ''}:",
            textwrap.indent(call, "        "),
            *([f"    assert raised.type is {exception}"] if exact else []),
        ]
    elif "result" in witness.differs or "raised" in witness.differs:
        lines.append(_warning_kept(witness, "    result = " + textwrap.indent(call, "    ").lstrip(), imports))
        kind, other = witness.original.get("type"), witness.mutant.get("type")
        if kind and other and kind != other:  # a value of another type may still compare equal
            lines.append(f"    assert type(result).__qualname__ == {json.dumps(kind)}")
        for expr, expected in _checks("result", witness.original["result"], witness.mutant.get("result")):
            if _assertion(expr, expected) not in lines:  # the type, when the state checks assert it too
                lines.append(_assertion(expr, expected))
    else:
        lines.append(_warning_kept(witness, textwrap.indent(call, "    "), imports))
    for key in witness.differs:
        if key in variables:
            after = witness.mutant.get("after", {}).get(key)
            for expr, expected in _checks(variables[key], witness.original["after"][key], after):
                lines.append(_assertion(expr, expected))
    test = test_name(mutant.id)
    head = f"def {test}():"
    if in_loop:
        imports.add(("", "pytest"))
        head = f"@pytest.mark.{style}\nasync def {test}():"
    source = f"{head}\n    {_docstring(mutant, languages)}\n" + "\n".join(lines) + "\n"
    # a variation that dropped the only value of an imported type leaves its import unused
    code = head + "\n".join(lines)
    used = {pair for pair in imports if re.search(rf"\b{re.escape(pair[1].split('.')[0])}\b", code)}
    return WrittenTest(test, source, frozenset(used))


def _warning_kept(witness: Witness, statement: str, imports: set[tuple[str, str]]) -> str:
    """The call's statement, inside `pytest.warns(Category)` where the original gives a warning the
    mutant does not (a deleted `warnings.warn`)."""
    given = [tuple(pair) for pair in witness.original.get("warned", [])]
    missing = [pair for pair in given if list(pair) not in witness.mutant.get("warned", [])]
    if "warned" not in witness.differs or not missing:
        return statement
    module, category = missing[0]
    imports.add(("", "pytest"))
    if module != "builtins":
        imports.add((module, category.split(".")[0]))
    return f"    with pytest.warns({category}):\n" + textwrap.indent(statement, "    ")


def _consuming(call: str, flavour: str, in_loop: bool, lines: list[str], imports: set[tuple[str, str]]) -> str:
    """The expression that runs a call to its end, as the project's tests run one: a coroutine awaited
    (or given to asyncio.run), a generator's items listed."""
    if flavour == GENERATOR:
        return f"list({call})"
    if flavour == COROUTINE:
        if in_loop:
            return f"await {call}"
        imports.add(("", "asyncio"))
        return f"asyncio.run({call})"
    if flavour == ASYNC_GENERATOR:
        if in_loop:
            return f"[item async for item in {call}]"
        imports.add(("", "asyncio"))
        lines += [
            "    async def collected():",
            "        return [item async for item in " + textwrap.indent(call, "        ").lstrip() + "]",
            "",
        ]
        return "asyncio.run(collected())"
    return call


def _match(message: str | None) -> str:
    """`, match=PATTERN` for an exception's message (its first line's start, as a literal), or ""
    when the message is empty or varies between runs (None)."""
    first = (message or "").strip().splitlines()[:1]
    if not first or not first[0].strip():
        return ""
    pattern = _SPECIAL.sub(r"\\\g<0>", first[0][:_MATCH])  # re.escape also escapes spaces: unreadable
    if '"' not in pattern and not pattern.endswith("\\"):
        return f', match=r"{pattern}"'
    return f", match={pattern!r}"


def _operator_form(name: str, receiver: str, arguments: list[str], witness: Witness) -> str | None:
    """A special method's call as a test writes it (`interval == other`, `1 in interval`,
    `len(interval)`), where the operator gives what the method gave on both sides: the method's own
    result, or one of the type its builtin passes on unchanged (a bool for `in`); else None."""
    form, needed = _FORMS.get(name, (None, None))
    unassigned = witness.original.get("raised") is not None or not {"result", "raised"} & set(witness.differs)
    if name in _STATEMENTS and unassigned and len(arguments) == _arity(_STATEMENTS[name]):
        form, arguments = _STATEMENTS[name], [_subscript(arguments[0]), *arguments[1:]]  # a statement: no `result =`
    elif form is None or len(arguments) != _arity(form):
        return None
    if "\n" in "".join(arguments):
        return None
    outcomes = (witness.original, witness.mutant)
    if any("result" not in outcome and "raised" not in outcome for outcome in outcomes):
        return None  # a value not written may be one that would send the operator elsewhere
    if any(outcome.get("result") == {"text": "NotImplemented"} for outcome in outcomes):
        return None  # the operator would try the other operand, then raise TypeError
    if needed and any("result" in outcome and outcome.get("type") != needed for outcome in outcomes):
        return None
    return form.format(receiver, *arguments)


def _arity(form: str) -> int:
    """The arguments a form takes besides its receiver (`{0}`)."""
    return form.count("{") - 1


def _subscript(argument: str) -> str:
    """`slice(2, -2, None)` as `2:-2`, as a subscript writes it; any other index as it is."""
    try:
        node = ast.parse(argument, mode="eval").body
    except SyntaxError:
        return argument
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "slice"):
        return argument
    if node.keywords or not 1 <= len(node.args) <= 3:
        return argument
    parts = ["" if isinstance(part, ast.Constant) and part.value is None else ast.unparse(part) for part in node.args]
    if len(parts) == 1:
        parts = ["", parts[0]]  # slice(stop)
    return ":".join(parts[:2] if len(parts) == 3 and not parts[2] else parts)


def _call_source(callee: str, arguments: list[str]) -> str:
    """The call, one argument a line when it would not fit on one beside `result = ` (then every
    argument is a name or a short literal)."""
    one_line = f"{callee}({', '.join(arguments)})"
    if len(f"    result = {one_line}") <= _WIDTH or "\n" in one_line:
        return one_line
    return f"{callee}(\n" + "".join(f"    {argument},\n" for argument in arguments) + ")"


def same_checks(one: WrittenTest, other: WrittenTest) -> bool:
    """Whether two tests build the same input, make the same call and assert the same (their names
    and docstrings aside)."""
    bodies = [ast.parse(test.source).body[0].body[1:] for test in (one, other)]  # type: ignore[attr-defined]
    return [ast.dump(node) for node in bodies[0]] == [ast.dump(node) for node in bodies[1]]


def snippet(test: WrittenTest) -> str:
    """One test as a reviewer pastes it: its imports, then the function."""
    return "\n".join(import_lines(set(test.imports))) + "\n\n\n" + test.source
