"""XML tool-call recovery (spec §5.1): examples X1–X6, the seed's R3-1/R6-1 shapes, and the parser."""

import pytest

from consolidation.tool_xml import leaks_protocol_tags, looks_like_tool_call_xml, parse_tool_call_xml
from consolidation.turn import InvalidStreamError, InvalidStreamKind
from tests.consolidation.builders import INVOKE_READ, E, S, T, X, model_parts, read_call, run_attempt


def _index(parts, predicate):
    return next(i for i, part in enumerate(parts) if predicate(part))


def test_x1_short_text_prefix_is_retained():
    """X1: X"Sure.\\n<invoke…>" → {Sure.}, FC."""
    session = run_attempt([X("Sure.\n" + INVOKE_READ)])
    assert model_parts(session) == [X("Sure."), read_call()]


def test_x2_signed_episode_survives_recovery():
    """X2: {planning, thought, sig "ss"}, X"<invoke…>" → {planning, ss}, FC (kills the M3 mutant)."""
    session = run_attempt([T("planning", "ss"), X(INVOKE_READ)])
    assert model_parts(session) == [E("planning", "ss"), read_call()]
    assert session.records[-1] == [E("planning", "ss"), read_call()]


def test_x3_stray_signature_text_part_is_consumed():
    """X3: {text:"Sure.\\n<invoke…>", thoughtSignature:"g"} → {Sure.}, FC: no raw XML leaks (M6)."""
    session = run_attempt([{"text": "Sure.\n" + INVOKE_READ, "thoughtSignature": "g"}])
    assert model_parts(session) == [X("Sure."), read_call()]
    assert not any("<invoke" in (part.get("text") or "") for part in model_parts(session))


def test_x4_complete_turn_keeps_its_unsigned_reasoning():
    """X4 (R6-1): T"REASONING" unsigned, X"<invoke…>", STOP → {REASONING}, FC on both surfaces."""
    session = run_attempt([T("REASONING"), X(INVOKE_READ)])
    assert model_parts(session) == [E("REASONING"), read_call()]
    assert session.records[-1] == [E("REASONING"), read_call()]


def test_x5_truncated_dangling_episode_is_dropped_and_text_kept():
    """X5: X"Sure.\\n<invoke…>", T"partial" unsigned, MAX_TOKENS → {Sure.}, FC."""
    session = run_attempt([X("Sure.\n" + INVOKE_READ), T("partial")], finish="MAX_TOKENS")
    parts = model_parts(session)
    assert parts == [X("Sure."), read_call()]
    assert any(part.get("text") == "Sure." for part in parts)
    assert session.records[-1] == [X("Sure."), read_call()]


def test_x6_signed_trailing_episode_stays_before_the_recovered_call():
    """X6: X"Sure.\\n<invoke…>", T"done" + S"s" → {Sure.}, {done,s}, FC."""
    parts = model_parts(run_attempt([X("Sure.\n" + INVOKE_READ), T("done"), S("s")]))
    assert parts == [X("Sure."), E("done", "s"), read_call()]
    assert _index(parts, lambda p: p.get("thought")) < _index(parts, lambda p: "functionCall" in p)


def test_unsigned_episode_before_stray_signature_xml_is_kept_at_pr_head():
    """Seed 000 R3-1 shape, after R6-1: the episode was not trailing before removal, so it stays."""
    stray = {"text": "Sure.\n" + INVOKE_READ, "thoughtSignature": "g"}
    parts = model_parts(run_attempt([T("thinking"), stray], finish="MAX_TOKENS"))
    assert parts == [E("thinking"), X("Sure."), read_call()]


def test_signed_episode_between_text_parts_keeps_text_in_front():
    parts = model_parts(run_attempt([X("Let me look."), T("plan", "s"), X(INVOKE_READ)]))
    assert parts == [X("Let me look."), E("plan", "s"), read_call()]


def test_recovery_needs_a_finish_reason_so_the_xml_is_a_leak():
    with pytest.raises(InvalidStreamError) as raised:
        run_attempt([X(INVOKE_READ)], finish=None)
    assert raised.value.kind is InvalidStreamKind.PROTOCOL_TAG_LEAK


def test_unrecoverable_xml_is_a_protocol_tag_leak():
    with pytest.raises(InvalidStreamError) as raised:
        run_attempt([X('Sure. <invoke name="x"><parameter name="a">1</invoke>')])
    assert raised.value.kind is InvalidStreamKind.PROTOCOL_TAG_LEAK


def test_structured_call_suppresses_recovery():
    from tests.consolidation.builders import FC

    fc = FC("real")
    parts = model_parts(run_attempt([X("Sure.\n" + INVOKE_READ), fc]))
    assert parts == [X("Sure.\n" + INVOKE_READ), fc]


def test_parser_reads_several_calls_and_json_values():
    text = (
        "Doing two things.\n<function_calls>\n"
        '<invoke name="a"><parameter name="n">3</parameter><parameter name="q">x < y</parameter></invoke>\n'
        '<invoke name="b"></invoke>\n</function_calls>'
    )
    parsed = parse_tool_call_xml(text)
    assert parsed.recovered
    assert parsed.remaining_text == "Doing two things."
    assert [part["functionCall"] for part in parsed.function_call_parts] == [
        {"id": "xml_call_1", "name": "a", "args": {"n": 3, "q": "x < y"}},
        {"id": "xml_call_2", "name": "b", "args": {}},
    ]


def test_parser_keeps_markup_inside_a_parameter_value():
    parsed = parse_tool_call_xml('<invoke name="a"><parameter name="p"><invoke name="b"></parameter></invoke>')
    assert [part["functionCall"]["args"] for part in parsed.function_call_parts] == [{"p": '<invoke name="b">'}]
    assert parsed.remaining_text == ""


@pytest.mark.parametrize(
    "text",
    [
        '<invoke name="a"><parameter name="n">3</invoke>',
        '<invoke name="a"><parameter name="n">3</parameter>',
        '<invoke name="a">junk</invoke>',
    ],
)
def test_parser_leaves_malformed_calls_in_the_text(text):
    parsed = parse_tool_call_xml(text)
    assert not parsed.recovered
    assert parsed.remaining_text == text
    assert leaks_protocol_tags(parsed.remaining_text)


def test_detector_and_leak_check():
    assert looks_like_tool_call_xml(INVOKE_READ)
    assert not looks_like_tool_call_xml("no calls here")
    assert not leaks_protocol_tags("a <b>bold</b> claim")
