"""Streaming conversion: the raw and summary lifecycles, reasoning first, every item in order (spec §4)."""

from bridge import chat_stream_to_events
from tests.bridge.examples import GATEWAY, IDENTICAL_CALLS, RAW_TARGET, THINK_THEN_ANSWER
from tests.bridge.streams import chunk, completed_output, done_items, finish, of_type, tool_delta, types

RS = {"item_id": "rs_0", "output_index": 0}
MSG = {"item_id": "msg_1", "output_index": 1}
MESSAGE_EVENTS = [
    {
        "type": "response.output_item.added",
        "output_index": 1,
        "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []},
    },
    {"type": "response.output_text.delta", **MSG, "content_index": 0, "delta": "Done."},
    {"type": "response.output_text.done", **MSG, "content_index": 0, "text": "Done."},
    {
        "type": "response.output_item.done",
        "output_index": 1,
        "item": {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Done."}],
        },
    },
]


def test_b1_raw_stream_uses_the_reasoning_text_lifecycle():
    events = chat_stream_to_events(THINK_THEN_ANSWER, **RAW_TARGET)
    done = {
        "type": "reasoning",
        "id": "rs_0",
        "summary": [],
        "content": [{"type": "reasoning_text", "text": "Let me check."}],
    }
    assert events[:-1] == [
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"type": "reasoning", "id": "rs_0", "summary": [], "content": []},
        },
        {"type": "response.reasoning_text.delta", **RS, "content_index": 0, "delta": "Let me"},
        {"type": "response.reasoning_text.delta", **RS, "content_index": 0, "delta": " check."},
        {"type": "response.reasoning_text.done", **RS, "content_index": 0, "text": "Let me check."},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        *MESSAGE_EVENTS,
    ]
    assert not [kind for kind in types(events) if kind.startswith("response.reasoning_summary")]
    assert completed_output(events) == [done, MESSAGE_EVENTS[-1]["item"]]


def test_b2_gateway_stream_uses_the_summary_lifecycle():
    events = chat_stream_to_events(THINK_THEN_ANSWER, **GATEWAY)
    at = {**RS, "summary_index": 0}
    done = {"type": "reasoning", "id": "rs_0", "summary": [{"type": "summary_text", "text": "Let me check."}]}
    assert events[:-1] == [
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"type": "reasoning", "id": "rs_0", "summary": []},
        },
        {"type": "response.reasoning_summary_part.added", **at},
        {"type": "response.reasoning_summary_text.delta", **at, "delta": "Let me"},
        {"type": "response.reasoning_summary_text.delta", **at, "delta": " check."},
        {"type": "response.reasoning_summary_text.done", **at, "text": "Let me check."},
        {"type": "response.reasoning_summary_part.done", **at},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        *MESSAGE_EVENTS,
    ]
    assert not [kind for kind in types(events) if kind.startswith("response.reasoning_text")]
    assert completed_output(events)[0] == done


def test_a_qwen_model_from_a_gateway_streams_raw_reasoning():
    events = chat_stream_to_events(THINK_THEN_ANSWER, provider="openrouter", model="Qwen/Qwen3-32B")
    assert of_type(events, "response.reasoning_text.done")[0]["text"] == "Let me check."


def test_b6_identical_tool_calls_stream_as_two_items():
    events = chat_stream_to_events(IDENTICAL_CALLS, **RAW_TARGET)
    calls = [item for item in completed_output(events) if item["type"] == "function_call"]
    arguments = '{"cmd": "ls"}'
    assert calls == [
        {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "exec_command", "arguments": arguments},
        {"type": "function_call", "id": "fc_2", "call_id": "c2", "name": "exec_command", "arguments": arguments},
    ]
    assert [event["arguments"] for event in of_type(events, "response.function_call_arguments.done")] == [arguments] * 2


def test_b7_reasoning_after_text_opens_a_second_reasoning_item():
    stream = [
        chunk(reasoning_content="First."),
        chunk(content="Looking."),
        chunk(reasoning_content="Second."),
        chunk(content="Found."),
        finish(),
    ]
    events = chat_stream_to_events(stream, **RAW_TARGET)
    lifecycle = [(event["type"], event["output_index"]) for event in events if "output_item" in event["type"]]
    assert lifecycle == [
        ("response.output_item.added", 0),
        ("response.output_item.done", 0),
        ("response.output_item.added", 1),
        ("response.output_item.done", 1),  # the message is done before the second reasoning starts
        ("response.output_item.added", 2),
        ("response.output_item.done", 2),
        ("response.output_item.added", 3),
        ("response.output_item.done", 3),
    ]
    output = completed_output(events)
    assert [(item["type"], item["id"]) for item in output] == [
        ("reasoning", "rs_0"),
        ("message", "msg_1"),
        ("reasoning", "rs_2"),
        ("message", "msg_3"),
    ]
    assert [item["content"][0]["text"] for item in output] == ["First.", "Looking.", "Second.", "Found."]


def test_reasoning_is_done_before_a_tool_call_item_is_added():
    stream = [chunk(reasoning_content="Plan."), chunk(tool_calls=[tool_delta(0, "c1", "f", "{}")]), finish()]
    assert types(chat_stream_to_events(stream, **RAW_TARGET))[:6] == [
        "response.output_item.added",
        "response.reasoning_text.delta",
        "response.reasoning_text.done",
        "response.output_item.done",
        "response.output_item.added",
        "response.function_call_arguments.delta",
    ]


def test_function_calls_stay_open_to_the_end_and_close_in_output_index_order():
    stream = [
        chunk(tool_calls=[tool_delta(0, "a", "f", '{"x"'), tool_delta(1, "b", "g", '{"y"')]),
        chunk(tool_calls=[tool_delta(1, arguments=": 2}"), tool_delta(0, arguments=": 1}")]),
        finish("tool_calls"),
    ]
    events = chat_stream_to_events(stream, **RAW_TARGET)
    assert [(event["type"], event["output_index"]) for event in events[:-1]] == [
        ("response.output_item.added", 0),
        ("response.function_call_arguments.delta", 0),
        ("response.output_item.added", 1),
        ("response.function_call_arguments.delta", 1),
        ("response.function_call_arguments.delta", 1),
        ("response.function_call_arguments.delta", 0),
        ("response.function_call_arguments.done", 0),
        ("response.output_item.done", 0),
        ("response.function_call_arguments.done", 1),
        ("response.output_item.done", 1),
    ]
    assert [(item["call_id"], item["arguments"]) for item in done_items(events)] == [
        ("a", '{"x": 1}'),
        ("b", '{"y": 2}'),
    ]


def test_completed_output_is_in_output_index_order_not_closing_order():
    stream = [
        chunk(tool_calls=[tool_delta(0, "c1", "f", "{}")]),
        chunk(reasoning_content="Now answer."),
        chunk(content="Done."),
        finish(),
    ]
    events = chat_stream_to_events(stream, **RAW_TARGET)
    assert [item["id"] for item in done_items(events)] == ["rs_1", "fc_0", "msg_2"]
    assert [item["id"] for item in completed_output(events)] == ["fc_0", "rs_1", "msg_2"]


def test_a_tool_calls_id_and_name_come_from_the_first_delta_carrying_them():
    stream = [
        chunk(tool_calls=[tool_delta(0, arguments="")]),
        chunk(tool_calls=[tool_delta(0, "c9", "read", '{"p"')]),
        chunk(tool_calls=[tool_delta(0, "other", "write", ': "a"}')]),
        finish("tool_calls"),
    ]
    events = chat_stream_to_events(stream, **RAW_TARGET)
    added = of_type(events, "response.output_item.added")[0]["item"]
    assert added == {"type": "function_call", "id": "fc_0", "call_id": "", "name": "", "arguments": ""}
    assert completed_output(events) == [
        {"type": "function_call", "id": "fc_0", "call_id": "c9", "name": "read", "arguments": '{"p": "a"}'}
    ]
    assert [event["delta"] for event in of_type(events, "response.function_call_arguments.delta")] == ['{"p"', ': "a"}']


def test_the_added_function_call_names_the_call_of_its_first_delta():
    events = chat_stream_to_events([chunk(tool_calls=[tool_delta(0, "c1", "read")])], **RAW_TARGET)
    added = of_type(events, "response.output_item.added")[0]["item"]
    assert added == {"type": "function_call", "id": "fc_0", "call_id": "c1", "name": "read", "arguments": ""}


def test_text_after_tool_calls_continues_the_open_message():
    stream = [chunk(content="Let me look."), chunk(tool_calls=[tool_delta(0, "c1", "f", "{}")]), chunk(content=" Ok.")]
    output = completed_output(chat_stream_to_events(stream, **RAW_TARGET))
    assert [item["type"] for item in output] == ["message", "function_call"]
    assert output[0]["content"][0]["text"] == "Let me look. Ok."


def test_reasoning_comes_before_text_in_the_same_delta():
    events = chat_stream_to_events([chunk(reasoning_content="Think.", content="Say.")], **RAW_TARGET)
    assert [item["type"] for item in completed_output(events)] == ["reasoning", "message"]
    assert [(event["type"], event["output_index"]) for event in events if "output_item" in event["type"]] == [
        ("response.output_item.added", 0),
        ("response.output_item.done", 0),  # the reasoning is done before the message is added
        ("response.output_item.added", 1),
        ("response.output_item.done", 1),
    ]


def test_empty_fields_and_empty_chunks_open_nothing():
    stream = [
        {"object": "chat.completion.chunk", "choices": [], "usage": {"total_tokens": 3}},
        {"object": "chat.completion.chunk", "choices": [{"index": 0, "finish_reason": None}]},
        chunk(role="assistant", content="", reasoning_content=""),
        chunk(reasoning_content="Think.", content=""),
        chunk(reasoning_content="", content="Say."),
        chunk(content=None, tool_calls=None),
        finish(),
    ]
    events = chat_stream_to_events(stream, **RAW_TARGET)
    assert [item["type"] for item in completed_output(events)] == ["reasoning", "message"]
    assert len(of_type(events, "response.output_item.added")) == 2


def test_an_empty_stream_completes_with_no_output():
    assert chat_stream_to_events([], **GATEWAY) == [{"type": "response.completed", "response": {"output": []}}]


def test_every_event_of_an_item_carries_its_id_and_output_index():
    events = chat_stream_to_events(IDENTICAL_CALLS, **RAW_TARGET)
    for event in events[:-1]:
        item = event.get("item") or {"id": event["item_id"]}
        assert item["id"].endswith(f"_{event['output_index']}")
