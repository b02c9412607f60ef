"""Replay: a Responses history back to Chat messages, raw reasoning on the assistant message it led to (spec §6)."""

from typing import Any

from bridge.semantics import RAW, reasoning_semantics

Message = dict[str, Any]


def items_to_chat_messages(items: list[dict[str, Any]], *, provider: str, model: str) -> list[Message]:
    """Chat messages for a third-party model; its own raw reasoning comes back as `reasoning_content`
    only when the target's semantics are raw."""
    return replay(items, reasoning_semantics(provider, model))


def replay(items: list[dict[str, Any]], semantics: str) -> list[Message]:
    messages: list[Message] = []
    reasoning_at: list[tuple[int, str]] = []  # raw reasoning and the position of the message after it
    tool_call_message: Message | None = None  # the assistant message the next function call joins
    for item in items:
        kind = item.get("type", "message")
        if kind == "reasoning":
            if semantics == RAW:
                reasoning_at.append((len(messages), _raw_text(item)))
            tool_call_message = None
        elif kind == "function_call":
            if tool_call_message is None:
                tool_call_message = {"role": "assistant", "content": None, "tool_calls": []}
                messages.append(tool_call_message)
            tool_call_message.setdefault("tool_calls", []).append(_tool_call(item))
        elif kind == "function_call_output":
            messages.append({"role": "tool", "tool_call_id": item["call_id"], "content": item["output"]})
            tool_call_message = None
        else:
            messages.append({"role": item["role"], "content": _text(item["content"])})
            # an assistant's text and the calls right after it are one Chat message
            tool_call_message = messages[-1] if item["role"] == "assistant" else None
    for position, text in reasoning_at:
        answer = _answering_message(messages, position)
        if answer is not None and text:
            answer["reasoning_content"] = answer.get("reasoning_content", "") + text
    return messages


def _raw_text(item: dict[str, Any]) -> str:
    """The reasoning item's raw text, whole and verbatim; a summary is not the model's thinking."""
    return "".join(part["text"] for part in item.get("content") or [] if part.get("type") == "reasoning_text")


def _answering_message(messages: list[Message], position: int) -> Message | None:
    """The first assistant message from `position` on (for a tool turn, the one with the calls, before
    their results); none when a user message comes first: reasoning must not leak into a later turn."""
    for message in messages[position:]:
        if message["role"] == "assistant":
            return message
        if message["role"] == "user":
            return None
    return None


def _tool_call(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": item["call_id"],
        "type": "function",
        "function": {"name": item["name"], "arguments": item["arguments"]},
    }


def _text(content: str | list[dict[str, Any]]) -> str:
    """A Responses message's text: a string, or its text parts joined."""
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content)
