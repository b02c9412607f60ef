"""The dangling-unsigned-trailing-thought guard: drop-site scenarios D1–D5 and direct helper tests."""

import pytest

from consolidation.dangling import drop_dangling_unsigned_trailing_thought, is_dangling_unsigned_thought
from consolidation.turn import InvalidStreamError, InvalidStreamKind
from tests.consolidation.builders import FC, E, S, T, X, model_parts, run_attempt


def test_d1_truncated_second_episode_is_dropped_from_history_and_record():
    """D1: T"ep1", S"s1", FC1, T"ep2 partial"; MAX_TOKENS → [{ep1,s1}, FC1] on both surfaces."""
    fc1 = FC("one")
    session = run_attempt([T("ep1"), S("s1"), fc1, T("ep2 partial")], finish="MAX_TOKENS")
    assert model_parts(session) == [E("ep1", "s1"), fc1]
    assert session.records == [[E("ep1", "s1"), {"functionCall": fc1["functionCall"]}]]


def test_d2_unsigned_thought_before_a_call_is_a_complete_turn():
    """D2: T"think" unsigned, FC1 → kept as is (DeepSeek's complete turn)."""
    fc1 = FC("one")
    assert model_parts(run_attempt([T("think"), fc1])) == [E("think"), fc1]


def test_d3_limitation_l3_trailing_unsigned_thought_after_call_is_lost():
    """D3 / L3 tripwire: T"think", FC1, T"more" → "more" is dropped, from the record too."""
    fc1 = FC("one")
    session = run_attempt([T("think"), fc1, T("more")])
    assert model_parts(session) == [E("think"), fc1]
    assert session.records[-1] == [E("think"), {"functionCall": fc1["functionCall"]}]


def test_d4_signed_trailing_episode_is_kept():
    """D4: X"text", FC1, T"done" + S"s" → kept."""
    fc1 = FC("one")
    assert model_parts(run_attempt([X("text"), fc1, T("done"), S("s")])) == [X("text"), fc1, E("done", "s")]


def test_d5_thought_only_turn_without_a_call_is_kept():
    """D5: T"just thinking", STOP, no call → kept; a thought-only turn is valid."""
    session = run_attempt([T("just thinking")])
    assert model_parts(session) == [E("just thinking")]


def test_d5_unsigned_thought_only_turn_is_not_an_empty_response():
    """D5 shape with the site-1 gate open would empty the turn; it must not raise."""
    session = run_attempt([T("just thinking")])
    assert session.records == [[E("just thinking")]]


def test_empty_turn_raises_no_response_text():
    with pytest.raises(InvalidStreamError) as raised:
        run_attempt([T("   ")])
    assert raised.value.kind is InvalidStreamKind.NO_RESPONSE_TEXT


def test_helper_drops_a_trailing_dangling_thought():
    parts = [FC("f"), T("partial")]
    drop_dangling_unsigned_trailing_thought(parts, True)
    assert parts == [FC("f")]


def test_helper_does_nothing_when_the_gate_is_closed():
    parts = [FC("f"), T("partial")]
    drop_dangling_unsigned_trailing_thought(parts, False)
    assert parts == [FC("f"), T("partial")]


def test_helper_keeps_a_signed_trailing_thought():
    parts = [FC("f"), T("done", "s")]
    drop_dangling_unsigned_trailing_thought(parts, True)
    assert parts == [FC("f"), T("done", "s")]


def test_helper_keeps_a_textless_unsigned_trailing_thought():
    """Kills G16 directly: [FC, {text:'', thought:true}] must stay as is."""
    parts = [FC("f"), {"text": "", "thought": True}]
    drop_dangling_unsigned_trailing_thought(parts, True)
    assert parts == [FC("f"), {"text": "", "thought": True}]


def test_helper_pops_only_once():
    """Kills G17 directly: two trailing unsigned thoughts lose only the last one."""
    parts = [FC("f"), T("one"), T("two")]
    drop_dangling_unsigned_trailing_thought(parts, True)
    assert parts == [FC("f"), T("one")]


def test_helper_looks_only_at_the_tail():
    """Kills G14 directly: an unsigned thought before the last part is never touched."""
    parts = [T("think"), FC("f")]
    drop_dangling_unsigned_trailing_thought(parts, True)
    assert parts == [T("think"), FC("f")]


def test_helper_on_an_empty_list_is_a_no_op():
    parts: list = []
    drop_dangling_unsigned_trailing_thought(parts, True)
    assert parts == []


@pytest.mark.parametrize(
    ("part", "dangling"),
    [
        (None, False),
        (T("x"), True),
        (T("x", ""), True),
        (T("x", "s"), False),
        (T(""), False),
        (X("x"), False),
        (S("s"), False),
    ],
)
def test_dangling_predicate(part, dangling):
    assert is_dangling_unsigned_thought(part) is dangling
