"""Which field a reasoning text is taken from, and that encrypted data never becomes text (spec §3)."""

import pytest

from bridge import OPAQUE, RAW, SUMMARY, Reasoning, extract_reasoning

DETAILS = [
    {"type": "reasoning.text", "text": "first "},
    {"type": "reasoning.encrypted", "data": "ENC1"},
    {"type": "reasoning.summary", "summary": "then"},
    {"type": "reasoning.encrypted", "data": "ENC2"},
]


def test_reasoning_content_comes_before_reasoning():
    assert extract_reasoning({"reasoning_content": "raw", "reasoning": "other"}).text == "raw"


def test_a_reasoning_string_comes_before_the_details():
    assert extract_reasoning({"reasoning": "plain", "reasoning_details": DETAILS}).text == "plain"


def test_an_empty_field_gives_way_to_the_next():
    fields = {"reasoning_content": "", "reasoning": "", "reasoning_details": DETAILS}
    assert extract_reasoning(fields) == Reasoning("first then", "ENC1ENC2")


def test_a_field_that_is_not_text_gives_way_to_the_next():
    assert (
        extract_reasoning({"reasoning_content": None, "reasoning": 7, "reasoning_details": DETAILS}).text
        == "first then"
    )
    assert extract_reasoning({"reasoning_details": {"type": "reasoning.text", "text": "x"}}) == Reasoning()


def test_a_reasoning_objects_summary_string():
    assert extract_reasoning({"reasoning": {"summary": "short"}, "reasoning_details": DETAILS}).text == "short"


def test_a_reasoning_objects_summary_parts_are_joined():
    fields = {"reasoning": {"summary": [{"text": "one, "}, {"text": "two"}]}}
    assert extract_reasoning(fields).text == "one, two"


def test_a_reasoning_object_without_summary_gives_way_to_the_details():
    assert extract_reasoning({"reasoning": {"effort": "high"}, "reasoning_details": DETAILS}).text == "first then"


def test_details_join_text_and_summary_in_order_and_keep_encrypted_data_apart():
    reasoning = extract_reasoning({"reasoning_details": DETAILS})
    assert reasoning == Reasoning("first then", "ENC1ENC2")
    assert "ENC" not in reasoning.text


def test_encrypted_data_is_collected_whichever_field_gave_the_text():
    assert extract_reasoning({"reasoning": "plain", "reasoning_details": DETAILS}).encrypted == "ENC1ENC2"


def test_details_of_unknown_kinds_give_nothing():
    assert (
        extract_reasoning({"reasoning_details": [{"type": "reasoning.other", "text": "x", "data": "y"}]}) == Reasoning()
    )


def test_nothing_is_no_reasoning():
    assert not extract_reasoning({"content": "Done."})
    assert not Reasoning()
    assert Reasoning(encrypted="E")
    assert Reasoning(text="t")


@pytest.mark.parametrize(
    ("semantics", "kept"), [(OPAQUE, Reasoning("t", "E")), (RAW, Reasoning("t")), (SUMMARY, Reasoning("t"))]
)
def test_only_opaque_semantics_keep_encrypted_data(semantics, kept):
    assert Reasoning("t", "E").kept_under(semantics) == kept
