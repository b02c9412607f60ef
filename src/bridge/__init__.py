"""Reference implementation of a Chat Completions → Responses bridge that keeps raw reasoning raw (seed 002)."""

from bridge.extraction import Reasoning, extract_reasoning
from bridge.message import chat_message_to_items
from bridge.replay import items_to_chat_messages
from bridge.semantics import OPAQUE, RAW, SUMMARY, reasoning_semantics
from bridge.stream import chat_stream_to_events

__all__ = [
    "OPAQUE",
    "RAW",
    "SUMMARY",
    "Reasoning",
    "chat_message_to_items",
    "chat_stream_to_events",
    "extract_reasoning",
    "items_to_chat_messages",
    "reasoning_semantics",
]
