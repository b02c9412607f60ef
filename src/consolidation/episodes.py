"""Single-pass consolidation of one attempt's parts into reasoning episodes (spec §3)."""

from dataclasses import dataclass, field

from consolidation.parts import (
    Part,
    is_strict_plain_text,
    is_thought,
    is_valid_content_part,
    js_truthy,
)


@dataclass
class EpisodeTracker:
    """The open episode and the consolidated output built so far.

    `trim_episode_text` is the EPISODE_TEXT_TRIM variant: on (the PR head) an episode stores its
    trimmed text; off (later main) it stores the raw text and trims only to test for emptiness.
    """

    trim_episode_text: bool = True
    out: list[Part] = field(default_factory=list)
    open_text: str = ""
    open_signature: str = ""
    has_open: bool = False

    def flush(self) -> None:
        if not self.has_open:
            return
        trimmed = self.open_text.strip()
        text = trimmed if self.trim_episode_text else self.open_text
        if trimmed or self.open_signature:
            episode: Part = {"text": text, "thought": True}
            # An empty signature key would make an unsigned episode look signed-but-empty.
            if self.open_signature:
                episode["thoughtSignature"] = self.open_signature
            self.out.append(episode)
        self.open_text = ""
        self.open_signature = ""
        self.has_open = False

    def add_thought(self, part: Part) -> None:
        text = part["text"] if isinstance(part.get("text"), str) else ""
        # Raw tests on purpose: whitespace-only text still counts as text for the split.
        if self.has_open and text != "" and len(self.open_text) > 0 and self.open_signature != "":
            self.flush()
        self.has_open = True
        self.open_text += text
        if js_truthy(part.get("thoughtSignature")):
            self.open_signature += part["thoughtSignature"]

    def add_non_thought(self, part: Part) -> None:
        self.flush()
        last = self.out[-1] if self.out else None
        if (
            last is not None
            and js_truthy(last.get("text"))
            and is_strict_plain_text(last)
            and is_strict_plain_text(part)
        ):
            # A copy, so the caller's part is never changed by a later merge.
            self.out[-1] = {**last, "text": last["text"] + part["text"]}
        elif is_valid_content_part(part):
            self.out.append(part)


def consolidate_parts(parts: list[Part], *, trim_episode_text: bool = True) -> list[Part]:
    """Fold thoughts into episodes in place, merge adjacent plain text, drop invalid parts."""
    tracker = EpisodeTracker(trim_episode_text=trim_episode_text)
    for part in parts:
        if is_thought(part):
            tracker.add_thought(part)
        else:
            tracker.add_non_thought(part)
    tracker.flush()
    return tracker.out
