"""The file `harden` keeps its tests in: written whole the first time; after that, only its own test
functions are replaced or added, and the imports they need added (with LibCST): everything a person
added there (classes, constants, decorators, async tests, aliases, comments) is kept as it is."""

import libcst as cst

from mutcheck.harden.values import import_lines
from mutcheck.harden.witness_source import WrittenTest

HEADER = "# Tests written by `mutcheck harden`: each kills a catalogued mutant the suite let survive.\n"
_HEADER_REST = "# Each was kept only once it passed three times on the original code and failed with the mutant.\n"


def ours(text: str) -> bool:
    """Whether a file's text is one `harden` wrote (it starts with its header)."""
    return text.startswith(HEADER)


def merged_file(previous: str | None, tests: list[WrittenTest]) -> str:
    """The tests file: `previous` (one `harden` wrote, or None) with `tests` added at its end, a
    top-level function of the same name replaced in place, and the imports they need that it lacks
    added after the imports at its top."""
    if not previous:
        imports = set().union(*(test.imports for test in tests)) if tests else set()
        body = "\n\n".join(test.source for test in tests)
        return HEADER + _HEADER_REST + "\n" + "\n".join(import_lines(imports)) + "\n\n\n" + body
    module = cst.parse_module(previous)
    body = list(module.body)
    where = {node.name.value: index for index, node in enumerate(body) if isinstance(node, cst.FunctionDef)}
    for test in tests:
        (function,) = cst.parse_module(test.source).body
        if test.name in where:
            old = body[where[test.name]]
            body[where[test.name]] = function.with_changes(leading_lines=old.leading_lines)
        else:
            where[test.name] = len(body)
            body.append(function.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()]))
    needed = set().union(*(test.imports for test in tests)) if tests else set()
    missing = sorted(pair for pair in needed if not _imported(body, pair))
    if missing:
        statements = [cst.parse_statement(line + "\n") for line in import_lines(set(missing))]
        top = next((index for index, node in enumerate(body) if not _is_import(node)), len(body))
        body[top:top] = statements  # at the end of the imports harden wrote at the top: a person's stay apart
    return module.with_changes(body=body).code


def _is_import(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.SimpleStatementLine) and any(
        isinstance(statement, (cst.Import, cst.ImportFrom)) for statement in node.body
    )


def _imported(body: list[cst.CSTNode], pair: tuple[str, str]) -> bool:
    """Whether a top-level import binds the name a test uses as it means it: `from module import
    name` (unaliased), or `import name` for a plain import."""
    module, name = pair
    for node in body:
        if not _is_import(node):
            continue
        for statement in node.body:  # type: ignore[attr-defined]
            if isinstance(statement, cst.Import) and not module:
                if any(alias.asname is None and _dotted(alias.name) == name for alias in statement.names):
                    return True
            elif isinstance(statement, cst.ImportFrom) and module and statement.module is not None:
                dots = "." * len(statement.relative)
                if dots + _dotted(statement.module) != module or isinstance(statement.names, cst.ImportStar):
                    continue
                if any(alias.asname is None and _dotted(alias.name) == name for alias in statement.names):
                    return True
    return False


def _dotted(node: cst.CSTNode) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""
