"""Encrypted reasoning is carried on the done item and never shown or replayed as text (B5)."""

from hypothesis import given

from bridge import chat_message_to_items, chat_stream_to_events, items_to_chat_messages
from tests.bridge.examples import ENCRYPTED, GATEWAY, OFFICIAL, RAW_TARGET, SUMMARY_AND_ENCRYPTED
from tests.bridge.generated import streams
from tests.bridge.streams import assemble, chunk, completed_output, done_items, of_type, types


def item_texts(item):
    texts = [part.get("text", "") for key in ("summary", "content") for part in item.get(key) or []]
    return [*texts, item.get("arguments", ""), item.get("name", "")]


def event_texts(events):
    """Every text a client may show: the events' deltas and texts, and their items' texts."""
    texts = [str(event.get(key, "")) for event in events for key in ("delta", "text", "arguments")]
    items = [event["item"] for event in events if "item" in event] + completed_output(events)
    return texts + [text for item in items for text in item_texts(item)]


def message_texts(messages):
    calls = [call["function"]["arguments"] for message in messages for call in message.get("tool_calls", [])]
    return [str(message.get(key) or "") for message in messages for key in ("content", "reasoning_content")] + calls


def test_b5_encrypted_reasoning_is_carried_on_the_done_item_never_as_text():
    events = chat_stream_to_events(SUMMARY_AND_ENCRYPTED, **OFFICIAL)
    reasoning = {
        "type": "reasoning",
        "id": "rs_0",
        "summary": [{"type": "summary_text", "text": "Checking the files."}],
        "encrypted_content": ENCRYPTED,
    }
    assert done_items(events)[0] == reasoning
    assert completed_output(events)[0] == reasoning
    assert of_type(events, "response.output_item.added")[0]["item"] == {
        "type": "reasoning",
        "id": "rs_0",
        "summary": [],
    }
    assert chat_message_to_items(assemble(SUMMARY_AND_ENCRYPTED), **OFFICIAL)[0] == reasoning
    assert not [text for text in event_texts(events) if ENCRYPTED in text]
    items = chat_message_to_items(assemble(SUMMARY_AND_ENCRYPTED), **OFFICIAL)
    assert not [text for item in items for text in item_texts(item) if ENCRYPTED in text]


def test_encrypted_data_alone_opens_a_reasoning_item_with_no_summary_events():
    stream = [chunk(reasoning_details=[{"type": "reasoning.encrypted", "data": ENCRYPTED}]), chunk(content="Done.")]
    events = chat_stream_to_events(stream, **OFFICIAL)
    assert types(events)[:2] == ["response.output_item.added", "response.output_item.done"]
    assert completed_output(events)[0] == {
        "type": "reasoning",
        "id": "rs_0",
        "summary": [],
        "encrypted_content": ENCRYPTED,
    }
    assert not [kind for kind in types(events) if kind.startswith("response.reasoning_")]


def test_encrypted_data_is_dropped_outside_opaque_semantics():
    details = [{"type": "reasoning.text", "text": "Think."}, {"type": "reasoning.encrypted", "data": ENCRYPTED}]
    for target in (RAW_TARGET, GATEWAY):
        events = chat_stream_to_events([chunk(reasoning_details=details)], **target)
        assert "encrypted_content" not in completed_output(events)[0]
        assert "encrypted_content" not in chat_message_to_items({"reasoning_details": details}, **target)[0]
        only_encrypted = [chunk(reasoning_details=details[1:]), chunk(content="Done.")]
        assert [item["type"] for item in completed_output(chat_stream_to_events(only_encrypted, **target))] == [
            "message"
        ]


def test_replay_never_turns_encrypted_content_into_text():
    opaque = {"type": "reasoning", "summary": [{"type": "summary_text", "text": "S."}], "encrypted_content": ENCRYPTED}
    history = [
        {"type": "message", "role": "user", "content": "Go."},
        opaque,
        {"type": "message", "role": "assistant", "content": "Done."},
    ]
    for target in (RAW_TARGET, GATEWAY, OFFICIAL):
        messages = items_to_chat_messages(history, **target)
        assert not [text for text in message_texts(messages) if ENCRYPTED in text]
        assert not [message for message in messages if "reasoning_content" in message]


@given(streams())
def test_no_event_item_or_replayed_message_carries_encrypted_data_as_text(chunks):
    for target in (RAW_TARGET, GATEWAY, OFFICIAL):
        events = chat_stream_to_events(chunks, **target)
        items = chat_message_to_items(assemble(chunks), **target)
        shown = event_texts(events) + [text for item in items for text in item_texts(item)]
        replayed = message_texts(items_to_chat_messages(completed_output(events), **RAW_TARGET))
        assert not [text for text in shown + replayed if "ENC:" in text], target
