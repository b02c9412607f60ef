"""Anthropic converter (spec §7): V1–V6, the merge, prefill and position examples, every pass, the gate."""

import json

import pytest

from consolidation import message_passes as passes
from consolidation.converter import (
    ConverterOptions,
    build_request,
    build_thinking_config,
    convert_history,
    part_to_block,
    supports_adaptive_thinking,
    turns_to_messages,
)
from tests.consolidation.builders import FC, FR, T, X

MANUAL = ConverterOptions(ensure_leading_assistant_thinking=True)
TEXT = {"type": "text", "text": "A"}


def thinking(text="E", signature="sig"):
    return {"type": "thinking", "thinking": text, "signature": signature}


def tool_use(call_id):
    return {"type": "tool_use", "id": call_id, "name": "tool", "input": {}}


def tool_result(call_id):
    return {"type": "tool_result", "tool_use_id": call_id, "content": "{}"}


REDACTED = {"type": "redacted_thinking", "data": "opaque"}


def assistant(*blocks):
    return {"role": "assistant", "content": list(blocks)}


def user(*blocks):
    return {"role": "user", "content": list(blocks)}


def lead(blocks):
    return passes.ensure_leading_thinking_on_tool_use_assistant_messages([assistant(*blocks)])[0]["content"]


def types(message):
    return [block["type"] for block in message["content"]]


def test_v1_run_after_the_first_tool_use_still_moves():
    """V1 (R4-5): [text, tool_use t1, thinking E2, tool_use t2] → [E2, text, t1, t2]."""
    assert lead([TEXT, tool_use("t1"), thinking(), tool_use("t2")]) == [
        thinking(),
        TEXT,
        tool_use("t1"),
        tool_use("t2"),
    ]


def test_v1_pins_the_full_block_order_across_consecutive_model_turns():
    """V1 as seed 000 pins it: [{text}], [{FC t1}], [{E2, signed}, {FC t2}], user [results]."""
    history = [
        {"role": "user", "parts": [X("Hi")]},
        {"role": "model", "parts": [X("text")]},
        {"role": "model", "parts": [FC("tool", "t1")]},
        {"role": "model", "parts": [T("E2", "sE2"), FC("tool", "t2")]},
        {"role": "user", "parts": [FR("t1"), FR("t2")]},
    ]
    messages = convert_history(history, MANUAL)
    assert types(messages[1]) == ["thinking", "text", "tool_use", "tool_use"]


def test_v2_only_the_first_thinking_run_moves():
    """V2 (C6): [text, thinkF, tu1, thinkS, tu2] → [thinkF, text, tu1, thinkS, tu2]."""
    first, second = thinking("F"), thinking("S")
    assert lead([TEXT, first, tool_use("1"), second, tool_use("2")]) == [
        first,
        TEXT,
        tool_use("1"),
        second,
        tool_use("2"),
    ]


def test_v2_a_multi_block_run_moves_whole():
    """Kills G44: [text, th1, th2, tool_use] → [th1, th2, text, tool_use]."""
    first, second = thinking("1"), thinking("2")
    assert lead([TEXT, first, second, tool_use("t")]) == [first, second, TEXT, tool_use("t")]


def test_v3_tool_use_turn_without_thinking_is_unchanged():
    """V3: [text, tool_use] → unchanged (the no-thinking guard)."""
    assert lead([TEXT, tool_use("t")]) == [TEXT, tool_use("t")]


def test_v3_end_to_end_no_thinking_here():
    """V3 as seed 000 pins it through the converter: content stays [text, tool_use]."""
    history = [
        {"role": "user", "parts": [X("Hi")]},
        {"role": "model", "parts": [X("no thinking here"), FC("tool", "t1")]},
        {"role": "user", "parts": [FR("t1")]},
    ]
    assert types(convert_history(history, MANUAL)[1]) == ["text", "tool_use"]


def test_v4_trailing_thinking_run_moves_to_front():
    """V4: [text, tool_use, thinking] → [thinking, text, tool_use] (the end-of-array bound)."""
    assert lead([TEXT, tool_use("t"), thinking()]) == [thinking(), TEXT, tool_use("t")]


def test_v4_end_to_end_episode_in_a_later_model_turn():
    """V4 as seed 000 pins it: [text A, FC t1] then [{episode, sE}] then user [result t1]."""
    history = [
        {"role": "user", "parts": [X("Hi")]},
        {"role": "model", "parts": [X("text A"), FC("tool", "t1")]},
        {"role": "model", "parts": [T("episode", "sE")]},
        {"role": "user", "parts": [FR("t1")]},
    ]
    assert types(convert_history(history, MANUAL)[1]) == ["thinking", "text", "tool_use"]


def test_v5_redacted_thinking_counts_as_thinking():
    """V5 (R7-6): [text, redacted, tool_use] → [redacted, text, tool_use]."""
    assert lead([TEXT, REDACTED, tool_use("t1")]) == [REDACTED, TEXT, tool_use("t1")]


def test_v6_turn_without_tool_use_is_unchanged():
    """V6: [text, thinking] → unchanged (no tool_use)."""
    assert lead([TEXT, thinking()]) == [TEXT, thinking()]


def test_already_leading_and_empty_messages_are_unchanged():
    assert lead([thinking(), TEXT, tool_use("t")]) == [thinking(), TEXT, tool_use("t")]
    assert lead([]) == []


def test_every_tool_use_turn_is_normalized_not_only_the_latest():
    """M4: the pass applies to every tool_use turn."""
    messages = [
        assistant(TEXT, tool_use("t1"), thinking("one")),
        user(tool_result("t1")),
        assistant(TEXT, tool_use("t2"), thinking("two")),
    ]
    result = passes.ensure_leading_thinking_on_tool_use_assistant_messages(messages)
    assert [types(message) for message in result] == [
        ["thinking", "text", "tool_use"],
        ["tool_result"],
        ["thinking", "text", "tool_use"],
    ]


def test_position_independence_same_turn_serializes_to_the_same_bytes():
    """Position independence (C4): a tool_use turn converts alike with or without a later turn."""
    turn = {"role": "model", "parts": [X("text"), FC("tool", "t1"), T("episode", "sig")]}
    alone = [{"role": "user", "parts": [X("Hi")]}, turn, {"role": "user", "parts": [FR("t1")]}]
    followed = [*alone, {"role": "model", "parts": [X("done")]}, {"role": "user", "parts": [X("next")]}]
    first = json.dumps(convert_history(alone, MANUAL)[1], sort_keys=True)
    second = json.dumps(convert_history(followed, MANUAL)[1], sort_keys=True)
    assert first == second
    assert json.loads(first)["content"][0]["type"] == "thinking"


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (ConverterOptions(), ["text", "thinking", "thinking", "tool_use"]),
        (MANUAL, ["thinking", "thinking", "text", "tool_use"]),
    ],
)
def test_merge_example_keeps_chronological_order(options, expected):
    """Merge example (M5, C3a/C3b): [A, X] + [Y, tool_use]: adaptive → [A, X, Y, tu]."""
    history = [
        {"role": "user", "parts": [X("Hi")]},
        {"role": "model", "parts": [X("A"), T("X", "sx")]},
        {"role": "model", "parts": [T("Y", "sy"), FC("tool", "t1")]},
        {"role": "user", "parts": [FR("t1")]},
    ]
    merged = convert_history(history, options)[1]
    assert types(merged) == expected
    assert [block.get("thinking") for block in merged["content"] if block["type"] == "thinking"] == ["X", "Y"]


def test_merge_drops_a_repeated_tool_use_id():
    merged = passes.merge_consecutive_assistant_messages(
        [assistant(tool_use("t1")), assistant(tool_use("t1"), {"type": "tool_use", "name": "x", "input": {}})]
    )
    assert merged == [assistant(tool_use("t1"), {"type": "tool_use", "name": "x", "input": {}})]


def test_merge_leaves_string_content_alone():
    messages = [{"role": "assistant", "content": "hi"}, assistant(TEXT)]
    assert passes.merge_consecutive_assistant_messages(messages) == messages


def test_prefill_example_c5_keeps_signed_empty_thinking_on_the_tool_turn():
    """Prefill example (C5): the whitespace prefill turn is popped before empty thinking is dropped."""
    history = [
        {"role": "user", "parts": [X("Hi")]},
        {"role": "model", "parts": [T("", "sigEmpty"), FC("tool", "t1")]},
        {"role": "user", "parts": [FR("t1")]},
        {"role": "model", "parts": [X("   ")]},
    ]
    options = ConverterOptions(strip_trailing_assistant_prefill=True, ensure_leading_assistant_thinking=True)
    messages = convert_history(history, options)
    assert messages[1]["content"] == [thinking("", "sigEmpty"), tool_use("t1")]
    assert messages[-1]["role"] == "user"


def test_prefill_strip_appends_continue_after_real_assistant_content():
    result = passes.strip_trailing_assistant_prefill(
        [user(TEXT), assistant(TEXT), {"role": "assistant", "content": " "}]
    )
    assert result == [user(TEXT), assistant(TEXT), user({"type": "text", "text": "Continue."})]


def test_prefill_strip_pops_every_empty_trailing_assistant():
    result = passes.strip_trailing_assistant_prefill(
        [user(TEXT), assistant(), {"role": "assistant", "content": None}, assistant({"type": "text", "text": " "})]
    )
    assert result == [user(TEXT)]
    assert passes.strip_trailing_assistant_prefill([]) == []


def test_empty_text_thinking_is_dropped_outside_the_latest_assistant():
    messages = [
        assistant(thinking(""), TEXT),
        assistant(thinking("", "s")),
        user(TEXT),
        assistant(thinking(""), tool_use("t")),
    ]
    assert passes.drop_empty_text_thinking_blocks(messages) == [
        assistant(TEXT),
        user(TEXT),
        assistant(thinking(""), tool_use("t")),
    ]


def test_redacted_blocks_survive_the_empty_thinking_drop():
    messages = [assistant(REDACTED, TEXT), assistant(TEXT)]
    assert passes.drop_empty_text_thinking_blocks(messages) == messages


def test_unsigned_thinking_in_the_active_tool_chain_raises():
    messages = [user(TEXT), assistant(thinking("x", ""), tool_use("t1")), user(tool_result("t1"))]
    with pytest.raises(passes.UnsignedThinkingInActiveToolChain):
        passes.drop_unsigned_thinking_from_assistant_messages(messages)


def test_unsigned_thinking_outside_the_chain_is_removed():
    messages = [
        user(TEXT),
        assistant({"type": "thinking", "thinking": "x"}, TEXT),
        user(TEXT),
        assistant({"type": "thinking", "thinking": "y"}),
        user(TEXT),
        assistant(thinking("ok"), tool_use("t2")),
        user(tool_result("t2")),
    ]
    result = passes.drop_unsigned_thinking_from_assistant_messages(messages)
    assert result == [user(TEXT), assistant(TEXT), user(TEXT), user(TEXT), *messages[5:]]


def test_active_chain_walks_back_over_several_tool_turns():
    messages = [
        assistant(thinking("x", ""), tool_use("t0")),
        user(tool_result("t0")),
        assistant(thinking("ok"), tool_use("t1")),
        user(tool_result("t1")),
    ]
    with pytest.raises(passes.UnsignedThinkingInActiveToolChain):
        passes.drop_unsigned_thinking_from_assistant_messages(messages)


def test_chain_ends_at_a_user_run_without_tool_results():
    messages = [assistant(thinking("x", ""), tool_use("t0")), user(TEXT)]
    assert passes.drop_unsigned_thinking_from_assistant_messages(messages) == [assistant(tool_use("t0")), user(TEXT)]


def test_orphaned_tool_calls_are_removed_with_their_thinking():
    messages = [
        user(TEXT),
        assistant(thinking(), tool_use("lost")),
        user(TEXT),
        assistant(TEXT, tool_use("kept")),
        user(tool_result("kept"), tool_result("kept"), tool_result("stray")),
        assistant(tool_use("last")),
    ]
    assert passes.clean_orphaned_tool_calls(messages) == [
        user(TEXT),
        user(TEXT),
        assistant(TEXT, tool_use("kept")),
        user(tool_result("kept")),
        assistant(tool_use("last")),
    ]


def test_string_content_messages_pass_the_orphan_cleaner():
    messages = [assistant(tool_use("t")), {"role": "user", "content": "plain"}, user(tool_result("t"))]
    assert passes.clean_orphaned_tool_calls(messages) == messages
    text_reply = [{"role": "assistant", "content": "hi"}]
    assert passes.clean_orphaned_tool_calls(text_reply) == text_reply


def test_active_chain_needs_a_tool_use_before_the_results():
    messages = [assistant({"type": "thinking", "thinking": "x"}, TEXT), user(tool_result("t"))]
    assert passes.drop_unsigned_thinking_from_assistant_messages(messages) == [assistant(TEXT), user(tool_result("t"))]


def test_tool_result_after_other_blocks_does_not_answer():
    messages = [assistant(TEXT, tool_use("t")), user(TEXT, tool_result("t")), assistant(TEXT)]
    assert passes.clean_orphaned_tool_calls(messages) == [assistant(TEXT), user(TEXT), assistant(TEXT)]


def test_idless_tool_results_pass_the_deduper():
    idless = {"type": "tool_result", "content": "x"}
    assert passes.dedupe_tool_results([user(idless, idless)]) == [user(idless, idless)]


def test_consecutive_user_messages_join_results_first():
    messages = [user(TEXT, tool_result("a")), user(tool_result("a"), tool_result("b"), {"type": "text", "text": "B"})]
    assert passes.merge_consecutive_user_messages(messages) == [
        user(tool_result("a"), tool_result("b"), TEXT, {"type": "text", "text": "B"})
    ]


def test_strip_and_normalize_and_inject():
    messages = [assistant(thinking(), TEXT), assistant(REDACTED), assistant({"type": "thinking", "thinking": "x"})]
    assert passes.strip_assistant_thinking(messages) == [assistant(TEXT), assistant(REDACTED), messages[2]]
    assert passes.normalize_thinking_signatures([messages[2]]) == [assistant(thinking("x", ""))]
    injected = passes.inject_thinking_on_tool_use_turns([assistant(tool_use("t")), assistant(REDACTED, tool_use("u"))])
    assert injected == [assistant(thinking("", ""), tool_use("t")), assistant(REDACTED, tool_use("u"))]


def test_pipeline_with_strip_normalize_and_inject_options():
    history = [
        {"role": "user", "parts": [X("Hi")]},
        {"role": "model", "parts": [{"text": "x", "thought": True}, X("answer"), FC("tool", "t1")]},
        {"role": "user", "parts": [FR("t1")]},
    ]
    stripped = convert_history(history, ConverterOptions(strip_assistant_thinking=True))
    assert types(stripped[1]) == ["text", "tool_use"]
    normalized = convert_history(
        history, ConverterOptions(normalize_assistant_thinking_signature=True, inject_thinking_on_tool_use_turns=True)
    )
    assert normalized[1]["content"][0] == thinking("x", "")


def test_cache_control_marks_the_last_user_block():
    messages = passes.apply_cache_control([user(TEXT), assistant(TEXT), user(tool_result("t"), {"type": "image"})])
    assert messages[2]["content"][0]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in messages[0]["content"][0]
    assert passes.apply_cache_control([user({"type": "image"})]) == [user({"type": "image"})]
    assert passes.apply_cache_control([assistant(TEXT)]) == [assistant(TEXT)]


def test_block_at_refuses_out_of_range_indices():
    with pytest.raises(IndexError):
        passes.block_at([TEXT], -1)
    with pytest.raises(IndexError):
        passes.block_at([TEXT], 1)


def test_part_to_block_mapping():
    assert part_to_block(T("t", "s"), "assistant") == thinking("t", "s")
    assert part_to_block(T("t"), "assistant") == {"type": "thinking", "thinking": "t"}
    assert part_to_block(T("t"), "user") is None
    assert part_to_block({"thought": True, "thoughtSignature": "s"}, "assistant") is None
    assert part_to_block({"text": "v", "thoughtSignature": "g"}, "assistant") == {"type": "text", "text": "v"}
    image = part_to_block({"inlineData": {"mimeType": "image/png", "data": "AA"}}, "user")
    assert image == {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA"}}
    document = part_to_block({"fileData": {"mimeType": "application/pdf", "fileUri": "u"}}, "user")
    assert document == {"type": "document", "source": {"type": "url", "url": "u"}}
    assert part_to_block(FC("tool", "t1"), "user") is None
    assert part_to_block(FR("t1"), "assistant") is None
    assert part_to_block({}, "user") is None


def test_user_turn_puts_tool_results_first_and_skips_empty_turns():
    history = [{"role": "user", "parts": [X("note"), FR("t1")]}, {"role": "model", "parts": [{}]}]
    assert turns_to_messages(history) == [
        user(
            {"type": "tool_result", "tool_use_id": "t1", "content": '{"output": "ok"}'},
            {"type": "text", "text": "note"},
        )
    ]


@pytest.mark.parametrize(
    ("model", "adaptive"),
    [
        ("claude-opus-4-6", True),
        ("claude-sonnet-4-7-20270101", True),
        ("claude-opus-4-5", False),
        ("claude-sonnet-4-20250514", False),
        ("claude-3-7-sonnet", False),
        ("claude", False),
    ],
)
def test_adaptive_model_detection(model, adaptive):
    assert supports_adaptive_thinking(model) is adaptive


def test_thinking_configs():
    assert build_thinking_config("claude-opus-4-6", budget_tokens=42_000) == {
        "type": "enabled",
        "budget_tokens": 42_000,
    }
    assert build_thinking_config("claude-opus-4-6") == {"type": "adaptive", "effort": "medium"}
    assert build_thinking_config("claude-opus-4-5", effort="high") == {"type": "enabled", "budget_tokens": 16384}


TOOL_TURN_HISTORY = [
    {"role": "user", "parts": [X("Hi")]},
    {"role": "model", "parts": [X("text"), T("episode", "s"), FC("tool", "t1")]},
    {"role": "user", "parts": [FR("t1")]},
]


def test_generator_effort_ladder_model_runs_in_manual_mode():
    """Kills G47: claude-opus-4-5 with effort only builds `enabled` and leads with thinking."""
    request = build_request(TOOL_TURN_HISTORY, "claude-opus-4-5", effort="high")
    assert request["thinking"] == {"type": "enabled", "budget_tokens": 16384}
    assert types(request["messages"][1]) == ["thinking", "text", "tool_use"]


def test_generator_explicit_budget_runs_in_manual_mode():
    request = build_request(TOOL_TURN_HISTORY, "claude-opus-4-6", budget_tokens=42_000)
    assert types(request["messages"][1]) == ["thinking", "text", "tool_use"]


def test_generator_adaptive_mode_stays_chronological():
    """Kills G48: adaptive requests keep [text, thinking, tool_use] (C2)."""
    request = build_request(TOOL_TURN_HISTORY, "claude-opus-4-6")
    assert request["thinking"]["type"] == "adaptive"
    assert types(request["messages"][1]) == ["text", "thinking", "tool_use"]
