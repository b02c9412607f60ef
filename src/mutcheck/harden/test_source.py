"""The pytest test a witness becomes, and the file `harden` keeps them in (its own, merged, never another's)."""

import ast
import keyword
import re
import textwrap
from dataclasses import dataclass
from typing import Any

from mutcheck.catalog.catalog import Mutant
from mutcheck.core.texts import say
from mutcheck.harden.child import CLASS, FUNCTION, METHOD
from mutcheck.harden.values import Tree, format_tree, import_lines
from mutcheck.harden.witness import Witness

HEADER = "# Tests written by `mutcheck harden`: each kills a catalogued mutant the suite let survive.\n"
_HEADER_REST = "# Each was kept only once it passed three times on the original code and failed with the mutant.\n"
_WIDTH = 88
_WHOLE = 1200  # characters of an expected value a reader takes in whole; past it, the part that differs


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
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _variable(name: str, taken: set[str]) -> str:
    chosen = name if name.isidentifier() and not keyword.iskeyword(name) else f"{name}_value"
    while chosen in taken:
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


def _assertion(expr: str, expected: Tree) -> str:
    head = f"    assert {expr} == "
    if expected.get("text") in ("None", "True", "False"):
        head = f"    assert {expr} is "
    return head + format_tree(expected, 4)


def write_test(mutant: Mutant, languages: tuple[str, ...], located: dict[str, Any], witness: Witness) -> WrittenTest:
    """The test of one witness: the recorded (or varied) input as source, the call, and assertions
    on what the original does where the mutant does otherwise."""
    imports: set[tuple[str, str]] = {tuple(pair) for pair in witness.call["imports"]}  # type: ignore[misc]
    imports |= {tuple(pair) for pair in witness.original.get("imports", [])}  # type: ignore[misc]
    imports |= {tuple(pair) for pair in witness.original.get("after_imports", [])}  # type: ignore[misc]
    module, kind, qualname = located["module"], located["kind"], located["qualname"]
    owner_path, name = qualname.rpartition(".")[0], qualname.rpartition(".")[2]
    imports.add((module, qualname.split(".")[0]))
    taken = {imported for _, imported in imports} | {"result", "pytest"}
    parameters = list(located["parameters"])
    if kind in (METHOD, CLASS):
        parameters = parameters[1:]
    lines, arguments, variables = [], [], {}
    if kind == METHOD:
        receiver = _variable(_snake(owner_path.rpartition(".")[2]), taken)
        variables["self"] = receiver
        lines.append(f"    {receiver} = {format_tree(witness.call['self'], 4)}")
        callee = f"{receiver}.{name}"
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
    call = _call_source(callee, arguments)
    raised = witness.original.get("raised")
    if raised is not None:
        exception = raised["qualname"]
        if raised["module"] != "builtins":
            imports.add((raised["module"], exception.split(".")[0]))
        imports.add(("", "pytest"))
        lines += [f"    with pytest.raises({exception}):", textwrap.indent(call, "        ")]
    elif "result" in witness.differs or "raised" in witness.differs:
        lines.append("    result = " + textwrap.indent(call, "    ").lstrip())
        for expr, expected in _focused("result", witness.original["result"], witness.mutant.get("result")):
            lines.append(_assertion(expr, expected))
    else:
        lines.append(textwrap.indent(call, "    "))
    for key in witness.differs:
        if key in variables:
            after = witness.mutant.get("after", {}).get(key)
            for expr, expected in _focused(variables[key], witness.original["after"][key], after):
                lines.append(_assertion(expr, expected))
    test = test_name(mutant.id)
    source = f"def {test}():\n    {_docstring(mutant, languages)}\n" + "\n".join(lines) + "\n"
    # a variation that dropped the only value of an imported type leaves its import unused
    code = "\n".join(lines)
    used = {pair for pair in imports if re.search(rf"\b{re.escape(pair[1].split('.')[0])}\b", code)}
    return WrittenTest(test, source, frozenset(used))


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


def ours(text: str) -> bool:
    """Whether a file's text is one `harden` wrote (it starts with its header)."""
    return text.startswith(HEADER)


def merged_file(previous: str | None, tests: list[WrittenTest]) -> str:
    """The tests file: `previous` (one `harden` wrote, or None) with `tests` added, a test of the
    same name replaced; the imports of both joined at the top."""
    imports: set[tuple[str, str]] = set()
    kept: dict[str, str] = {}
    if previous:
        tree = ast.parse(previous)
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                imports |= {(node.module, alias.name) for alias in node.names}
            elif isinstance(node, ast.Import):
                imports |= {("", alias.name) for alias in node.names}
            elif isinstance(node, ast.FunctionDef):
                kept[node.name] = (ast.get_source_segment(previous, node) or "") + "\n"
    for test in tests:
        imports |= test.imports
        kept[test.name] = test.source
    return HEADER + _HEADER_REST + "\n" + "\n".join(import_lines(imports)) + "\n\n\n" + "\n\n".join(kept.values())


def snippet(test: WrittenTest) -> str:
    """One test as a reviewer pastes it: its imports, then the function."""
    return "\n".join(import_lines(set(test.imports))) + "\n\n\n" + test.source
