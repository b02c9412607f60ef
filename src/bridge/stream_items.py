"""A stream's open output items: the events each sends when added, per delta and when done (spec §4)."""

from dataclasses import dataclass, field
from typing import Any

from bridge.extraction import Reasoning
from bridge.items import Item, function_call_item, message_item, raw_reasoning_item, summary_reasoning_item

Event = dict[str, Any]


def _added(output_index: int, item: Item) -> Event:
    return {"type": "response.output_item.added", "output_index": output_index, "item": item}


def _done(output_index: int, item: Item) -> Event:
    return {"type": "response.output_item.done", "output_index": output_index, "item": item}


@dataclass
class _OpenItem:
    item_id: str
    output_index: int

    def _at(self) -> Event:
        """The fields that place an event on this item."""
        return {"item_id": self.item_id, "output_index": self.output_index}

    def _finish(self, events: list[Event], item: Item) -> tuple[list[Event], Item]:
        """The item's own done events, then `response.output_item.done` with the finished item."""
        return [*events, _done(self.output_index, item)], item


@dataclass
class RawReasoning(_OpenItem):
    """The model's thinking: `reasoning_text` deltas into content that is empty while in progress."""

    texts: list[str] = field(default_factory=list)

    def added(self) -> Event:
        return _added(self.output_index, {"type": "reasoning", "id": self.item_id, "summary": [], "content": []})

    def delta(self, reasoning: Reasoning) -> list[Event]:
        self.texts.append(reasoning.text)
        return [{"type": "response.reasoning_text.delta", **self._at(), "content_index": 0, "delta": reasoning.text}]

    def done(self) -> tuple[list[Event], Item]:
        text = "".join(self.texts)
        item = raw_reasoning_item(self.item_id, text)
        return self._finish(
            [{"type": "response.reasoning_text.done", **self._at(), "content_index": 0, "text": text}], item
        )


@dataclass
class SummaryReasoning(_OpenItem):
    """A summary in one part, opened by its first text; encrypted data goes on the done item only."""

    texts: list[str] = field(default_factory=list)
    encrypted: list[str] = field(default_factory=list)

    def added(self) -> Event:
        return _added(self.output_index, {"type": "reasoning", "id": self.item_id, "summary": []})

    def delta(self, reasoning: Reasoning) -> list[Event]:
        self.encrypted.append(reasoning.encrypted)
        if not reasoning.text:
            return []
        events = []
        if not self.texts:  # the summary's one part opens with its first text
            events.append({"type": "response.reasoning_summary_part.added", **self._at(), "summary_index": 0})
        self.texts.append(reasoning.text)
        summary_at = {**self._at(), "summary_index": 0}
        events.append({"type": "response.reasoning_summary_text.delta", **summary_at, "delta": reasoning.text})
        return events

    def done(self) -> tuple[list[Event], Item]:
        reasoning = Reasoning("".join(self.texts), "".join(self.encrypted))
        item = summary_reasoning_item(self.item_id, reasoning)
        if not reasoning.text:
            return self._finish([], item)
        summary_at = {**self._at(), "summary_index": 0}
        text_done = {"type": "response.reasoning_summary_text.done", **summary_at, "text": reasoning.text}
        return self._finish([text_done, {"type": "response.reasoning_summary_part.done", **summary_at}], item)


@dataclass
class OpenMessage(_OpenItem):
    texts: list[str] = field(default_factory=list)

    def added(self) -> Event:
        return _added(self.output_index, {"type": "message", "id": self.item_id, "role": "assistant", "content": []})

    def delta(self, text: str) -> list[Event]:
        self.texts.append(text)
        return [{"type": "response.output_text.delta", **self._at(), "content_index": 0, "delta": text}]

    def done(self) -> tuple[list[Event], Item]:
        text = "".join(self.texts)
        item = message_item(self.item_id, text)
        return self._finish(
            [{"type": "response.output_text.done", **self._at(), "content_index": 0, "text": text}], item
        )


@dataclass
class OpenFunctionCall(_OpenItem):
    """One tool call's deltas merged: id and name from the first delta carrying them, arguments joined."""

    call_id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)

    def added(self) -> Event:
        return _added(self.output_index, function_call_item(self.item_id, self.call_id, self.name, ""))

    def identify(self, delta: dict[str, Any]) -> None:
        self.call_id = self.call_id or delta.get("id") or ""
        self.name = self.name or (delta.get("function") or {}).get("name") or ""

    def delta(self, delta: dict[str, Any]) -> list[Event]:
        self.identify(delta)
        piece = (delta.get("function") or {}).get("arguments") or ""
        if not piece:
            return []
        self.arguments.append(piece)
        return [{"type": "response.function_call_arguments.delta", **self._at(), "delta": piece}]

    def done(self) -> tuple[list[Event], Item]:
        arguments = "".join(self.arguments)
        item = function_call_item(self.item_id, self.call_id, self.name, arguments)
        return self._finish(
            [{"type": "response.function_call_arguments.done", **self._at(), "arguments": arguments}], item
        )


OpenItem = RawReasoning | SummaryReasoning | OpenMessage | OpenFunctionCall
