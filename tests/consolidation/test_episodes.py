"""Episode consolidation: spec §3.2 examples E1–E14 and the §3.3 limitations as tripwires."""

import pytest

from consolidation.episodes import EpisodeTracker, consolidate_parts
from consolidation.parts import js_truthy
from tests.consolidation.builders import FC, E, S, T, X


def test_e1_interleaved_episodes_keep_their_place():
    """E1: T"A", S"sA", FC1, T"B", S"sB", FC2 → {A,sA}, FC1, {B,sB}, FC2."""
    fc1, fc2 = FC("one"), FC("two")
    assert consolidate_parts([T("A"), S("sA"), fc1, T("B"), S("sB"), fc2]) == [E("A", "sA"), fc1, E("B", "sB"), fc2]


def test_e2_back_to_back_episodes_split():
    """E2: T"A", S"sA", T"B", S"sB", X"final" → {A,sA}, {B,sB}, {final}."""
    assert consolidate_parts([T("A"), S("sA"), T("B"), S("sB"), X("final")]) == [
        E("A", "sA"),
        E("B", "sB"),
        X("final"),
    ]


def test_e3_split_signature_fragments_concatenate():
    """E3: T"A", S"f1", S"f2" → {A, "f1f2"}: neither first-wins nor last-wins."""
    assert consolidate_parts([T("A"), S("f1"), S("f2")]) == [E("A", "f1f2")]


def test_e4_limitation_l1_unsigned_back_to_back_thoughts_merge():
    """E4 / L1 tripwire: T"A", T"B" unsigned → one unsigned episode {"AB"}."""
    assert consolidate_parts([T("A"), T("B")]) == [E("AB")]


def test_e4_streamed_thought_chunks_join_into_one_episode():
    """E4 shape as streaming produces it: one thought over three deltas, then its signature."""
    assert consolidate_parts([T("Let "), T("me "), T("think"), S("s")]) == [E("Let me think", "s")]


def test_e5_limitation_l2_textless_signed_thoughts_concatenate_signatures():
    """E5 / L2 tripwire: S"A", S"B" → {"", "AB"} (reachable on Responses with summaries off)."""
    assert consolidate_parts([S("A"), S("B")]) == [E("", "AB")]


def test_e6_signature_before_text_concatenates():
    """E6 (proxy bug): S"x", T"A", S"y" → {A, "xy"}; the length guard stops the first split."""
    assert consolidate_parts([S("x"), T("A"), S("y")]) == [E("A", "xy")]


def test_e7_signature_only_episode_mid_turn_is_kept():
    """E7: T"vis", S"sig1", FC1, S"sig2", FC2 → {vis,sig1}, FC1, {"",sig2}, FC2."""
    fc1, fc2 = FC("one"), FC("two")
    assert consolidate_parts([T("vis"), S("sig1"), fc1, S("sig2"), fc2]) == [
        E("vis", "sig1"),
        fc1,
        E("", "sig2"),
        fc2,
    ]


def test_e8_text_before_thinking_stays_first():
    """E8: X"Let me", T"plan", S"s", FC → {Let me}, {plan,s}, FC."""
    fc = FC("f")
    out = consolidate_parts([X("Let me"), T("plan"), S("s"), fc])
    assert out == [X("Let me"), E("plan", "s"), fc]
    assert out.index(E("plan", "s")) < out.index(fc)


def test_e9_text_merges_only_when_adjacent_after_consolidation():
    """E9: X"a", X"b", T"x", S"s", X"c" → {"ab"}, {x,s}, {"c"}."""
    assert consolidate_parts([X("a"), X("b"), T("x"), S("s"), X("c")]) == [X("ab"), E("x", "s"), X("c")]


def test_e9_merge_copies_instead_of_mutating_the_input_part():
    first = X("a")
    consolidate_parts([first, X("b")])
    assert first == X("a")


@pytest.mark.parametrize(("trim", "expected"), [(True, "A"), (False, "  A  ")])
def test_e10_whitespace_is_trimmed_only_when_trimming(trim, expected):
    """E10: T"  A  " → {"A"} when trimming (PR head), {"  A  "} when raw (later main)."""
    assert consolidate_parts([T("  A  ")], trim_episode_text=trim) == [E(expected)]


@pytest.mark.parametrize("trim", [True, False])
def test_e11_whitespace_only_unsigned_episode_is_discarded(trim):
    """E11: T"   " → nothing emitted, in both text modes."""
    assert consolidate_parts([T("   ")], trim_episode_text=trim) == []


def test_e12_whitespace_text_then_signed_splits_on_raw_length():
    """E12: T"  ", S"s1", T"B", S"s2" → {"",s1}, {B,s2}: the raw length (2) triggers the split."""
    assert consolidate_parts([T("  "), S("s1"), T("B"), S("s2")]) == [E("", "s1"), E("B", "s2")]


def test_e13_gemini_stray_signature_part_is_kept_and_not_merged():
    """E13: {text:"Hi", thoughtSignature:"g"}, X" there" → both kept, not merged."""
    signed_text = {"text": "Hi", "thoughtSignature": "g"}
    assert consolidate_parts([signed_text, X(" there")]) == [signed_text, X(" there")]


def test_e13_nothing_merges_into_a_signed_text_part():
    signed_text = {"text": "Hi", "thoughtSignature": "g"}
    assert consolidate_parts([X("Oh. "), signed_text]) == [X("Oh. "), signed_text]


def test_e14_empty_text_part_is_dropped():
    """E14: X"" → dropped."""
    assert consolidate_parts([X("")]) == []


def test_empty_text_after_text_is_not_merged_nor_kept():
    assert consolidate_parts([X("a"), X(""), FC("f")]) == [X("a"), FC("f")]


def test_e14_dropped_empty_text_still_closes_the_unsigned_episode():
    """Exception to §3.1: a dropped X"" between unsigned thoughts leaves two adjacent unsigned episodes."""
    assert consolidate_parts([T("a"), X(""), T("b")]) == [E("a"), E("b")]


def test_empty_non_text_parts_are_valid_content():
    media = {"inlineData": {"mimeType": "image/png", "data": "AA=="}}
    assert consolidate_parts([{}, media]) == [{}, media]


def test_single_part_with_text_and_signature_opens_then_signs_a_new_episode():
    """The split check uses the state before the part: a part with both opens, then signs."""
    assert consolidate_parts([T("A", "s1"), T("B", "s2")]) == [E("A", "s1"), E("B", "s2")]


def test_thought_part_keeps_no_other_keys():
    odd = {"text": "A", "thought": True, "thoughtSignature": "s", "inlineData": {"mimeType": "x"}}
    assert consolidate_parts([odd]) == [E("A", "s")]


def test_non_string_thought_text_counts_as_empty():
    assert consolidate_parts([{"thought": True, "text": None}, S("s")]) == [E("", "s")]


def test_empty_signature_means_unsigned():
    assert consolidate_parts([T("A", "")]) == [E("A")]
    assert "thoughtSignature" not in consolidate_parts([T("A", "")])[0]


def test_tracker_flush_without_open_episode_emits_nothing():
    tracker = EpisodeTracker()
    tracker.flush()
    assert tracker.out == []


@pytest.mark.parametrize(
    ("value", "truthy"),
    [
        (None, False),
        (False, False),
        ("", False),
        (0, False),
        (0.0, False),
        (float("nan"), False),
        ({}, True),
        ([], True),
        ("x", True),
        (1, True),
        (True, True),
    ],
)
def test_javascript_truthiness(value, truthy):
    assert js_truthy(value) is truthy
