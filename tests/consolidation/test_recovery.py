"""Recovery coalescing (spec §6): K1–K4, the multi-pair case, and the overlap suffix."""

import pytest

from consolidation.recovery import (
    append_recovery_continuation_parts,
    coalesce_recovery_pairs,
    get_recovery_continuation_suffix,
    is_significant_overlap,
    merge_delivered_prefix,
)
from consolidation.turn import ChatSession, process_stream_response
from tests.consolidation.builders import FC, E, T, X, attempt

RECOVERY = {"role": "user", "parts": [X("Please continue.")]}


def _history(*model_turns):
    history = [{"role": "user", "parts": [X("go")]}]
    for index, parts in enumerate(model_turns):
        if index:
            history.append(RECOVERY)
        history.append({"role": "model", "parts": parts})
    return history


def _coalesced(*model_turns, pairs=1):
    history = _history(*model_turns)
    coalesce_recovery_pairs(history, pairs)
    return history


def test_k1_continuation_episode_is_hoisted_before_the_merged_text():
    """K1: X"a" + [{E2,s2}, X"b", FC] → {E2}, {"ab"}, FC (provenance hoist)."""
    fc = FC("f")
    history = _coalesced([X("a")], [T("E2", "s2"), X("b"), fc])
    parts = history[-1]["parts"]
    assert parts == [E("E2", "s2"), X("ab"), fc]
    assert parts.index(E("E2", "s2")) < parts.index(X("ab"))


def test_k1_unsigned_continuation_thought_is_hoisted_too():
    """Seed 000's provenance test shape: an unsigned continuation thought, no call."""
    history = _coalesced([X("a")], [T("E2"), X("b")])
    assert history[-1]["parts"] == [E("E2"), X("ab")]


def test_k2_signed_trailing_episode_survives_and_stays_before_the_call():
    """K2 (R4-1): [X"a", {done,s}] + [X"b", FC] → {"ab"}, {done,s}, FC."""
    fc = FC("f")
    parts = _coalesced([X("a"), E("done", "s")], [X("b"), fc])[-1]["parts"]
    assert parts == [X("ab"), E("done", "s"), fc]
    assert parts.index(E("done", "s")) < parts.index(fc)


def test_k3_unsigned_trailing_episode_is_kept_when_the_continuation_calls_no_tool():
    """K3: [X"a", T"partial"] + [X"b"] → {"ab"}, {partial}: the site-3 gate is closed."""
    parts = _coalesced([X("a"), T("partial")], [X("b")])[-1]["parts"]
    assert parts == [X("ab"), E("partial")]
    assert not any("functionCall" in part for part in parts)


def test_k4_unsigned_trailing_episode_is_dropped_when_the_continuation_calls_a_tool():
    """K4: [X"a", T"partial"] + [X"b", FC] → {"ab"}, FC."""
    fc = FC("f")
    assert _coalesced([X("a"), T("partial")], [X("b"), fc])[-1]["parts"] == [X("ab"), fc]


def test_multi_pair_case_folds_from_the_end():
    """Multi-pair (R7-8): A, B1, B2 → ["alpha one bravo two charlie three", E, FC]."""
    fc = FC("f")
    episode = E("episode bravo", "sigB1")
    history = _coalesced([X("alpha one ")], [X("bravo two "), episode], [X("charlie three"), fc], pairs=2)
    assert history == [
        {"role": "user", "parts": [X("go")]},
        {"role": "model", "parts": [X("alpha one bravo two charlie three"), episode, fc]},
    ]


def test_coalescing_stops_on_wrong_roles_or_short_history():
    history = [{"role": "model", "parts": [X("a")]}, {"role": "model", "parts": [X("b")]}]
    coalesce_recovery_pairs(history, 1)
    assert len(history) == 2
    history = _history([X("a")], [X("b")])
    history[-2] = {"role": "model", "parts": [X("not a recovery")]}
    coalesce_recovery_pairs(history, 1)
    assert len(history) == 4


def test_coalescing_with_partless_preceding_turn():
    history = [{"role": "model"}, RECOVERY, {"role": "model", "parts": [X("b")]}]
    coalesce_recovery_pairs(history, 1)
    assert history == [{"role": "model", "parts": [X("b")]}]


def test_coalescing_drop_touches_history_only_not_the_written_record():
    """Inherited drift (§3.3): the record written earlier still holds the dangling episode."""
    session = ChatSession(history=[{"role": "user", "parts": [X("go")]}])
    process_stream_response(session, attempt([X("a"), T("partial")], finish="MAX_TOKENS"))
    session.history.append(RECOVERY)
    fc = FC("f")
    process_stream_response(session, attempt([X("b"), fc]))
    coalesce_recovery_pairs(session.history, 1)
    assert session.history[-1]["parts"] == [X("ab"), fc]
    assert session.records[0] == [X("a"), E("partial")]


def test_append_without_text_on_either_side_concatenates():
    fc = FC("f")
    assert append_recovery_continuation_parts([E("t", "s")], [X("b"), fc]) == [E("t", "s"), X("b"), fc]
    assert append_recovery_continuation_parts([X("a")], [fc]) == [X("a"), fc]


def test_append_drops_a_fully_replayed_continuation_text():
    assert append_recovery_continuation_parts([X("hello world")], [X("o world"), FC("f")]) == [
        X("hello world"),
        FC("f"),
    ]


@pytest.mark.parametrize(
    ("overlap", "significant"),
    [
        ("abcdef", True),
        ("abcde", False),
        ("## a", True),
        ("#ab", False),
        ("日本", False),
        ("日本語です", True),
        ("a\nb", False),
        ("a\nbc", True),
    ],
)
def test_significance_rule(overlap, significant):
    assert is_significant_overlap(overlap) is significant


@pytest.mark.parametrize(
    ("previous", "continuation", "suffix"),
    [
        ("", "abc", "abc"),
        ("abc", "", ""),
        ("the quick brown", "brown", "brown"),
        ("the quick brown", "quick brown", ""),
        ("the quick brown", "quick brown fox", " fox"),
        ("ends with ab", "ab and more", "ab and more"),
        ("no overlap", "entirely new", "entirely new"),
        ("intro\n## Heading one\nbody", "## Heading one\nbody and more", " and more"),
        ("intro\n| a | b | c |\n", "| a | b | c |\n| 1 | 2 | 3 |", "| 1 | 2 | 3 |"),
        ("text\n- item one is long\n", "  - item one is long\n- item two", "- item two"),
        ("text\n- item one is long", "- item one is long\nnext", "\nnext"),
        ("short\n- ab", "- ab then", "- ab then"),
        ("intro\n- item one is long\nmore", "- item one is long\nnew stuff", "\nnew stuff"),
    ],
)
def test_continuation_suffix(previous, continuation, suffix):
    assert get_recovery_continuation_suffix(previous, continuation) == suffix


def test_merge_delivered_prefix():
    assert merge_delivered_prefix("part one ", "part one more") == "part one more"
