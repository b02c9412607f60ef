"""The pre-PR consolidation (merge all thoughts, keep the first signature, hoist), for A/B tests (spec §9)."""

from consolidation.episodes import consolidate_parts
from consolidation.parts import Part, has_function_call, is_signed, is_thought, is_visible_text, joined_text


def legacy_consolidate(
    parts: list[Part], has_tool_call: bool, transport_prefix: str = ""
) -> tuple[list[Part], list[Part]]:
    """(history parts, recorded message) as the base code built them.

    The delivered transport prefix went to index 0 of the non-thought parts, and the merged
    thought was hoisted in front of everything afterwards.
    """
    thoughts = [part for part in parts if is_thought(part)]
    thought_text = joined_text(thoughts)
    thought_part: list[Part] = []
    if thought_text:
        merged: Part = {"text": thought_text, "thought": True}
        first_signed = next((part for part in thoughts if is_signed(part)), None)
        if first_signed is not None:
            merged["thoughtSignature"] = first_signed["thoughtSignature"]
        thought_part = [merged]
    non_thought = consolidate_parts([part for part in parts if not is_thought(part)])
    if transport_prefix:
        non_thought = [{"text": transport_prefix}, *non_thought]
    content_text = joined_text([part for part in non_thought if is_visible_text(part)])
    record = list(thought_part)
    if content_text:
        record.append({"text": content_text})
    if has_tool_call:
        record.extend({"functionCall": part["functionCall"]} for part in non_thought if has_function_call(part))
    return thought_part + non_thought, record
