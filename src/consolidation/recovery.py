"""Recovery coalescing: folding a truncated turn and its continuation into one (spec §6)."""

import re

from consolidation.dangling import drop_dangling_unsigned_trailing_thought
from consolidation.parts import Part, Turn, has_function_call, is_strict_plain_text

_OVERLAP_SCAN_LIMIT = 4000
_CONTAINED_PREFIX_WINDOW = 400
_CONTAINED_PREFIX_MIN_BYTES = 12
_MARKDOWN_BLOCK_ANCHOR = re.compile(
    r"(?:\|(?:[^|\n]*\|){2,}"  # a table row with at least three pipes
    r"|\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*(?:\n|$)"  # a table separator row
    r"|#{1,6} |```|> |[-*+] |\d+\. )"
)


def _utf8_length(text: str) -> int:
    return len(text.encode("utf-8"))


def is_significant_overlap(overlap: str) -> bool:
    """Long or structured enough that matching it is not a coincidence."""
    if any(mark in overlap for mark in "#|`\n") and _utf8_length(overlap) >= 4:
        return True
    return _utf8_length(overlap) >= 6 and len(overlap) >= 4


def _strip_contained_prefix(previous: str, continuation: str) -> str | None:
    """The continuation minus a replayed Markdown block already inside `previous`, if any."""
    stripped = continuation.lstrip()
    if not _MARKDOWN_BLOCK_ANCHOR.match(stripped):
        return None
    window = previous[-_CONTAINED_PREFIX_WINDOW:]
    longest = 0
    for start in range(len(window)):
        if start > 0 and window[start - 1] != "\n":
            continue
        length = 0
        while start + length < len(window) and length < len(stripped) and window[start + length] == stripped[length]:
            length += 1
        longest = max(longest, length)
    prefix = stripped[:longest]
    if _utf8_length(prefix) < _CONTAINED_PREFIX_MIN_BYTES:
        return None
    remainder = stripped[longest:]
    if prefix.endswith("\n") and not previous.endswith("\n") and remainder and not remainder.startswith("\n"):
        remainder = "\n" + remainder
    return remainder


def get_recovery_continuation_suffix(previous: str, continuation: str) -> str:
    """The part of `continuation` that `previous` does not already end with (spec §6.3)."""
    if not previous or not continuation:
        return continuation
    if previous.endswith(continuation) and is_significant_overlap(continuation):
        return ""
    for length in range(min(len(previous), len(continuation), _OVERLAP_SCAN_LIMIT), 0, -1):
        overlap = continuation[:length]
        if is_significant_overlap(overlap) and previous.endswith(overlap):
            return continuation[length:]
    remainder = _strip_contained_prefix(previous, continuation)
    return continuation if remainder is None else remainder


def merge_delivered_prefix(delivered: str, continuation: str) -> str:
    return delivered + get_recovery_continuation_suffix(delivered, continuation)


def _last_index(parts: list[Part]) -> int | None:
    return next((i for i in range(len(parts) - 1, -1, -1) if is_strict_plain_text(parts[i])), None)


def _first_index(parts: list[Part]) -> int | None:
    return next((i for i, part in enumerate(parts) if is_strict_plain_text(part)), None)


def append_recovery_continuation_parts(previous: list[Part], continuation: list[Part]) -> list[Part]:
    """Join a truncated turn's parts with its continuation's, text into text (spec §6.2)."""
    merged = list(previous)
    rest = list(continuation)
    previous_text_at = _last_index(merged)
    continuation_text_at = _first_index(rest)
    if previous_text_at is None or continuation_text_at is None:
        return merged + rest
    text_part = merged[previous_text_at]
    suffix = get_recovery_continuation_suffix(text_part["text"], rest[continuation_text_at]["text"])
    if suffix:
        merged[previous_text_at] = {**text_part, "text": text_part["text"] + suffix}
    leading = rest[:continuation_text_at]
    rest = rest[continuation_text_at + 1 :]
    # Provenance hoist: a thought stays in front of the text it produced.
    merged[previous_text_at:previous_text_at] = leading
    return merged + rest


def coalesce_recovery_pairs(history: list[Turn], pair_count: int) -> None:
    """Fold the last `pair_count` (model, user recovery, model) triples of `history`, in place."""
    for _ in range(pair_count):
        if len(history) < 3:
            return
        preceding, user_recovery, continuation = history[-3:]
        if (preceding.get("role"), user_recovery.get("role"), continuation.get("role")) != ("model", "user", "model"):
            return
        continuation_parts = continuation.get("parts") or []
        if preceding.get("parts") is not None:
            # Before the merge: afterwards the truncated episode is no longer last.
            continues_with_call = any(has_function_call(part) for part in continuation_parts)
            drop_dangling_unsigned_trailing_thought(preceding["parts"], continues_with_call)
        preceding["parts"] = append_recovery_continuation_parts(preceding.get("parts") or [], continuation_parts)
        del history[-2:]
