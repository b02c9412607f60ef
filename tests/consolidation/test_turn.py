"""One attempt's pipeline: validation order, persistence, recording, history (spec §5.2, §5.3, §5.5, §5.6)."""

import pytest

from consolidation.turn import (
    EMPTY_CONTENT_FILLER,
    REDACTED_ARGS,
    STRUCTURED_OUTPUT_TOOL,
    ChatSession,
    InvalidStreamError,
    InvalidStreamKind,
    build_record,
    is_tool_result_continuation,
    process_stream_response,
)
from tests.consolidation.builders import FC, FR, E, S, T, X, attempt, model_parts, run_attempt


class SocketCut(Exception):
    pass


def _tool_result_session() -> ChatSession:
    return ChatSession(history=[{"role": "user", "parts": [FR("id_f")]}])


def test_recording_interleaved_turn_equals_history():
    """Recording: for interleaved turns the JSONL equals history (seed 000, ~3141)."""
    fc1, fc2 = FC("one", "call1"), FC("two", "call2")
    session = run_attempt([T("visible reasoning"), S("sig1"), fc1, S("sig2"), fc2])
    assert session.records == [
        [
            E("visible reasoning", "sig1"),
            {"functionCall": fc1["functionCall"]},
            E("", "sig2"),
            {"functionCall": fc2["functionCall"]},
        ]
    ]
    assert model_parts(session) == session.records[0]


def test_recording_keeps_media_verbatim():
    """Recording (S7): [{text}, {inlineData}] is recorded verbatim."""
    media = {"inlineData": {"mimeType": "image/png", "data": "BASE64BLOB"}}
    session = run_attempt([X("here is the image"), media])
    assert session.records == [[X("here is the image"), media]]


def test_record_is_a_fresh_list():
    parts = [X("a")]
    record = build_record(parts)
    assert record == parts
    assert record is not parts


def test_record_strips_call_siblings_and_redacts_structured_output():
    call = {"text": "visible", "functionCall": {"id": "c", "name": STRUCTURED_OUTPUT_TOOL, "args": {"secret": 1}}}
    assert build_record([call]) == [
        {"functionCall": {"id": "c", "name": STRUCTURED_OUTPUT_TOOL, "args": REDACTED_ARGS}}
    ]


def test_record_keeps_ordinary_call_args():
    call = FC("tool", "c", path="/x")
    assert build_record([call]) == [{"functionCall": {"id": "c", "name": "tool", "args": {"path": "/x"}}}]


def test_history_holds_the_consolidated_parts_as_a_model_turn():
    session = run_attempt([X("hello")])
    assert session.history[-1] == {"role": "model", "parts": [X("hello")]}


def test_outcome_reports_texts_and_recovered_calls():
    session = ChatSession()
    outcome = process_stream_response(session, attempt([T("plan", "s"), X("answer ")]))
    assert (outcome.thought_text, outcome.content_text) == ("plan", "answer")
    assert outcome.recovered_calls == []
    assert outcome.will_persist


def test_stream_error_with_a_call_persists_a_partial_turn_and_reraises():
    fc = FC("f")
    session = ChatSession(history=[{"role": "user", "parts": [X("go")]}])
    with pytest.raises(SocketCut):
        process_stream_response(session, attempt([T("a"), S("s"), fc, T("partial")], stream_error=SocketCut()))
    assert session.history[-1]["parts"] == [E("a", "s"), fc]
    assert session.pending_partial_turn == 1
    assert session.pending_partial_record == [E("a", "s"), {"functionCall": fc["functionCall"]}]
    assert session.records == []


def test_stream_error_with_only_thoughts_persists_nothing():
    session = ChatSession(history=[{"role": "user", "parts": [X("go")]}])
    with pytest.raises(SocketCut):
        process_stream_response(session, attempt([T("thinking only")], stream_error=SocketCut()))
    assert len(session.history) == 1
    assert session.pending_partial_record is None
    assert session.pending_partial_turn is None


def test_stream_error_skips_validation_and_xml_recovery():
    session = ChatSession()
    with pytest.raises(SocketCut):
        process_stream_response(session, attempt([X("<invoke")], finish=None, stream_error=SocketCut()))
    assert session.history == []


def test_no_finish_reason_raises_first():
    with pytest.raises(InvalidStreamError) as raised:
        run_attempt([X("text")], finish=None)
    assert raised.value.kind is InvalidStreamKind.NO_FINISH_REASON


def test_tool_result_continuation_without_progress():
    session = _tool_result_session()
    with pytest.raises(InvalidStreamError) as raised:
        process_stream_response(session, attempt([X(EMPTY_CONTENT_FILLER)]))
    assert raised.value.kind is InvalidStreamKind.NO_TOOL_RESULT_PROGRESS


def test_tool_result_continuation_without_progress_after_max_tokens():
    session = _tool_result_session()
    with pytest.raises(InvalidStreamError) as raised:
        process_stream_response(session, attempt([T("thinking")], finish="MAX_TOKENS"))
    assert raised.value.kind is InvalidStreamKind.NO_TOOL_RESULT_PROGRESS_MAX_TOKENS


def test_tool_result_continuation_with_text_is_progress():
    session = _tool_result_session()
    process_stream_response(session, attempt([X("done")]))
    assert session.history[-1]["parts"] == [X("done")]


def test_usage_metadata_alone_records_an_empty_message():
    session = ChatSession()
    with pytest.raises(SocketCut):
        process_stream_response(
            session, attempt([FC("f")], stream_error=SocketCut(), usage_metadata={"totalTokenCount": 3})
        )
    assert session.pending_partial_record == [{"functionCall": FC("f")["functionCall"]}]


@pytest.mark.parametrize(
    ("history", "expected"),
    [
        ([], False),
        ([{"role": "model", "parts": [FR("x")]}], False),
        ([{"role": "user", "parts": [X("hi")]}], False),
        ([{"role": "user", "parts": [X("hi"), FR("x")]}], True),
        ([{"role": "user"}], False),
    ],
)
def test_tool_result_continuation_detection(history, expected):
    assert is_tool_result_continuation(history) is expected
