"""The transport retry gate: replay a stream cut during thinking, continue one cut after text (spec §8)."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from consolidation.parts import has_function_call, is_thought, js_truthy

Chunk = dict[str, Any]

RETRYABLE_STREAM_TRANSPORT_CODES = frozenset({"UND_ERR_SOCKET", "ECONNRESET", "ETIMEDOUT", "EPIPE"})
MAX_REPLAYS = 2
MAX_CONTINUATIONS = 3
REPLAY_DELAY_MS = 1000


class TransportError(Exception):
    """A stream cut by the transport; `code` says whether it may be retried."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def _candidates(chunk: Chunk) -> list[dict[str, Any]]:
    return chunk.get("candidates") or []


def _candidate_parts(candidate: dict[str, Any]) -> list[dict[str, Any]]:
    return (candidate.get("content") or {}).get("parts") or []


def has_non_thought_candidate_parts(chunk: Chunk) -> bool:
    """Any candidate carries a part that is not a thought (text, call, media, even `{}`)."""
    return any(not is_thought(part) for candidate in _candidates(chunk) for part in _candidate_parts(candidate))


def has_candidate_output(chunk: Chunk) -> bool:
    return any(
        js_truthy(candidate.get("finishReason")) or len(_candidate_parts(candidate)) > 0
        for candidate in _candidates(chunk)
    )


def is_tool_call_preparation_only(chunk: Chunk) -> bool:
    """A chunk that only announces a tool call being prepared: no output and no usage."""
    return (
        js_truthy(chunk.get("toolCallPreparation"))
        and not has_candidate_output(chunk)
        and not js_truthy(chunk.get("usageMetadata"))
    )


@dataclass
class AttemptFlags:
    yielded_chunk: bool = False
    yielded_content: bool = False
    yielded_function_call: bool = False

    def observe(self, chunk: Chunk) -> None:
        if not is_tool_call_preparation_only(chunk):
            self.yielded_chunk = True
        if has_non_thought_candidate_parts(chunk):
            self.yielded_content = True
        candidates = _candidates(chunk)
        if candidates and any(has_function_call(part) for part in _candidate_parts(candidates[0])):
            self.yielded_function_call = True


@dataclass(frozen=True)
class RetryDecision:
    action: str  # "replay", "continuation" or "none"
    log: dict[str, Any]


def decide_retry(flags: AttemptFlags, delivered_text: str, replays: int, continuations: int) -> RetryDecision:
    """What to do after a retryable transport error, given what the failed attempt yielded."""
    if not flags.yielded_content and not delivered_text.strip() and replays < MAX_REPLAYS:
        return RetryDecision(
            "replay",
            {"retryDecision": "replay", "attempt": replays + 1, "yieldedNonContentChunks": flags.yielded_chunk},
        )
    if not flags.yielded_function_call and delivered_text and continuations < MAX_CONTINUATIONS:
        return RetryDecision("continuation", {"retryDecision": "continuation", "attempt": continuations + 1})
    reason = "skipped_after_content" if flags.yielded_content else "exhausted"
    return RetryDecision("none", {"retryDecision": reason})


@dataclass
class RetryRun:
    """Everything a caller of the retrying stream observed."""

    events: list[tuple[str, Any]] = field(default_factory=list)
    logs: list[dict[str, Any]] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    sleeps_ms: list[int] = field(default_factory=list)

    @property
    def retry_count(self) -> int:
        return sum(1 for kind, _ in self.events if kind == "retry")


def _visible_text(chunk: Chunk) -> str:
    return "".join(
        part.get("text") or ""
        for candidate in _candidates(chunk)
        for part in _candidate_parts(candidate)
        if not is_thought(part)
    )


def stream_with_retries(
    send: Callable[[str], Iterator[Chunk]],
    run: RetryRun,
    sleep: Callable[[int], None] = lambda _ms: None,
) -> None:
    """Drive `send` ("original" or "continuation:<delivered text>") until a stream completes.

    Chunks, RETRY events and decision logs go to `run`; a non-retryable error, or a retryable one
    that the gate refuses, propagates.
    """
    replays = 0
    continuations = 0
    delivered_text = ""
    request = "original"
    while True:
        run.requests.append(request)
        flags = AttemptFlags()
        try:
            for chunk in send(request):
                flags.observe(chunk)
                delivered_text += _visible_text(chunk)
                run.events.append(("chunk", chunk))
            return
        except TransportError as error:
            if error.code not in RETRYABLE_STREAM_TRANSPORT_CODES:
                raise
            decision = decide_retry(flags, delivered_text, replays, continuations)
            run.logs.append(decision.log)
            if decision.action == "none":
                raise
            if decision.action == "replay":
                replays += 1
                run.events.append(("pop_partial_turn", replays))
                sleep(REPLAY_DELAY_MS * replays)
                continuations = 0
                delivered_text = ""
                request = "original"
            else:
                continuations += 1
                request = f"continuation:{delivered_text}"
            run.events.append(("retry", decision.action))
