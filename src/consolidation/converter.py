"""History → Anthropic request: part→block mapping, the pass order, the manual-thinking gate (spec §7)."""

import json
import re
from dataclasses import dataclass
from typing import Any

from consolidation import message_passes as passes
from consolidation.parts import Part, Turn, is_thought, js_truthy

Block = passes.Block
Message = passes.Message

# Claude 4.6 and later think adaptively; older and unversioned ids only know manual budgets.
ADAPTIVE_THINKING_SINCE = (4, 6)
EFFORT_BUDGET_TOKENS = {"low": 2048, "medium": 8192, "high": 16384}
_MODEL_VERSION = re.compile(r"claude-(?:opus|sonnet|haiku)-(\d)(?:-(\d)(?!\d))?")


@dataclass(frozen=True)
class ConverterOptions:
    strip_assistant_thinking: bool = False
    normalize_assistant_thinking_signature: bool = False
    inject_thinking_on_tool_use_turns: bool = False
    drop_unsigned_assistant_thinking: bool = False
    strip_trailing_assistant_prefill: bool = False
    ensure_leading_assistant_thinking: bool = False


def _media_block(payload: dict[str, Any], source: dict[str, Any]) -> Block:
    mime_type = payload.get("mimeType") or ""
    return {"type": "image" if mime_type.startswith("image/") else "document", "source": source}


def part_to_block(part: Part, role: str) -> Block | None:
    """The block a part becomes in a message of `role`, or None when it has no place there."""
    if is_thought(part):
        if role != "assistant" or "text" not in part:
            return None
        block: Block = {"type": "thinking", "thinking": part["text"] or ""}
        if isinstance(part.get("thoughtSignature"), str):
            block["signature"] = part["thoughtSignature"]
        return block
    if js_truthy(part.get("text")):
        return {"type": "text", "text": part["text"]}
    if js_truthy(part.get("inlineData")):
        data = part["inlineData"]
        return _media_block(data, {"type": "base64", "media_type": data.get("mimeType"), "data": data.get("data")})
    if js_truthy(part.get("fileData")):
        data = part["fileData"]
        return _media_block(data, {"type": "url", "url": data.get("fileUri")})
    if js_truthy(part.get("functionCall")) and role == "assistant":
        call = part["functionCall"]
        return {"type": "tool_use", "id": call.get("id"), "name": call.get("name"), "input": call.get("args") or {}}
    if js_truthy(part.get("functionResponse")) and role == "user":
        response = part["functionResponse"]
        content = json.dumps(response.get("response"), sort_keys=True)
        return {"type": "tool_result", "tool_use_id": response.get("id"), "content": content}
    return None


def turns_to_messages(history: list[Turn]) -> list[Message]:
    messages = []
    for turn in history:
        role = "assistant" if turn.get("role") == "model" else "user"
        blocks = [block for part in turn.get("parts") or [] if (block := part_to_block(part, role)) is not None]
        if role == "user":
            # Stable: results first, everything else keeps its order.
            blocks.sort(key=lambda block: block["type"] != "tool_result")
        if blocks:
            messages.append({"role": role, "content": blocks})
    return messages


def convert_history(history: list[Turn], options: ConverterOptions) -> list[Message]:
    """The request messages for `history`, passes applied in the order of spec §7.2."""
    messages = turns_to_messages(history)
    if options.strip_assistant_thinking:
        messages = passes.strip_assistant_thinking(messages)
    if options.normalize_assistant_thinking_signature:
        messages = passes.normalize_thinking_signatures(messages)
    if options.inject_thinking_on_tool_use_turns:
        messages = passes.inject_thinking_on_tool_use_turns(messages)
    messages = passes.merge_consecutive_assistant_messages(messages)
    messages = passes.clean_orphaned_tool_calls(messages)
    messages = passes.merge_consecutive_assistant_messages(messages)
    if options.drop_unsigned_assistant_thinking:
        messages = passes.drop_unsigned_thinking_from_assistant_messages(messages)
    # Before the empty-thinking drop: a popped prefill must not leave the tool_use turn "not latest".
    if options.strip_trailing_assistant_prefill:
        messages = passes.strip_trailing_assistant_prefill(messages)
    if not options.inject_thinking_on_tool_use_turns:
        messages = passes.drop_empty_text_thinking_blocks(messages)
    if options.strip_assistant_thinking:
        messages = passes.strip_assistant_thinking(messages)
    messages = passes.merge_consecutive_user_messages(messages)
    if options.ensure_leading_assistant_thinking:
        messages = passes.ensure_leading_thinking_on_tool_use_assistant_messages(messages)
    return passes.apply_cache_control(messages)


def supports_adaptive_thinking(model: str) -> bool:
    match = _MODEL_VERSION.search(model)
    if match is None:
        return False
    return (int(match.group(1)), int(match.group(2) or 0)) >= ADAPTIVE_THINKING_SINCE


def build_thinking_config(model: str, budget_tokens: int | None = None, effort: str = "medium") -> dict[str, Any]:
    """Manual (`enabled`) with an explicit or effort-ladder budget, or `adaptive` where the model can."""
    if budget_tokens is None and supports_adaptive_thinking(model):
        return {"type": "adaptive", "effort": effort}
    budget = budget_tokens if budget_tokens is not None else EFFORT_BUDGET_TOKENS[effort]
    return {"type": "enabled", "budget_tokens": budget}


def build_request(
    history: list[Turn], model: str, budget_tokens: int | None = None, effort: str = "medium"
) -> dict[str, Any]:
    """The request body the generator sends; the leading-thinking pass runs only in manual mode."""
    thinking = build_thinking_config(model, budget_tokens, effort)
    options = ConverterOptions(
        drop_unsigned_assistant_thinking=True,
        strip_trailing_assistant_prefill=True,
        ensure_leading_assistant_thinking=thinking["type"] == "enabled",
    )
    return {"model": model, "thinking": thinking, "messages": convert_history(history, options)}
