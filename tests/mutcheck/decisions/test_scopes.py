"""What a catalog scope names, decided on real LibCST trees: @overload stubs resolve to the
implementation, property accessors are named apart, a name several definitions share otherwise is
an error naming them, and `suggest` proposes inside an overloaded implementation."""

from dataclasses import replace
from pathlib import Path

import libcst as cst
import pytest

from mutcheck.catalog.catalog import Mutant
from mutcheck.mutation.mutate import MutationError, apply_mutant
from mutcheck.mutation.scopes import Scopes
from mutcheck.suggest.operators import propose
from tests.mutcheck.engine_runs import applied

OVERLOADED = """\
import typing
from typing import overload


@overload
def convert(value: int) -> int: ...
@typing.overload
def convert(value: str) -> str: ...
def convert(value):
    if isinstance(value, str):
        return value.upper()
    return value + 1


class Box:
    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, value):
        self._size = value if value >= 0 else 0

    @size.deleter
    def size(self):
        del self._size


if typing.TYPE_CHECKING:
    def pick(a):
        return a
else:
    def pick(a):
        return a or None
"""


def scopes() -> Scopes:
    return Scopes(cst.parse_module(OVERLOADED))


def test_an_overloaded_name_is_its_implementation():
    found = scopes()
    body = cst.Module([]).code_for_node(found.scopes["convert"].body)
    assert "isinstance(value, str)" in body
    assert found.qualnames["convert"] == "convert"


def test_a_propertys_accessors_are_named_apart_and_the_bare_name_is_its_getter():
    found = scopes()
    code = {name: cst.Module([]).code_for_node(found.scopes[name].body) for name in ("Box.size", "Box.size.setter")}
    assert "return self._size" in code["Box.size"]
    assert "value >= 0" in code["Box.size.setter"]
    assert {found.qualnames[name] for name in ("Box.size", "Box.size.setter", "Box.size.deleter")} == {"Box.size"}


def test_a_name_several_definitions_share_is_named_ambiguous_not_picked():
    found = scopes()
    assert "pick" not in found.scopes
    assert len(found.ambiguous["pick"]) == 2
    assert "pick" not in found.functions() and "convert" in found.functions()


def write(root: Path) -> Path:
    (root / "m.py").write_text(OVERLOADED, encoding="utf-8")
    return root


def entry(scope: str, match: str, edit: str) -> Mutant:
    return replace(applied("M1").mutant, file="m.py", scope=scope, match=match, replace=edit)


def test_a_catalog_entry_applies_inside_the_implementation_and_the_setter(tmp_path):
    root = write(tmp_path)
    overloaded = apply_mutant(entry("convert", "isinstance(value, str)", "False"), root)
    assert (overloaded.swap_target, overloaded.span.start_line) == ("convert", 10)
    setter = apply_mutant(entry("Box.size.setter", "value >= 0", "value > 0"), root)
    assert (setter.swap_target, setter.scope_qualname) == ("Box.size", "Box.size")


def test_an_entry_scoped_to_an_ambiguous_name_is_one_line_naming_the_definitions(tmp_path):
    with pytest.raises(MutationError) as error:
        apply_mutant(entry("pick", "a", "None"), write(tmp_path))
    assert str(error.value.problem) == (
        "c.toml: M1: scope: names several definitions in m.py (lines 30, 33); a scope must name one"
    )


def test_suggest_proposes_inside_the_implementation_of_an_overloaded_function():
    proposals = propose(OVERLOADED, "convert")
    assert proposals and all(proposal.scope == "convert" for proposal in proposals)
    assert any(proposal.match == "isinstance(value, str)" for proposal in proposals)
