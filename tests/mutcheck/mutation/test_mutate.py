"""The LibCST mutator on small sources: node kinds, scopes, spans, diffs, no-ops, compile equivalence."""

from pathlib import Path

import pytest

from mutcheck.catalog.catalog import Mutant
from mutcheck.core.source_text import Span
from mutcheck.mutation.mutate import MutationError, apply_mutant
from tests.mutcheck.engine_project import make_project
from tests.mutcheck.spans import at_span


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


@pytest.mark.parametrize(
    ("fields", "span", "replacement"),
    [
        ({}, Span(5, 7, 5, 18), "value <= low"),
        (
            {"match": "return value", "replace": "value = 0\nreturn value"},
            Span(9, 4, 9, 16),
            "value = 0\n    return value",
        ),
        ({"scope": "unused", "match": "return x + 1", "replace": None}, Span(37, 4, 37, 16), "pass"),
        # A deleted statement goes with its whole lines: the span ends past the last one's line break.
        ({"match": "if value > high:\n    return high", "replace": None}, Span(7, 0, 8, 20), ""),
    ],
    ids=["expression", "statements", "only-statement-deleted", "statements-deleted"],
)
def test_the_replacement_in_place_of_the_span_is_the_mutated_file(project, fields, span, replacement):
    applied = apply_mutant(mutant(**fields), project)
    assert (applied.span, applied.replacement) == (span, replacement)
    assert at_span(applied.original, vars(applied.span), applied.replacement) == applied.mutated


def test_a_form_feed_or_line_separator_inside_a_line_does_not_end_it(tmp_path):
    """Python and LibCST end lines at line breaks only (str.splitlines also splits at these)."""
    source = 'SEPARATED = "a\u2028b"\n\x0c\ndef f(x):\n    return x + 1\n'
    (tmp_path / "m.py").write_text(source, encoding="utf-8")
    applied = apply_mutant(mutant(file="m.py", scope="f", match="x + 1", replace="x - 1"), tmp_path)
    assert applied.mutated == source.replace("x + 1", "x - 1")
    assert applied.span == Span(4, 11, 4, 16)


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


# Real black output (black 26, default settings): expressions split inside brackets.
BLACK_SOURCE = '''\
"""Shapes black leaves across lines."""

LIMIT = 3
PORTS = {
    "http": 80,
    "https": 443,
    "ssh": 22,
}

if LIMIT > 2:
    MODE = "wide"


def route(first_operand_is_long, second_operand_is_long_too, third_argument_here):
    return dispatch(
        first_operand_is_long
        and second_operand_is_long_too_and_then_some
        or third_argument_here,
        "route",
    )


def guard(first_operand_is_long_enough_to_split, second_operand_is_long_enough_too):
    LIMIT = 3
    if (
        first_operand_is_long_enough_to_split
        and second_operand_is_long_enough_too > LIMIT
    ):
        return [
            first_operand_is_long_enough_to_split
            and second_operand_is_long_enough_too
            and LIMIT,
            LIMIT,
        ]
    return connect(
        host="example.invalid",
        timeout=second_operand_is_long_enough_too
        or first_operand_is_long_enough_to_split,
        retries=LIMIT,
    )


def commented(first_operand_is_long, second_operand_is_long, third_argument_here):
    return dispatch(
        first_operand_is_long  # checked first
        and second_operand_is_long,  # then this one
        third_argument_here,
    )
'''


@pytest.fixture
def black_project(tmp_path) -> Path:
    project = make_project(tmp_path)
    (project / "src/tiny.py").write_text(BLACK_SOURCE, encoding="utf-8")
    return project


def compiles(source: str) -> bool:
    compile(source, "tiny.py", "exec")
    return True


ROUTE_OPERAND = "first_operand_is_long and second_operand_is_long_too_and_then_some"
ROUTE_OPERAND_AS_IN_FILE = "first_operand_is_long\n        and second_operand_is_long_too_and_then_some"


@pytest.mark.parametrize("match", [ROUTE_OPERAND, ROUTE_OPERAND_AS_IN_FILE])
def test_an_operand_split_across_lines_matches_in_either_form(black_project, match):
    applied = apply_mutant(mutant(scope="route", match=match, replace="False"), black_project)
    assert applied.span == Span(16, 8, 17, 52)
    assert (
        "-        first_operand_is_long\n"
        "-        and second_operand_is_long_too_and_then_some\n"
        "+        False\n"
        "         or third_argument_here,\n"
    ) in applied.diff
    assert compiles(applied.mutated) and applied.swap_target == "route"


def test_candidates_are_shown_on_one_line_and_can_be_pasted_as_match(black_project):
    with pytest.raises(MutationError) as raised:
        apply_mutant(mutant(scope="route", match="first_operand_is_long and nothing", replace="False"), black_project)
    message = str(raised.value)
    assert f"'{ROUTE_OPERAND}'" in message
    assert "'dispatch('" not in message
    pasted = apply_mutant(mutant(scope="route", match=ROUTE_OPERAND, replace="False"), black_project)
    assert pasted.span.start_line == 16


def test_a_replacement_over_several_lines_keeps_the_file_compiling(black_project):
    replace = "first_operand_is_long\n        or second_operand_is_long_too_and_then_some"
    applied = apply_mutant(mutant(scope="route", match=ROUTE_OPERAND, replace=replace), black_project)
    assert (
        "        (first_operand_is_long\n"
        "        or second_operand_is_long_too_and_then_some)\n"
        "        or third_argument_here,\n"
    ) in applied.mutated
    assert compiles(applied.mutated)


@pytest.mark.parametrize(
    "match",
    [
        "first_operand_is_long_enough_to_split\n        and second_operand_is_long_enough_too > LIMIT",
        "first_operand_is_long_enough_to_split and second_operand_is_long_enough_too > LIMIT",
    ],
)
def test_a_multi_line_if_condition_matches_and_keeps_its_brackets(black_project, match):
    applied = apply_mutant(mutant(scope="guard", match=match, replace="True"), black_project)
    assert "    if (\n        True\n    ):\n" in applied.mutated
    assert applied.span == Span(26, 8, 27, 53)


def test_multi_line_elements_of_a_list_and_of_a_call_match(black_project):
    element = "first_operand_is_long_enough_to_split and second_operand_is_long_enough_too and LIMIT"
    applied = apply_mutant(mutant(scope="guard", match=element, replace="False"), black_project)
    assert "        return [\n            False,\n            LIMIT,\n        ]\n" in applied.mutated
    assert applied.span == Span(30, 12, 32, 21)
    keyword = "second_operand_is_long_enough_too or first_operand_is_long_enough_to_split"
    applied = apply_mutant(mutant(scope="guard", match=keyword, replace="None"), black_project)
    assert '        host="example.invalid",\n        timeout=None,\n        retries=LIMIT,\n' in applied.mutated
    assert applied.span == Span(37, 16, 38, 48)


def test_comments_inside_the_brackets_are_ignored_by_the_match_and_kept_compiling(black_project):
    applied = apply_mutant(
        mutant(scope="commented", match="first_operand_is_long and second_operand_is_long", replace="False"),
        black_project,
    )
    assert "        False,  # then this one\n        third_argument_here,\n" in applied.mutated
    commented_replace = "first_operand_is_long  # still first\n        or second_operand_is_long  # now either"
    applied = apply_mutant(
        mutant(scope="commented", match="first_operand_is_long and second_operand_is_long", replace=commented_replace),
        black_project,
    )
    assert compiles(applied.mutated) and "or second_operand_is_long  # now either\n" in applied.mutated


def test_a_statement_copied_from_the_file_matches_and_replaces_at_its_indentation(black_project):
    copied = (
        "if (\n"
        "        first_operand_is_long_enough_to_split\n"
        "        and second_operand_is_long_enough_too > LIMIT\n"
        "    ):\n"
        "        return [\n"
        "            first_operand_is_long_enough_to_split\n"
        "            and second_operand_is_long_enough_too\n"
        "            and LIMIT,\n"
        "            LIMIT,\n"
        "        ]"
    )
    replace = "if (\n        first_operand_is_long_enough_to_split\n    ):\n        return []"
    applied = apply_mutant(mutant(scope="guard", match=copied, replace=replace), black_project)
    assert "    LIMIT = 3\n    if (\n        first_operand_is_long_enough_to_split\n    ):\n        return []\n" in (
        applied.mutated
    )
    assert applied.span == Span(25, 4, 34, 9)


def test_module_statements_have_the_module_scope(black_project):
    applied = apply_mutant(mutant(scope="<module>", match="LIMIT = 3", replace="LIMIT = 4"), black_project)
    assert applied.mutated.startswith('"""Shapes black leaves across lines."""\n\nLIMIT = 4\n')
    assert applied.span == Span(3, 0, 3, 9)
    assert (applied.scope_qualname, applied.swap_target) == ("<module>", None)
    inside_if = apply_mutant(mutant(scope="<module>", match='MODE = "wide"', replace='MODE = "narrow"'), black_project)
    assert '    MODE = "narrow"\n' in inside_if.mutated
    ports = apply_mutant(
        mutant(scope="<module>", match='{"http": 80, "https": 443, "ssh": 22}', replace="{}"), black_project
    )
    assert "PORTS = {}\n\nif LIMIT > 2:\n" in ports.mutated and ports.span == Span(4, 8, 8, 1)


def test_the_module_scope_leaves_out_function_definitions(black_project):
    """`LIMIT = 3` and `3` occur in `guard` too, `first_operand_is_long` only in functions."""
    constant = apply_mutant(mutant(scope="<module>", match="3", replace="4"), black_project)
    assert constant.span == Span(3, 8, 3, 9)
    condition = apply_mutant(mutant(scope="<module>", match="LIMIT > 2", replace="LIMIT > 3"), black_project)
    assert "if LIMIT > 3:\n" in condition.mutated
    with pytest.raises(MutationError) as raised:
        apply_mutant(mutant(scope="<module>", match="first_operand_is_long", replace="True"), black_project)
    assert "not found in <module>; candidates:" in str(raised.value)


@pytest.mark.parametrize(("field", "text"), [("match", "value) < (low"), ("replace", "value) <= (low")])
def test_text_whose_brackets_close_early_is_no_expression(project, field, text):
    """Parsed inside brackets (for black's line breaks), `a) or (b` would read as `a or b`."""
    with pytest.raises(MutationError) as raised:
        apply_mutant(mutant(**{field: text}), project)
    assert raised.value.problem.field == field, raised.value.problem
    assert "does not parse" in raised.value.problem.message
