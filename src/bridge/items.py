"""Responses output items as both conversions finish them: reasoning, message and function call."""

from typing import Any

from bridge.extraction import Reasoning
from bridge.semantics import RAW

Item = dict[str, Any]


def item_id(kind: str, output_index: int) -> str:
    """An item's id: its kind (`rs`, `msg`, `fc`) and its place in the output."""
    return f"{kind}_{output_index}"


def raw_reasoning_item(identifier: str, text: str) -> Item:
    """The model's thinking, as a client with a raw reasoning view renders it."""
    return {"type": "reasoning", "id": identifier, "summary": [], "content": [{"type": "reasoning_text", "text": text}]}


def summary_reasoning_item(identifier: str, reasoning: Reasoning) -> Item:
    """A summary (no part when there is no text), with the encrypted reasoning carried beside it."""
    summary = [{"type": "summary_text", "text": reasoning.text}] if reasoning.text else []
    item = {"type": "reasoning", "id": identifier, "summary": summary}
    if reasoning.encrypted:
        item["encrypted_content"] = reasoning.encrypted
    return item


def reasoning_item(identifier: str, semantics: str, reasoning: Reasoning) -> Item:
    if semantics == RAW:
        return raw_reasoning_item(identifier, reasoning.text)
    return summary_reasoning_item(identifier, reasoning)


def message_item(identifier: str, text: str) -> Item:
    return {
        "type": "message",
        "id": identifier,
        "role": "assistant",
        "content": [{"type": "output_text", "text": text}],
    }


def function_call_item(identifier: str, call_id: str, name: str, arguments: str) -> Item:
    return {"type": "function_call", "id": identifier, "call_id": call_id, "name": name, "arguments": arguments}
