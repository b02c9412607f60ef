"""mutmut as a generator of generic operator mutants, run through mutcheck's own engine.

Everything that knows mutmut's internals lives here: mutmut has no stable programmatic API, so
its parser entry point and naming helpers are used in one place only. Mutants are numbered and
named exactly as `mutmut run` names them, so verdicts can be compared one to one.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, WhitespaceInclusivePositionProvider
from mutmut import __version__ as mutmut_version
from mutmut.configuration import reset_config
from mutmut.mutation.file_mutation import create_mutations, group_by_top_level_node
from mutmut.mutation.trampoline_templates import mangle_function_name
from mutmut.utils.format_utils import get_mutant_name

from mutcheck.catalog.catalog import Mutant
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.source_text import Span, edit_diff, line_offsets, read_source
from mutcheck.mutation.edit_code import FileCode
from mutcheck.mutation.mutate import AppliedMutant

GENERIC_FAMILY = "generic"

# mutmut's operators, named by the kind of node they rewrite.
_OPERATORS = {
    "Integer": "number",
    "Float": "number",
    "Imaginary": "number",
    "SimpleString": "string",
    "ConcatenatedString": "string",
    "FormattedString": "string",
    "Lambda": "lambda",
    "Call": "call arguments",
    "UnaryOperation": "unary operator removal",
    "Name": "name",
    "AugAssign": "augmented assignment",
    "Assign": "assignment",
    "AnnAssign": "assignment",
    "Match": "match",
    "IfExp": "conditional expression",
    "BooleanOperation": "and/or swap",
    "BinaryOperation": "binary operator",
    "Comparison": "comparison",
}


@dataclass(frozen=True)
class _Site:
    """A mutable function as mutmut sees it: its node, its qualified name, mutmut's mangled name."""

    node: cst.FunctionDef
    qualname: str
    mangled: str


def _sites(module: cst.Module) -> list[_Site]:
    """Top-level functions and methods of top-level classes, in mutmut's order."""
    sites = []
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef):
            name = statement.name.value
            sites.append(_Site(statement, name, mangle_function_name(name=name, class_name=None)))
        elif isinstance(statement, cst.ClassDef) and isinstance(statement.body, cst.IndentedBlock):
            for method in statement.body.body:
                if isinstance(method, cst.FunctionDef):
                    cls, name = statement.name.value, method.name.value
                    sites.append(_Site(method, f"{cls}.{name}", mangle_function_name(name=name, class_name=cls)))
    return sites


def operator_of(node: cst.CSTNode) -> str:
    name = type(node).__name__
    return _OPERATORS.get(name, "operator swap" if not isinstance(node, cst.BaseExpression) else name)


def _replacement(code: str, offsets: tuple[int, ...], span: Span, node_code: str) -> str:
    """The mutated node's code at the depth of the original's block (LibCST renders a node with
    relative indentation)."""
    line = code[offsets[span.start_line - 1] : offsets[span.start_line - 1] + span.start_column]
    indent = line[: len(line) - len(line.lstrip())]
    return node_code.replace("\n", "\n" + indent)


def _mutant(mutant_id: str, path: str, site: _Site, before: str, after: str, operator: str) -> Mutant:
    title = {"en": f"{operator}: {before} → {after}", "zh": f"{operator}（通用算子）：{before} → {after}"}
    why = {
        "en": f"A generic mutmut {mutmut_version} operator mutant of {site.qualname}; "
        "a survivor is a change no test notices.",
        "zh": f"mutmut {mutmut_version} 在 {site.qualname} 中生成的通用算子变异体；存活意味着没有测试察觉这一改动。",
    }
    return Mutant(
        id=mutant_id,
        family=GENERIC_FAMILY,
        file=path,
        scope=site.qualname,
        match=before,
        replace=after,
        killed_by=(),
        equivalent=None,
        origin=f"mutmut {mutmut_version}, operator: {operator}",
        title=title,
        why=why,
        hint=None,
        aliases=(),
        source="mutmut",
        generic=True,
        operator=operator,
    )


@contextmanager
def _project_config(root: Path) -> Iterator[None]:
    """mutmut reads its configuration (e.g. `do_not_mutate_patterns`) from the working directory:
    read the project's, as `mutmut run` in the project would."""
    previous = Path.cwd()
    os.chdir(root)
    reset_config()
    try:
        yield
    except FileNotFoundError as error:  # mutmut found no source layout and no [tool.mutmut]
        raise InputError([Problem("pyproject.toml", "", "tool.mutmut", f"mutmut: {error}")]) from error
    finally:
        os.chdir(previous)
        reset_config()


def generate(root: Path, files: list[str]) -> list[AppliedMutant]:
    """Every mutant mutmut would run for `files` (paths relative to `root`), applied one at a time."""
    with _project_config(root):
        return [mutant for path in files for mutant in _generate_file(root, path)]


def _generate_file(root: Path, path: str) -> list[AppliedMutant]:
    code, encoding = read_source(root / path)
    module, mutations, ignored_classes, ignored_functions = create_mutations(path, code)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(WhitespaceInclusivePositionProvider)
    offsets = line_offsets(code)
    file_code = FileCode(path, code, offsets, compile(code, path, "exec", dont_inherit=True))
    by_function = group_by_top_level_node(mutations)
    applied = []
    for site in _sites(module):
        if site.node.name.value in ignored_functions or site.qualname.split(".")[0] in ignored_classes:
            continue
        for number, mutation in enumerate(by_function.get(site.node, ()), start=1):
            position = positions[mutation.original_node]
            span = Span(position.start.line, position.start.column, position.end.line, position.end.column)
            replacement = _replacement(code, offsets, span, module.code_for_node(mutation.mutated_node))
            mutant = _mutant(
                get_mutant_name(Path(path), f"{site.mangled}__mutmut_{number}"),
                path,
                site,
                module.code_for_node(mutation.original_node).strip(),
                module.code_for_node(mutation.mutated_node).strip(),
                operator_of(mutation.original_node),
            )
            try:
                edit = file_code.compile_edit(span, replacement, site.qualname)
            except (SyntaxError, ValueError):  # mutmut's edit is no Python (a `case` left without a body)
                continue
            applied.append(
                AppliedMutant(
                    mutant=mutant,
                    original=code,
                    diff=edit_diff(path, code, offsets, span, replacement),
                    span=span,
                    replacement=replacement,
                    equivalent_by_compilation=edit.equivalent,
                    scope_qualname=site.qualname,
                    swap_target=edit.swap_target,
                    encoding=encoding,
                    marked=edit.marked,
                )
            )
    return applied
