"""Non-streaming conversion: one Chat message to its output items (spec §5)."""

from bridge import chat_message_to_items
from tests.bridge.examples import GATEWAY, OFFICIAL, RAW_TARGET


def call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def test_raw_reasoning_is_reasoning_text_content():
    message = {"role": "assistant", "reasoning_content": "Let me check.", "content": "Done."}
    assert chat_message_to_items(message, **RAW_TARGET) == [
        {
            "type": "reasoning",
            "id": "rs_0",
            "summary": [],
            "content": [{"type": "reasoning_text", "text": "Let me check."}],
        },
        {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]},
    ]


def test_summary_reasoning_is_a_summary_text_part():
    message = {"role": "assistant", "reasoning_content": "Let me check.", "content": "Done."}
    assert chat_message_to_items(message, **GATEWAY)[0] == {
        "type": "reasoning",
        "id": "rs_0",
        "summary": [{"type": "summary_text", "text": "Let me check."}],
    }


def test_items_come_reasoning_then_message_then_each_call():
    message = {
        "role": "assistant",
        "reasoning": "Plan.",
        "content": "Running.",
        "tool_calls": [call("c1", "f", "{}"), call("c2", "g", '{"a": 1}')],
    }
    assert chat_message_to_items(message, **GATEWAY)[1:] == [
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Running."}],
        },
        {"type": "function_call", "id": "fc_2", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"type": "function_call", "id": "fc_3", "call_id": "c2", "name": "g", "arguments": '{"a": 1}'},
    ]


def test_b6_identical_tool_calls_are_two_items_without_a_stream():
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [call("c1", "exec_command", "{}"), call("c2", "exec_command", "{}")],
    }
    items = chat_message_to_items(message, **RAW_TARGET)
    assert [(item["call_id"], item["name"], item["arguments"]) for item in items] == [
        ("c1", "exec_command", "{}"),
        ("c2", "exec_command", "{}"),
    ]


def test_a_call_missing_its_fields_keeps_its_place():
    assert chat_message_to_items({"role": "assistant", "tool_calls": [{"type": "function"}]}, **RAW_TARGET) == [
        {"type": "function_call", "id": "fc_0", "call_id": "", "name": "", "arguments": ""}
    ]


def test_a_message_with_nothing_gives_no_items():
    assert chat_message_to_items({"role": "assistant", "content": "", "reasoning_content": ""}, **OFFICIAL) == []
