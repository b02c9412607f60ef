"""The passes over Anthropic request messages that keep thinking blocks valid (spec §7.3)."""

from typing import Any

Block = dict[str, Any]
Message = dict[str, Any]

THINKING_TYPES = ("thinking", "redacted_thinking")


class UnsignedThinkingInActiveToolChain(Exception):
    """An unsigned thinking block sits in the tool chain the next request continues."""


def is_thinking_block(block: Block) -> bool:
    return block.get("type") in THINKING_TYPES


def block_at(blocks: list[Block], index: int) -> Block:
    """Bounds-checked access: Python's negative indices must not read from the end by accident."""
    if not 0 <= index < len(blocks):
        raise IndexError(f"block index {index} outside 0..{len(blocks) - 1}")
    return blocks[index]


def _has_array_content(message: Message) -> bool:
    return isinstance(message.get("content"), list)


def _is_assistant_with_blocks(message: Message) -> bool:
    return message.get("role") == "assistant" and _has_array_content(message)


def _has_type(message: Message, block_type: str) -> bool:
    return _has_array_content(message) and any(block.get("type") == block_type for block in message["content"])


def _with_content(message: Message, content: list[Block]) -> Message:
    return {**message, "content": content}


def _is_unsigned_thinking(block: Block) -> bool:
    signature = block.get("signature")
    return block.get("type") == "thinking" and not (isinstance(signature, str) and signature != "")


def strip_assistant_thinking(messages: list[Message]) -> list[Message]:
    """Remove thinking from assistant messages, unless nothing else would be left."""
    result = []
    for message in messages:
        if _is_assistant_with_blocks(message):
            kept = [block for block in message["content"] if not is_thinking_block(block)]
            if kept:
                message = _with_content(message, kept)
        result.append(message)
    return result


def normalize_thinking_signatures(messages: list[Message]) -> list[Message]:
    """Give every assistant thinking block a string signature ('' when it had none)."""
    result = []
    for message in messages:
        if _is_assistant_with_blocks(message):
            message = _with_content(
                message,
                [
                    {**block, "signature": ""}
                    if block.get("type") == "thinking" and not isinstance(block.get("signature"), str)
                    else block
                    for block in message["content"]
                ],
            )
        result.append(message)
    return result


def inject_thinking_on_tool_use_turns(messages: list[Message]) -> list[Message]:
    """Prepend an empty thinking block to tool_use turns that carry none."""
    result = []
    for message in messages:
        blocks = message.get("content")
        if (
            _is_assistant_with_blocks(message)
            and _has_type(message, "tool_use")
            and not any(is_thinking_block(block) for block in blocks)
        ):
            message = _with_content(message, [{"type": "thinking", "thinking": "", "signature": ""}, *blocks])
        result.append(message)
    return result


def merge_consecutive_assistant_messages(messages: list[Message]) -> list[Message]:
    """Join adjacent assistant messages in original block order; the first tool_use of an id wins."""
    result: list[Message] = []
    for message in messages:
        previous = result[-1] if result else None
        if previous is None or not (_is_assistant_with_blocks(previous) and _is_assistant_with_blocks(message)):
            result.append(message)
            continue
        seen_ids = {block.get("id") for block in previous["content"] if block.get("type") == "tool_use"}
        merged = list(previous["content"])
        for block in message["content"]:
            if block.get("type") == "tool_use" and block.get("id") is not None:
                if block["id"] in seen_ids:
                    continue
                seen_ids.add(block["id"])
            merged.append(block)
        result[-1] = _with_content(previous, merged)
    return result


def dedupe_tool_results(messages: list[Message]) -> list[Message]:
    """Drop repeated tool_results by id, first wins; results without an id pass through."""
    seen: set[str] = set()
    result = []
    for message in messages:
        if message.get("role") == "user" and _has_array_content(message):
            kept = []
            for block in message["content"]:
                result_id = block.get("tool_use_id") if block.get("type") == "tool_result" else None
                if result_id is not None:
                    if result_id in seen:
                        continue
                    seen.add(result_id)
                kept.append(block)
            message = _with_content(message, kept)
        result.append(message)
    return result


def _leading_tool_result_ids(message: Message) -> set[str]:
    ids = set()
    for block in message["content"]:
        if block.get("type") != "tool_result":
            break
        ids.add(block.get("tool_use_id"))
    return ids


def _answered_tool_use_ids(messages: list[Message]) -> set[str]:
    """Ids of tool_uses answered by a following user message, or sitting in the last message."""
    valid: set[str] = set()
    for index, message in enumerate(messages):
        if not _is_assistant_with_blocks(message):
            continue
        answered: set[str] = set()
        follower = index + 1
        while follower < len(messages) and messages[follower].get("role") == "user":
            if _has_array_content(messages[follower]):
                answered |= _leading_tool_result_ids(messages[follower])
            follower += 1
        is_last = index == len(messages) - 1
        for block in message["content"]:
            if block.get("type") == "tool_use" and (is_last or block.get("id") in answered):
                valid.add(block.get("id"))
    return valid


def clean_orphaned_tool_calls(messages: list[Message]) -> list[Message]:
    """Remove tool_uses nobody answered and tool_results nobody asked for."""
    messages = dedupe_tool_results(messages)
    valid = _answered_tool_use_ids(messages)
    result = []
    for message in messages:
        if _is_assistant_with_blocks(message):
            blocks = [b for b in message["content"] if b.get("type") != "tool_use" or b.get("id") in valid]
            lost_every_call = _has_type(message, "tool_use") and not any(b.get("type") == "tool_use" for b in blocks)
            if lost_every_call:
                # Thinking that led only to removed calls would otherwise end the turn.
                blocks = [block for block in blocks if not is_thinking_block(block)]
            message = _with_content(message, blocks)
        elif message.get("role") == "user" and _has_array_content(message):
            message = _with_content(
                message,
                [b for b in message["content"] if b.get("type") != "tool_result" or b.get("tool_use_id") in valid],
            )
        if _has_array_content(message) and not message["content"]:
            continue
        result.append(message)
    return result


def _active_tool_chain(messages: list[Message]) -> set[int]:
    """Indices of the assistant tool_use messages that the conversation's tail still continues."""
    active: set[int] = set()
    index = len(messages) - 1
    while True:
        saw_tool_result = False
        while index >= 0 and messages[index].get("role") == "user":
            saw_tool_result = saw_tool_result or _has_type(messages[index], "tool_result")
            index -= 1
        if index < 0 or not saw_tool_result:
            return active
        if messages[index].get("role") != "assistant" or not _has_type(messages[index], "tool_use"):
            return active
        active.add(index)
        index -= 1


def drop_unsigned_thinking_from_assistant_messages(messages: list[Message]) -> list[Message]:
    """Remove unsigned thinking; in the active tool chain that cannot be repaired, so raise."""
    active = _active_tool_chain(messages)
    result = []
    for index, message in enumerate(messages):
        if _is_assistant_with_blocks(message) and any(_is_unsigned_thinking(b) for b in message["content"]):
            if index in active:
                raise UnsignedThinkingInActiveToolChain(f"assistant message {index} has unsigned thinking")
            message = _with_content(message, [b for b in message["content"] if not _is_unsigned_thinking(b)])
            if not message["content"]:
                continue
        result.append(message)
    return result


def _is_empty_assistant(message: Message) -> bool:
    content = message.get("content")
    if not content:
        return True
    if isinstance(content, str):
        return not content.strip()
    return all(block.get("type") == "text" and not (block.get("text") or "").strip() for block in content)


def strip_trailing_assistant_prefill(messages: list[Message]) -> list[Message]:
    """Pop empty trailing assistant messages; a real one left last gets a "Continue." after it."""
    result = list(messages)
    while result and result[-1].get("role") == "assistant" and _is_empty_assistant(result[-1]):
        result.pop()
    if not result or result[-1].get("role") == "user":
        return result
    result.append({"role": "user", "content": [{"type": "text", "text": "Continue."}]})
    return result


def drop_empty_text_thinking_blocks(messages: list[Message]) -> list[Message]:
    """Outside the latest assistant message, remove thinking blocks with no thinking text."""
    latest = max((i for i, message in enumerate(messages) if message.get("role") == "assistant"), default=-1)
    result = []
    for index, message in enumerate(messages):
        if index != latest and _is_assistant_with_blocks(message):
            kept = [b for b in message["content"] if not (b.get("type") == "thinking" and not b.get("thinking"))]
            if not kept:
                continue
            message = _with_content(message, kept)
        result.append(message)
    return result


def merge_consecutive_user_messages(messages: list[Message]) -> list[Message]:
    """Join adjacent user messages: tool_results first (first of an id wins), then the rest in order."""
    result: list[Message] = []
    for message in messages:
        previous = result[-1] if result else None
        joinable = message.get("role") == "user" and _has_array_content(message)
        if not (joinable and previous is not None and previous.get("role") == "user" and _has_array_content(previous)):
            result.append(message)
            continue
        blocks = previous["content"] + message["content"]
        seen: set[str] = set()
        tool_results = []
        for block in blocks:
            if block.get("type") != "tool_result":
                continue
            result_id = block.get("tool_use_id")
            if result_id is not None and result_id in seen:
                continue
            seen.add(result_id)
            tool_results.append(block)
        others = [block for block in blocks if block.get("type") != "tool_result"]
        result[-1] = _with_content(previous, tool_results + others)
    return result


def ensure_leading_thinking_on_tool_use_assistant_messages(messages: list[Message]) -> list[Message]:
    """Move the first thinking run of every tool_use turn to its front, so that turn serializes alike
    wherever it sits in the conversation (a stable prompt-cache prefix)."""
    result = []
    for message in messages:
        if _is_assistant_with_blocks(message):
            message = _with_content(message, _leading_thinking_order(message["content"]))
        result.append(message)
    return result


def _leading_thinking_order(blocks: list[Block]) -> list[Block]:
    if len(blocks) == 0 or is_thinking_block(blocks[0]):
        return blocks
    if not any(block.get("type") == "tool_use" for block in blocks):
        return blocks
    run_start = next((i for i, block in enumerate(blocks) if is_thinking_block(block)), -1)
    if run_start == -1:
        return blocks
    run_end = run_start
    while run_end < len(blocks) and is_thinking_block(block_at(blocks, run_end)):
        run_end += 1
    return blocks[run_start:run_end] + blocks[:run_start] + blocks[run_end:]


def apply_cache_control(messages: list[Message]) -> list[Message]:
    """Mark the last user message's final text or tool_result block as a cache breakpoint."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.get("role") != "user" or not _has_array_content(message):
            continue
        for position in range(len(message["content"]) - 1, -1, -1):
            block = message["content"][position]
            if block.get("type") in ("text", "tool_result"):
                content = list(message["content"])
                content[position] = {**block, "cache_control": {"type": "ephemeral"}}
                return [*messages[:index], _with_content(message, content), *messages[index + 1 :]]
        return messages
    return messages
