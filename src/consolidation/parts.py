"""Parts, turns and the predicates over them, with JavaScript truthiness made explicit."""

from typing import Any

Part = dict[str, Any]
Turn = dict[str, Any]

# Keys whose presence makes a part more than plain text.
NON_TEXT_PAYLOAD_KEYS = ("functionCall", "functionResponse", "inlineData", "fileData")


def js_truthy(value: Any) -> bool:
    """Truthiness as JavaScript sees it: empty dicts and lists are truthy, '' and 0 are not."""
    if value is None or value is False:
        return False
    if isinstance(value, str):
        return value != ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value == value and value != 0  # NaN is falsy too
    return True


def is_thought(part: Part) -> bool:
    return js_truthy(part.get("thought"))


def is_signed(part: Part) -> bool:
    """An empty-string signature counts as unsigned."""
    return js_truthy(part.get("thoughtSignature"))


def is_strict_plain_text(part: Part) -> bool:
    """A string `text` (even '') with no thought flag, no signature and no payload."""
    return (
        isinstance(part.get("text"), str)
        and not is_thought(part)
        and not is_signed(part)
        and not any(js_truthy(part.get(key)) for key in NON_TEXT_PAYLOAD_KEYS)
    )


def is_visible_text(part: Part) -> bool:
    """Non-empty text that is not a thought; deliberately looser than strict plain text."""
    return js_truthy(part.get("text")) and not is_thought(part)


def is_valid_content_part(part: Part) -> bool:
    """Rejects only an unsigned, call-less, non-thought part whose text is exactly ''."""
    return not (
        not is_thought(part)
        and not is_signed(part)
        and part.get("text") == ""
        and not js_truthy(part.get("functionCall"))
    )


def has_function_call(part: Part) -> bool:
    return js_truthy(part.get("functionCall"))


def joined_text(parts: list[Part]) -> str:
    """The texts of `parts`, concatenated and trimmed (how thoughtText and contentText are built)."""
    return "".join(part.get("text") or "" for part in parts).strip()
