"""The LibCST mutator on small sources: node kinds, scopes, spans, diffs, no-ops, compile equivalence."""

from pathlib import Path

import pytest

from mutcheck.catalog import Mutant
from mutcheck.mutate import MutationError, Span, apply_mutant
from tests.mutcheck.engine_project import make_project


def mutant(**fields) -> Mutant:
    base = dict(
        id="T1",
        family="boundary",
        file="src/tiny.py",
        scope="clamp",
        match="value < low",
        replace="value <= low",
        killed_by=("tests/test_tiny.py::test_clamp_low",),
        equivalent=None,
        origin="test",
        title={"en": "t", "zh": "标"},
        why={"en": "w", "zh": "因"},
        hint=None,
        aliases=(),
        source="mutants/catalog.toml",
    )
    base.update(fields)
    return Mutant(**base)


@pytest.fixture
def project(tmp_path) -> Path:
    return make_project(tmp_path)


def test_expression_edit_with_span_and_diff(project):
    applied = apply_mutant(mutant(), project)
    assert "    if value <= low:\n" in applied.mutated
    assert applied.span == Span(5, 7, 5, 18)
    assert "-    if value < low:\n+    if value <= low:\n" in applied.diff
    assert applied.diff.startswith("--- a/src/tiny.py\n+++ b/src/tiny.py\n")
    assert not applied.equivalent_by_compilation


def test_match_ignores_layout(project):
    applied = apply_mutant(mutant(match="value<low"), project)
    assert "value <= low" in applied.mutated


def test_statement_deletion(project):
    applied = apply_mutant(mutant(match="if value > high:\n    return high\n", replace=None), project)
    assert "value > high" not in applied.mutated
    assert applied.span.start_line == 7 and applied.span.end_line == 8


def test_statement_replacement_with_several_statements(project):
    applied = apply_mutant(mutant(match="return value", replace="value = value + 0\nreturn value"), project)
    assert "    value = value + 0\n    return value\n" in applied.mutated


def test_deleting_the_only_statement_leaves_pass(project):
    applied = apply_mutant(
        mutant(scope="Counter.add.checked", match="return step if step > 0 else 0", replace=None), project
    )
    assert "        def checked(step):\n            pass\n" in applied.mutated


def test_method_and_nested_function_scopes(project):
    method = apply_mutant(mutant(scope="Counter.add", match="self.count += checked(amount)", replace="pass"), project)
    assert "self.count += checked(amount)" not in method.mutated
    nested = apply_mutant(mutant(scope="Counter.add.checked", match="step > 0", replace="step >= 0"), project)
    assert "step >= 0" in nested.mutated


def test_match_outside_the_scope_is_not_found(project):
    with pytest.raises(MutationError) as raised:
        apply_mutant(mutant(scope="Counter.add", match="value < low"), project)
    assert str(raised.value).startswith("mutants/catalog.toml: T1: match: not found in Counter.add; candidates:")


def test_statement_match_reports_statement_candidates(project):
    with pytest.raises(MutationError) as raised:
        apply_mutant(mutant(match="return nothing", replace="pass"), project)
    assert "candidates:" in str(raised.value) and "'return value'" in str(raised.value)


def test_statement_replacement_that_does_not_parse(project):
    with pytest.raises(MutationError) as raised:
        apply_mutant(mutant(match="return value", replace="return (("), project)
    assert "T1: replace: does not parse as statements" in str(raised.value)


def test_match_that_does_not_parse(project):
    with pytest.raises(MutationError) as raised:
        apply_mutant(mutant(match="if value <", replace="pass"), project)
    assert "T1: match: does not parse as statements" in str(raised.value)


def test_a_semantic_change_is_not_compile_equivalent(project):
    assert not apply_mutant(mutant(match="value < low", replace="not value >= low"), project).equivalent_by_compilation


def test_constant_folding_makes_a_compile_equivalent_mutant(tmp_path):
    project = make_project(tmp_path)
    (project / "src/tiny.py").write_text("def f():\n    return 1 + 1\n", encoding="utf-8")
    applied = apply_mutant(mutant(scope="f", match="1 + 1", replace="2"), project)
    assert applied.equivalent_by_compilation


def test_file_that_does_not_parse(tmp_path):
    project = make_project(tmp_path)
    (project / "src/tiny.py").write_text("def f(:\n", encoding="utf-8")
    with pytest.raises(MutationError) as raised:
        apply_mutant(mutant(scope="f"), project)
    assert "T1: file: does not parse" in str(raised.value)
