"""Replay of a Responses history to Chat: raw reasoning back on the message it led to (spec §6)."""

import pytest

from bridge import items_to_chat_messages
from tests.bridge.examples import RAW_TARGET, TOOL_TURN


def reasoning(text=None, summary=None):
    item = {"type": "reasoning", "summary": [], "content": []}
    if text is not None:
        item["content"] = [{"type": "reasoning_text", "text": text}]
    if summary is not None:
        item["summary"] = [{"type": "summary_text", "text": summary}]
    return item


def function_call(call_id, name="exec_command", arguments='{"cmd": "ls"}'):
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": arguments}


def output(call_id, text):
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def user(text):
    return {"type": "message", "role": "user", "content": text}


def assistant(text):
    return {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}


def tool_call(call_id, name="exec_command", arguments='{"cmd": "ls"}'):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def test_b3_raw_reasoning_is_replayed_onto_the_tool_call_message():
    messages = items_to_chat_messages(TOOL_TURN, **RAW_TARGET)
    assert messages == [
        {"role": "user", "content": "List the files."},
        {
            "role": "assistant",
            "content": None,
            "reasoning_content": "I will list files",
            "tool_calls": [tool_call("call_1")],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "a.txt"},
    ]
    assert all(message.get("reasoning_content") != "tool call" for message in messages)


@pytest.mark.parametrize(
    ("provider", "model"), [("openai", "gpt-5"), ("example-gateway", "gpt-x"), ("deepseek", "deepseek-reasoner")]
)
def test_b4_reasoning_is_not_replayed_to_openai_or_an_unknown_provider(provider, model):
    messages = items_to_chat_messages(TOOL_TURN, provider=provider, model=model)
    assert not [message for message in messages if "reasoning_content" in message]
    assert messages[1] == {"role": "assistant", "content": None, "tool_calls": [tool_call("call_1")]}


def test_b6_identical_tool_calls_replay_in_order():
    history = [
        user("List the files."),
        reasoning("List them."),
        function_call("c1"),
        function_call("c2"),
        output("c1", "a.txt"),
        output("c2", "a.txt"),
    ]
    assert items_to_chat_messages(history, **RAW_TARGET)[1:] == [
        {
            "role": "assistant",
            "content": None,
            "reasoning_content": "List them.",
            "tool_calls": [tool_call("c1"), tool_call("c2")],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "a.txt"},
        {"role": "tool", "tool_call_id": "c2", "content": "a.txt"},
    ]


def test_the_seeds_tool_loop_replays_every_call_and_result():
    history = [user("List."), function_call("c1"), output("c1", "a.txt"), function_call("c2"), output("c2", "a.txt")]
    assert items_to_chat_messages(history, **RAW_TARGET)[1:] == [
        {"role": "assistant", "content": None, "tool_calls": [tool_call("c1")]},
        {"role": "tool", "tool_call_id": "c1", "content": "a.txt"},
        {"role": "assistant", "content": None, "tool_calls": [tool_call("c2")]},
        {"role": "tool", "tool_call_id": "c2", "content": "a.txt"},
    ]


def test_reasoning_goes_on_the_tool_call_message_not_the_later_answer():
    history = [*TOOL_TURN, assistant("There is a.txt.")]
    messages = items_to_chat_messages(history, **RAW_TARGET)
    assert messages[1]["reasoning_content"] == "I will list files"
    assert messages[3] == {"role": "assistant", "content": "There is a.txt."}


def test_each_reasoning_goes_on_the_assistant_message_after_it():
    history = [*TOOL_TURN, reasoning("Found it."), assistant("There is a.txt.")]
    messages = items_to_chat_messages(history, **RAW_TARGET)
    assert [message.get("reasoning_content") for message in messages] == [None, "I will list files", None, "Found it."]


def test_several_reasoning_items_before_one_message_are_joined_whole_and_in_order():
    history = [user("Go."), reasoning("First,\n"), reasoning("  then  "), assistant("Done.")]
    assert items_to_chat_messages(history, **RAW_TARGET)[1]["reasoning_content"] == "First,\n  then  "


def test_the_raw_content_not_the_summary_is_replayed():
    history = [user("Go."), reasoning("the model's own words", summary="A summary."), assistant("Done.")]
    assert items_to_chat_messages(history, **RAW_TARGET)[1]["reasoning_content"] == "the model's own words"


def test_raw_content_parts_are_joined_and_other_parts_skipped():
    item = reasoning()
    item["content"] = [
        {"type": "reasoning_text", "text": "a"},
        {"type": "other", "text": "X"},
        {"type": "reasoning_text", "text": "b"},
    ]
    assert items_to_chat_messages([item, assistant("Done.")], **RAW_TARGET)[0]["reasoning_content"] == "ab"


def test_summary_only_reasoning_is_never_replayed():
    history = [user("Go."), reasoning(summary="A summary."), function_call("c1"), output("c1", "x"), assistant("Done.")]
    assert not [message for message in items_to_chat_messages(history, **RAW_TARGET) if "reasoning_content" in message]


def test_reasoning_no_assistant_message_answers_does_not_leak_into_the_next_turn():
    history = [user("One."), reasoning("stale thought"), user("Two."), assistant("Done."), reasoning("trailing")]
    assert items_to_chat_messages(history, **RAW_TARGET) == [
        {"role": "user", "content": "One."},
        {"role": "user", "content": "Two."},
        {"role": "assistant", "content": "Done."},
    ]


def test_an_assistant_text_and_the_calls_right_after_it_are_one_message():
    history = [user("Go."), reasoning("Plan."), assistant("Checking."), function_call("c1"), output("c1", "x")]
    assert items_to_chat_messages(history, **RAW_TARGET)[1:] == [
        {"role": "assistant", "content": "Checking.", "reasoning_content": "Plan.", "tool_calls": [tool_call("c1")]},
        {"role": "tool", "tool_call_id": "c1", "content": "x"},
    ]


def test_reasoning_between_a_text_and_calls_starts_the_calls_message():
    history = [user("Go."), assistant("Checking."), reasoning("Now call."), function_call("c1"), output("c1", "x")]
    assert items_to_chat_messages(history, **RAW_TARGET)[1:3] == [
        {"role": "assistant", "content": "Checking."},
        {"role": "assistant", "content": None, "reasoning_content": "Now call.", "tool_calls": [tool_call("c1")]},
    ]


def test_messages_without_a_type_and_with_text_parts():
    history = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "input_text", "text": "Hi "}, {"type": "input_text", "text": "there"}]},
    ]
    assert items_to_chat_messages(history, **RAW_TARGET) == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi there"},
    ]


def test_tool_results_between_reasoning_and_the_next_assistant_message_are_passed_over():
    history = [user("Go."), function_call("c1"), reasoning("Read the result."), output("c1", "x"), assistant("Done.")]
    messages = items_to_chat_messages(history, **RAW_TARGET)
    assert [message.get("reasoning_content") for message in messages] == [None, None, None, "Read the result."]
