"""Non-streaming conversion: one Chat message to Responses output items (spec §5)."""

from typing import Any

from bridge.extraction import extract_reasoning
from bridge.items import Item, function_call_item, item_id, message_item, reasoning_item
from bridge.semantics import reasoning_semantics


def chat_message_to_items(message: dict[str, Any], *, provider: str, model: str) -> list[Item]:
    """The reasoning item, the message item (if any text), then one function call per tool call:
    the items a stream of the same content completes with."""
    return message_items(message, reasoning_semantics(provider, model))


def message_items(message: dict[str, Any], semantics: str) -> list[Item]:
    items = []
    reasoning = extract_reasoning(message).kept_under(semantics)
    if reasoning:
        items.append(reasoning_item(item_id("rs", len(items)), semantics, reasoning))
    if message.get("content"):
        items.append(message_item(item_id("msg", len(items)), message["content"]))
    for call in message.get("tool_calls") or []:  # every call, a repeated one too: the model's loop stays visible
        function = call.get("function") or {}
        identifier = item_id("fc", len(items))
        items.append(
            function_call_item(
                identifier, call.get("id") or "", function.get("name") or "", function.get("arguments") or ""
            )
        )
    return items
