"""Seed 000's A/B verification cells: S1–S7 through both arms, C1–C6 through the converter.

The legacy arm asserts the broken shapes the base code produced; the new arm the fixed ones.
"""

import pytest

from consolidation.converter import ConverterOptions, convert_history
from consolidation.legacy import legacy_consolidate
from consolidation.turn import ChatSession, process_stream_response
from tests.consolidation.builders import FC, FR, INVOKE_READ, E, S, T, X, attempt, model_parts, read_call, run_attempt

MANUAL = ConverterOptions(ensure_leading_assistant_thinking=True)


def _legacy(parts, has_tool_call=None):
    if has_tool_call is None:
        has_tool_call = any("functionCall" in part for part in parts)
    return legacy_consolidate(parts, has_tool_call)


def test_s1_interleaved_legacy_merges_hoists_and_loses_sig_b():
    """S1 base: [{"AB",sA}, FC1, FC2]: episodes merged, hoisted, sigB lost (history and JSONL)."""
    fc1, fc2 = FC("one"), FC("two")
    history, record = _legacy([T("A"), S("sA"), fc1, T("B"), S("sB"), fc2])
    assert history == [E("AB", "sA"), fc1, fc2]
    assert record == [E("AB", "sA"), {"functionCall": fc1["functionCall"]}, {"functionCall": fc2["functionCall"]}]


def test_s1_interleaved_new_keeps_both_signatures_in_place():
    """S1 head: [{A,sA}, FC1, {B,sB}, FC2] in history and JSONL."""
    fc1, fc2 = FC("one"), FC("two")
    session = run_attempt([T("A"), S("sA"), fc1, T("B"), S("sB"), fc2])
    assert model_parts(session) == [E("A", "sA"), fc1, E("B", "sB"), fc2]
    assert session.records[-1] == model_parts(session)


def test_s2_split_signature_legacy_truncates():
    """S2 base: only the first fragment is kept."""
    history, _ = _legacy([T("A"), S("sigFrag1"), S("sigFrag2")])
    assert history == [E("A", "sigFrag1")]


def test_s2_split_signature_new_concatenates():
    """S2 head: thoughtSignature "sigFrag1sigFrag2"."""
    assert model_parts(run_attempt([T("A"), S("sigFrag1"), S("sigFrag2")])) == [E("A", "sigFrag1sigFrag2")]


def test_s3_back_to_back_legacy_merges():
    """S3 base: [{"AB",sA}, {final}]."""
    history, _ = _legacy([T("A"), S("sA"), T("B"), S("sB"), X("final")])
    assert history == [E("AB", "sA"), X("final")]


def test_s3_back_to_back_new_splits():
    """S3 head: [{A,sA}, {B,sB}, {final}]."""
    assert model_parts(run_attempt([T("A"), S("sA"), T("B"), S("sB"), X("final")])) == [
        E("A", "sA"),
        E("B", "sB"),
        X("final"),
    ]


def test_s4_truncated_legacy_attaches_sig1_to_merged_text():
    """S4 base: [{"ep1ep2 partial", sig1}, FC1]: a block with the wrong signature."""
    fc1 = FC("one")
    history, _ = _legacy([T("ep1"), S("sig1"), fc1, T("ep2 partial")])
    assert history == [E("ep1ep2 partial", "sig1"), fc1]


def test_s4_truncated_new_drops_the_dangling_episode():
    """S4 head: [{ep1,sig1}, FC1]."""
    fc1 = FC("one")
    assert model_parts(run_attempt([T("ep1"), S("sig1"), fc1, T("ep2 partial")], finish="MAX_TOKENS")) == [
        E("ep1", "sig1"),
        fc1,
    ]


def test_s5_episode_survives_xml_recovery_in_both_arms():
    """S5: the episode lives outside the removal loop in base; visible-text keeps it out at head."""
    history, _ = _legacy([T("planning", "sig-survive"), X(INVOKE_READ)], has_tool_call=False)
    assert history[0] == E("planning", "sig-survive")
    assert model_parts(run_attempt([T("planning", "sig-survive"), X(INVOKE_READ)])) == [
        E("planning", "sig-survive"),
        read_call(),
    ]


def test_s6_stray_signature_leak_shape_is_closed():
    """S6: the raw XML is consumed; nothing of the stray-signature text part leaks."""
    parts = model_parts(run_attempt([{"text": "Sure.\n" + INVOKE_READ, "thoughtSignature": "g"}]))
    assert parts == [X("Sure."), read_call()]


def test_s7_media_legacy_record_drops_it():
    """S7 base: history carries inlineData, the record is [{text}] only."""
    media = {"inlineData": {"mimeType": "image/png", "data": "BASE64BLOB"}}
    history, record = _legacy([X("here is the image"), media])
    assert history == [X("here is the image"), media]
    assert record == [X("here is the image")]


def test_s7_media_new_record_keeps_it():
    """S7 head: the recorded JSONL carries inlineData verbatim."""
    media = {"inlineData": {"mimeType": "image/png", "data": "BASE64BLOB"}}
    assert run_attempt([X("here is the image"), media]).records == [[X("here is the image"), media]]


def test_legacy_unsigned_thoughts_merge_without_signature():
    assert _legacy([T("a"), T("b"), X("c")]) == ([E("ab"), X("c")], [E("ab"), X("c")])


def test_legacy_thought_without_text_loses_signatures():
    history, record = _legacy([S("a"), X("hi")])
    assert history == [X("hi")]
    assert record == [X("hi")]


def test_legacy_transport_prefix_goes_first_then_thought_is_hoisted():
    history, _ = legacy_consolidate([T("E"), S("s"), FC("f")], True, transport_prefix="part one ")
    assert history == [E("E", "s"), X("part one "), FC("f")]


def _tool_turn(*model_parts_):
    return [
        {"role": "user", "parts": [X("Hi")]},
        {"role": "model", "parts": list(model_parts_)},
        {"role": "user", "parts": [FR("t1")]},
    ]


def _types(history, options):
    return [block["type"] for block in convert_history(history, options)[1]["content"]]


def test_c1_manual_mode_repairs_text_leading_tool_turn():
    """C1: [text, thinking, tool_use] → [thinking, text, tool_use] with the option on."""
    history = _tool_turn(X("text"), T("E", "s"), FC("tool", "t1"))
    assert _types(history, MANUAL) == ["thinking", "text", "tool_use"]


def test_c2_adaptive_mode_passes_through():
    """C2: the same turn stays chronological with the option off."""
    history = _tool_turn(X("text"), T("E", "s"), FC("tool", "t1"))
    assert _types(history, ConverterOptions()) == ["text", "thinking", "tool_use"]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (ConverterOptions(), ["text", "thinking", "thinking", "tool_use"]),
        (MANUAL, ["thinking", "thinking", "text", "tool_use"]),
    ],
)
def test_c3_adjacent_assistant_messages_concatenate(options, expected):
    """C3 (C3a/C3b): concat, then (manual) the first run moves to the front."""
    history = [
        {"role": "user", "parts": [X("Hi")]},
        {"role": "model", "parts": [X("A"), T("X", "sx")]},
        {"role": "model", "parts": [T("Y", "sy"), FC("tool", "t1")]},
        {"role": "user", "parts": [FR("t1")]},
    ]
    assert _types(history, options) == expected


def test_c4_serialization_is_position_independent():
    """C4: the same turn serializes identically with or without a later turn."""
    history = _tool_turn(X("text"), FC("tool", "t1"), T("E", "s"))
    followed = [*history, {"role": "model", "parts": [X("ok")]}, {"role": "user", "parts": [X("more")]}]
    assert convert_history(history, MANUAL)[1] == convert_history(followed, MANUAL)[1]


def test_c5_prefill_pop_keeps_signed_empty_thinking():
    """C5: [thinking('', sigEmpty), tool_use] survives the popped whitespace prefill turn."""
    history = [*_tool_turn(T("", "sigEmpty"), FC("tool", "t1")), {"role": "model", "parts": [X("  ")]}]
    options = ConverterOptions(strip_trailing_assistant_prefill=True, ensure_leading_assistant_thinking=True)
    assert _types(history, options) == ["thinking", "tool_use"]


def test_c6_only_the_first_thinking_run_moves():
    """C6: [text, thinkF, tu1, thinkS, tu2] → [thinkF, text, tu1, thinkS, tu2]."""
    history = [
        {"role": "user", "parts": [X("Hi")]},
        {"role": "model", "parts": [X("text"), T("F", "sf"), FC("tool", "t1"), T("S", "ss"), FC("tool", "t2")]},
        {"role": "user", "parts": [FR("t1"), FR("t2")]},
    ]
    messages = convert_history(history, MANUAL)
    assert [block.get("thinking", block["type"]) for block in messages[1]["content"]] == [
        "F",
        "text",
        "tool_use",
        "S",
        "tool_use",
    ]


def test_recorded_session_round_trip_through_the_converter():
    """Both surfaces agree: what the attempt records converts to the same request as history."""
    session = ChatSession(history=[{"role": "user", "parts": [X("Hi")]}])
    process_stream_response(session, attempt([X("text"), T("E"), S("s"), FC("tool", "t1")]))
    session.history.append({"role": "user", "parts": [FR("t1")]})
    recorded = [session.history[0], {"role": "model", "parts": session.records[-1]}, session.history[2]]
    assert convert_history(session.history, MANUAL) == convert_history(recorded, MANUAL)
