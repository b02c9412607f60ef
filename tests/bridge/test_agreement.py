"""Streaming and non-streaming conversions agree on the same content (spec §5, B8)."""

import pytest
from hypothesis import given

from bridge import chat_message_to_items, chat_stream_to_events
from tests.bridge.examples import (
    GATEWAY,
    IDENTICAL_CALLS,
    OFFICIAL,
    RAW_TARGET,
    SUMMARY_AND_ENCRYPTED,
    THINK_THEN_ANSWER,
)
from tests.bridge.generated import streams, targets
from tests.bridge.streams import assemble, completed_output, without_ids


def agree(chunks, target):
    streamed = without_ids(completed_output(chat_stream_to_events(chunks, **target)))
    assert streamed == without_ids(chat_message_to_items(assemble(chunks), **target))
    return streamed


@pytest.mark.parametrize(
    ("chunks", "target"),
    [
        (THINK_THEN_ANSWER, RAW_TARGET),
        (THINK_THEN_ANSWER, GATEWAY),
        (SUMMARY_AND_ENCRYPTED, OFFICIAL),
        (IDENTICAL_CALLS, RAW_TARGET),
    ],
    ids=["b1", "b2", "b5", "b6"],
)
def test_b8_non_streaming_equals_the_streamed_output(chunks, target):
    assert agree(chunks, target)  # and each example has output to compare


@given(streams(), targets)
def test_streaming_and_non_streaming_agree(chunks, target):
    agree(chunks, target)
