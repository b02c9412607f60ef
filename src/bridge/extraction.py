"""The reasoning a Chat message or stream delta carries, whichever field it came in (spec §3).

The field says nothing about what the text is: that is the provider's declared semantics."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bridge.semantics import OPAQUE


@dataclass(frozen=True)
class Reasoning:
    text: str = ""
    encrypted: str = ""  # `reasoning.encrypted` details' data: carried, never text

    def __bool__(self) -> bool:
        return bool(self.text or self.encrypted)

    def kept_under(self, semantics: str) -> "Reasoning":
        """What a conversion keeps: encrypted data only when the semantics are opaque."""
        return self if semantics == OPAQUE else Reasoning(self.text)


def extract_reasoning(fields: Mapping[str, Any]) -> Reasoning:
    """The text of the first present, non-empty of `reasoning_content`, `reasoning` (a string),
    `reasoning.summary` (when an object) and `reasoning_details`; the encrypted details' data."""
    details = fields.get("reasoning_details")
    details = details if isinstance(details, list) else []
    reasoning = fields.get("reasoning")
    summary = reasoning.get("summary") if isinstance(reasoning, dict) else None
    texts = (
        _string(fields.get("reasoning_content")),
        _string(reasoning),
        _summary_text(summary),
        _details_text(details),
    )
    encrypted = "".join(
        _string(detail.get("data")) for detail in details if detail.get("type") == "reasoning.encrypted"
    )
    return Reasoning(next((text for text in texts if text), ""), encrypted)


def _string(value: object) -> str:
    return value if isinstance(value, str) else ""


def _summary_text(summary: object) -> str:
    """A reasoning object's summary: a string, or a list of `{text}` parts."""
    if isinstance(summary, list):
        return "".join(_string(part.get("text")) for part in summary)
    return _string(summary)


def _details_text(details: list[dict[str, Any]]) -> str:
    return "".join(_detail_text(detail) for detail in details)


def _detail_text(detail: dict[str, Any]) -> str:
    kind = detail.get("type")
    if kind == "reasoning.text":
        return _string(detail.get("text"))
    if kind == "reasoning.summary":
        return _string(detail.get("summary"))
    return ""  # `reasoning.encrypted` holds data, not text
