"""The transport retry gate (spec §8, seed 003): replay during thinking, continuation after text."""

import pytest

from consolidation.retry import (
    MAX_CONTINUATIONS,
    MAX_REPLAYS,
    AttemptFlags,
    RetryRun,
    TransportError,
    decide_retry,
    has_candidate_output,
    has_non_thought_candidate_parts,
    is_tool_call_preparation_only,
    stream_with_retries,
)


def chunk(*parts, finish=None, **extra):
    candidate = {"content": {"role": "model", "parts": list(parts)}}
    if finish:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], **extra}


THINK = chunk({"text": "Let me plan the refactor. ", "thought": True})
VISIBLE = chunk({"text": "RECOVERED_ANSWER_7938"}, finish="STOP")
CALL = chunk({"functionCall": {"name": "f", "args": {}}})
USAGE_ONLY = {"candidates": [], "usageMetadata": {"totalTokenCount": 3}}


def socket_cut():
    return TransportError("terminated", code="UND_ERR_SOCKET")


def scripted(*attempts):
    """A `send` that plays one scripted attempt per call; an exception in a script is raised there."""
    remaining = list(attempts)

    def send(_request):
        for item in remaining.pop(0):
            if isinstance(item, Exception):
                raise item
            yield item

    return send


def run(*attempts):
    result = RetryRun()
    sleeps = []
    stream_with_retries(scripted(*attempts), result, sleeps.append)
    result.sleeps_ms = sleeps
    return result


def run_failing(*attempts):
    result = RetryRun()
    with pytest.raises(TransportError):
        stream_with_retries(scripted(*attempts), result)
    return result


def test_thinking_only_then_socket_error_is_replayed():
    """Seed 003 T-think: expected 2 calls and 1 RETRY; the log says non-content chunks were seen."""
    result = run([THINK, socket_cut()], [VISIBLE])
    assert result.requests == ["original", "original"]
    assert result.retry_count == 1
    assert result.logs == [{"retryDecision": "replay", "attempt": 1, "yieldedNonContentChunks": True}]
    assert result.events[-1] == ("chunk", VISIBLE)
    assert result.sleeps_ms == [1000]


def test_content_then_socket_error_after_a_call_is_not_retried():
    """Seed 003 T-fc-cut (#8861): a call then a cut → 1 call, no RETRY, `skipped_after_content`."""
    result = run_failing([CALL, socket_cut()])
    assert result.requests == ["original"]
    assert result.retry_count == 0
    assert result.logs == [{"retryDecision": "skipped_after_content"}]


def test_thinking_then_content_then_socket_error_continues_instead_of_replaying():
    """Seed 003 T-think-content, as §8 now handles it: no replay; a continuation with the delivered text."""
    result = run([THINK, chunk({"text": "partial answer"}), socket_cut()], [VISIBLE])
    assert result.requests == ["original", "continuation:partial answer"]
    assert result.logs == [{"retryDecision": "continuation", "attempt": 1}]
    assert ("pop_partial_turn", 1) not in result.events


def test_content_in_a_second_candidate_counts_as_content():
    """Kills R5: candidate 2 carries text while candidate 1 only thinks."""
    two_candidates = {
        "candidates": [
            {"content": {"parts": [{"text": "t", "thought": True}]}},
            {"content": {"parts": [{"functionCall": {"name": "f"}}]}},
        ]
    }
    assert has_non_thought_candidate_parts(two_candidates)
    result = run_failing([two_candidates, socket_cut()])
    assert result.logs == [{"retryDecision": "skipped_after_content"}]


def test_usage_only_chunk_does_not_block_a_replay():
    """Seed 003 scenario C: a usage-only chunk is a chunk, but not content."""
    result = run([USAGE_ONLY, socket_cut()], [VISIBLE])
    assert result.retry_count == 1
    assert result.logs[0]["yieldedNonContentChunks"] is True


def test_replays_are_bounded_then_exhausted():
    result = run_failing(*[[THINK, socket_cut()] for _ in range(MAX_REPLAYS + 1)])
    assert result.retry_count == MAX_REPLAYS
    assert result.logs[-1] == {"retryDecision": "exhausted"}


def test_replay_delays_grow_with_the_replay_count():
    sleeps = []
    stream_with_retries(scripted([THINK, socket_cut()], [THINK, socket_cut()], [VISIBLE]), RetryRun(), sleeps.append)
    assert sleeps == [1000, 2000]


def test_continuations_are_bounded():
    text_cut = [chunk({"text": "more "}), socket_cut()]
    result = run_failing(*[text_cut for _ in range(MAX_CONTINUATIONS + 1)])
    assert [log["retryDecision"] for log in result.logs] == ["continuation"] * MAX_CONTINUATIONS + [
        "skipped_after_content"
    ]


def test_non_retryable_errors_propagate_untouched():
    result = RetryRun()
    with pytest.raises(TransportError):
        stream_with_retries(scripted([THINK, TransportError("bad request", code="HTTP_400")]), result)
    assert result.logs == []


def test_decision_without_any_chunk_replays_without_non_content_chunks():
    decision = decide_retry(AttemptFlags(), "", 0, 0)
    assert decision.action == "replay"
    assert decision.log["yieldedNonContentChunks"] is False


def test_preparation_only_chunk_is_not_a_chunk():
    preparation = {"candidates": [], "toolCallPreparation": True}
    flags = AttemptFlags()
    flags.observe(preparation)
    assert is_tool_call_preparation_only(preparation)
    assert flags == AttemptFlags()
    assert not is_tool_call_preparation_only({**preparation, "usageMetadata": {"x": 1}})


@pytest.mark.parametrize(
    ("candidate_chunk", "content", "output"),
    [
        (THINK, False, True),
        (chunk({}), True, True),
        (chunk({"thoughtSignature": "s"}), True, True),
        (chunk(finish="STOP"), False, True),
        (USAGE_ONLY, False, False),
    ],
)
def test_candidate_predicates(candidate_chunk, content, output):
    assert has_non_thought_candidate_parts(candidate_chunk) is content
    assert has_candidate_output(candidate_chunk) is output
