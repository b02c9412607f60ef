"""Streaming conversion: Chat completion chunks to Responses events, reasoning first (spec §4)."""

from collections.abc import Iterable
from typing import Any

from bridge.extraction import Reasoning, extract_reasoning
from bridge.items import Item, item_id
from bridge.semantics import RAW, reasoning_semantics
from bridge.stream_items import Event, OpenFunctionCall, OpenItem, OpenMessage, RawReasoning, SummaryReasoning


def chat_stream_to_events(chunks: Iterable[dict[str, Any]], *, provider: str, model: str) -> list[Event]:
    """Every event of the stream, ending with `response.completed` and its output in output_index order."""
    return stream_events(chunks, reasoning_semantics(provider, model))


def stream_events(chunks: Iterable[dict[str, Any]], semantics: str) -> list[Event]:
    """The conversion with its semantics given (seed 002's root cause: a stream that never had them)."""
    stream = _Stream(semantics)
    for chunk in chunks:
        choices = chunk.get("choices") or []
        if choices:
            stream.feed(choices[0].get("delta") or {})
    return stream.finish()


class _Stream:
    """The open items and the events so far; each item keeps the output_index it started with."""

    def __init__(self, semantics: str) -> None:
        self.semantics = semantics
        self.events: list[Event] = []
        self.started = 0
        self.open: dict[int, OpenItem] = {}
        self.output: dict[int, Item] = {}
        self.reasoning: RawReasoning | SummaryReasoning | None = None
        self.message: OpenMessage | None = None
        self.calls: dict[int, OpenFunctionCall] = {}

    def feed(self, delta: dict[str, Any]) -> None:
        reasoning = extract_reasoning(delta).kept_under(self.semantics)
        if reasoning:
            self._reason(reasoning)
        if delta.get("content"):
            self._text(delta["content"])
        for call in delta.get("tool_calls") or []:
            self._call(call)

    def _reason(self, reasoning: Reasoning) -> None:
        if self.reasoning is None:
            self._close_message()  # reasoning after text: the message is done, a new one follows
            kind = RawReasoning if self.semantics == RAW else SummaryReasoning
            self.reasoning = kind(item_id("rs", self.started), self.started)
            self._add(self.reasoning)
        self.events += self.reasoning.delta(reasoning)

    def _text(self, text: str) -> None:
        self._close_reasoning()
        if self.message is None:
            self.message = OpenMessage(item_id("msg", self.started), self.started)
            self._add(self.message)
        self.events += self.message.delta(text)

    def _call(self, delta: dict[str, Any]) -> None:
        self._close_reasoning()
        index = delta.get("index", 0)
        if index not in self.calls:
            self.calls[index] = OpenFunctionCall(item_id("fc", self.started), self.started)
            self.calls[index].identify(delta)  # the added item names the call when its first delta does
            self._add(self.calls[index])
        self.events += self.calls[index].delta(delta)

    def _add(self, item: OpenItem) -> None:
        self.open[item.output_index] = item
        self.started += 1
        self.events.append(item.added())

    def _close(self, item: OpenItem) -> None:
        del self.open[item.output_index]
        events, self.output[item.output_index] = item.done()
        self.events += events

    def _close_reasoning(self) -> None:
        if self.reasoning is not None:
            self._close(self.reasoning)
            self.reasoning = None

    def _close_message(self) -> None:
        if self.message is not None:
            self._close(self.message)
            self.message = None

    def finish(self) -> list[Event]:
        """Close what is still open (function calls stay open to the end) in output_index order."""
        for item in list(self.open.values()):
            self._close(item)
        output = [self.output[index] for index in sorted(self.output)]
        return [*self.events, {"type": "response.completed", "response": {"output": output}}]
