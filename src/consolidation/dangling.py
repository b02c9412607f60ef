"""The dangling-unsigned-trailing-thought guard shared by the four drop sites (spec §4)."""

from consolidation.parts import Part, is_signed, is_thought, js_truthy


def is_dangling_unsigned_thought(part: Part | None) -> bool:
    return part is not None and is_thought(part) and js_truthy(part.get("text")) and not is_signed(part)


def drop_dangling_unsigned_trailing_thought(parts: list[Part], gate: bool) -> None:
    """Remove the last part, once, when `gate` holds and it is a dangling unsigned thought.

    Only the tail: truncation can leave only the last episode unsigned, and an unsigned thought
    earlier in the turn is a complete shape for providers that do not sign.
    """
    if not gate:
        return
    if parts and is_dangling_unsigned_thought(parts[-1]):
        parts.pop()
