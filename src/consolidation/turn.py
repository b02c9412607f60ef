"""One attempt's pipeline after consolidation: drops, XML recovery, validation, record, push (spec §5)."""

from dataclasses import dataclass, field
from enum import Enum

from consolidation.dangling import drop_dangling_unsigned_trailing_thought, is_dangling_unsigned_thought
from consolidation.episodes import consolidate_parts
from consolidation.parts import (
    Part,
    Turn,
    has_function_call,
    is_strict_plain_text,
    is_thought,
    is_visible_text,
    joined_text,
)
from consolidation.recovery import merge_delivered_prefix
from consolidation.tool_xml import leaks_protocol_tags, looks_like_tool_call_xml, parse_tool_call_xml

EMPTY_CONTENT_FILLER = "(empty content)"
STRUCTURED_OUTPUT_TOOL = "structured_output"
REDACTED_ARGS = {"redacted": "structured output is not recorded"}


class InvalidStreamKind(Enum):
    PROTOCOL_TAG_LEAK = "PROTOCOL_TAG_LEAK"
    NO_FINISH_REASON = "NO_FINISH_REASON"
    NO_TOOL_RESULT_PROGRESS = "NO_TOOL_RESULT_PROGRESS"
    NO_TOOL_RESULT_PROGRESS_MAX_TOKENS = "NO_TOOL_RESULT_PROGRESS_MAX_TOKENS"
    NO_RESPONSE_TEXT = "NO_RESPONSE_TEXT"


class InvalidStreamError(Exception):
    """A stream that ended without an error but cannot become a model turn."""

    def __init__(self, kind: InvalidStreamKind) -> None:
        super().__init__(kind.value)
        self.kind = kind


@dataclass(frozen=True)
class StreamAttempt:
    """What one attempt's stream delivered, as known when consolidation runs (spec §2)."""

    parts: list[Part]
    has_tool_call: bool = False
    finish_reason: str | None = None
    stream_error: Exception | None = None
    transport_prefix: str = ""
    usage_metadata: dict[str, int] | None = None


@dataclass
class ChatSession:
    """The state one attempt reads and writes: history, written records, the pending partial turn."""

    history: list[Turn] = field(default_factory=list)
    records: list[list[Part]] = field(default_factory=list)
    pending_partial_record: list[Part] | None = None
    pending_partial_turn: int | None = None
    trim_episode_text: bool = True


@dataclass(frozen=True)
class AttemptOutcome:
    parts: list[Part]
    thought_text: str
    content_text: str
    recovered_calls: list[Part]
    will_persist: bool


def is_tool_result_continuation(history: list[Turn]) -> bool:
    if not history or history[-1].get("role") != "user":
        return False
    return any("functionResponse" in part for part in history[-1].get("parts") or [])


def recover_xml_tool_calls(parts: list[Part], content_text: str) -> list[Part]:
    """Replace visible text that holds XML tool calls by the remaining text and the calls, in place."""
    parsed = parse_tool_call_xml(content_text)
    if not parsed.recovered:
        return []
    # Captured before removal: afterwards an earlier, complete episode can look trailing.
    had_trailing_dangling_thought = is_dangling_unsigned_thought(parts[-1] if parts else None)
    removed = [index for index, part in enumerate(parts) if is_visible_text(part)]
    for index in reversed(removed):
        del parts[index]
    insert_at = min(removed[0] if removed else 0, len(parts))
    if had_trailing_dangling_thought:
        drop_dangling_unsigned_trailing_thought(parts, True)
    if parsed.remaining_text:
        parts.insert(min(insert_at, len(parts)), {"text": parsed.remaining_text})
    parts.extend(parsed.function_call_parts)
    return parsed.function_call_parts


def validate_stream(
    content_text: str,
    thought_text: str,
    has_tool_call: bool,
    finish_reason: str | None,
    tool_result_continuation: bool,
) -> None:
    """Raise InvalidStreamError for a stream that ended cleanly but is unusable (spec §5.2)."""
    if leaks_protocol_tags(content_text) and not has_tool_call:
        raise InvalidStreamError(InvalidStreamKind.PROTOCOL_TAG_LEAK)
    has_any_content = bool(content_text or thought_text)
    lacks_progress = tool_result_continuation and content_text in ("", EMPTY_CONTENT_FILLER)
    if has_tool_call or (finish_reason and has_any_content and not lacks_progress):
        return
    if not finish_reason:
        raise InvalidStreamError(InvalidStreamKind.NO_FINISH_REASON)
    if lacks_progress:
        if finish_reason == "MAX_TOKENS":
            raise InvalidStreamError(InvalidStreamKind.NO_TOOL_RESULT_PROGRESS_MAX_TOKENS)
        raise InvalidStreamError(InvalidStreamKind.NO_TOOL_RESULT_PROGRESS)
    raise InvalidStreamError(InvalidStreamKind.NO_RESPONSE_TEXT)


def build_record(parts: list[Part]) -> list[Part]:
    """The JSONL message: a fresh list, calls stripped to the call, everything else verbatim."""
    record: list[Part] = []
    for part in parts:
        if has_function_call(part):
            call = part["functionCall"]
            if call.get("name") == STRUCTURED_OUTPUT_TOOL:
                call = {**call, "args": REDACTED_ARGS}
            record.append({"functionCall": call})
        else:
            record.append(part)
    return record


def process_stream_response(session: ChatSession, attempt: StreamAttempt) -> AttemptOutcome:
    """Consolidate one attempt, validate it, record it and push it to history.

    Raises InvalidStreamError for an unusable clean stream, and re-raises the attempt's own
    stream error after persisting what may be persisted.
    """
    tool_result_continuation = is_tool_result_continuation(session.history)
    parts = consolidate_parts(attempt.parts, trim_episode_text=session.trim_episode_text)
    has_tool_call = attempt.has_tool_call
    drop_dangling_unsigned_trailing_thought(parts, has_tool_call)
    thought_text = joined_text([part for part in parts if is_thought(part)])
    content_text = joined_text([part for part in parts if is_visible_text(part)])

    recovered_calls: list[Part] = []
    if (
        attempt.stream_error is None
        and not has_tool_call
        and attempt.finish_reason
        and content_text
        and looks_like_tool_call_xml(content_text)
    ):
        recovered_calls = recover_xml_tool_calls(parts, content_text)
        if recovered_calls:
            has_tool_call = True
            content_text = joined_text([part for part in parts if is_visible_text(part)])

    if attempt.stream_error is None:
        validate_stream(content_text, thought_text, has_tool_call, attempt.finish_reason, tool_result_continuation)

    will_persist = attempt.stream_error is None or (has_tool_call and len(parts) > 0)

    if attempt.stream_error is None and attempt.transport_prefix:
        first_plain = next((i for i, part in enumerate(parts) if is_strict_plain_text(part)), None)
        if first_plain is None:
            drop_dangling_unsigned_trailing_thought(parts, True)
            insert_at = next((i for i, part in enumerate(parts) if not is_thought(part)), len(parts))
            parts.insert(insert_at, {"text": attempt.transport_prefix})
        else:
            merged_text = merge_delivered_prefix(attempt.transport_prefix, parts[first_plain]["text"])
            parts[first_plain] = {**parts[first_plain], "text": merged_text}

    if will_persist and (parts or attempt.usage_metadata):
        record = build_record(parts)
        if attempt.stream_error is None:
            session.records.append(record)
        else:
            session.pending_partial_record = record

    if will_persist:
        session.history.append({"role": "model", "parts": parts})
        if attempt.stream_error is not None:
            session.pending_partial_turn = len(session.history) - 1
    if attempt.stream_error is not None:
        raise attempt.stream_error
    return AttemptOutcome(parts, thought_text, content_text, recovered_calls, will_persist)
