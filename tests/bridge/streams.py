"""Chat chunks as providers stream them, a Chat client's assembly of them, and views of the events."""

import copy


def chunk(**delta):
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}


def finish(reason="stop"):
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}


def tool_delta(index, call_id=None, name=None, arguments=None):
    function = {key: value for key, value in (("name", name), ("arguments", arguments)) if value is not None}
    delta = {"index": index, "type": "function", "function": function}
    if call_id is not None:
        delta["id"] = call_id
    return delta


def assemble(chunks):
    """The one Chat message a client accumulates from the chunks: strings joined, details and
    reasoning summaries joined, tool calls merged by index."""
    message = {"role": "assistant"}
    calls = {}
    for each in chunks:
        for delta in (choice["delta"] for choice in each["choices"]):
            for key in ("content", "reasoning_content"):
                if delta.get(key):
                    message[key] = message.get(key, "") + delta[key]
            if isinstance(delta.get("reasoning"), str):
                message["reasoning"] = message.get("reasoning", "") + delta["reasoning"]
            if isinstance(delta.get("reasoning"), dict):
                summary = message.setdefault("reasoning", {"summary": ""})
                summary["summary"] += delta["reasoning"]["summary"]
            message.setdefault("reasoning_details", []).extend(delta.get("reasoning_details") or [])
            for call in delta.get("tool_calls") or []:
                merged = calls.setdefault(call["index"], {"id": "", "type": "function", "function": {}})
                merged["id"] = merged["id"] or call.get("id", "")
                function = merged["function"]
                function["name"] = function.get("name") or call["function"].get("name", "")
                function["arguments"] = function.get("arguments", "") + call["function"].get("arguments", "")
    if calls:
        message["tool_calls"] = [calls[index] for index in sorted(calls)]
    return message


def types(events):
    return [event["type"] for event in events]


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def completed_output(events):
    assert events[-1]["type"] == "response.completed"
    return events[-1]["response"]["output"]


def done_items(events):
    return [event["item"] for event in of_type(events, "response.output_item.done")]


def without_ids(items):
    """The items with each one's `id` and `status` removed (copies: the events keep theirs)."""
    stripped = copy.deepcopy(items)
    for item in stripped:
        item.pop("id", None)
        item.pop("status", None)
    return stripped
