"""What a provider's Chat reasoning is, declared per provider and model: raw, summary or opaque (spec §2)."""

RAW = "raw"  # the model's own thinking, shown and replayed as `reasoning_text`
SUMMARY = "summary"  # a summary of the thinking: shown as `summary_text`, never replayed
OPAQUE = "opaque"  # official summaries with encrypted reasoning: the encrypted part is carried, never shown

# Providers confirmed to send the model's thinking in `reasoning_content` (Qwen documents it so).
RAW_PROVIDERS = frozenset({"qwen", "vllm"})


def reasoning_semantics(provider: str, model: str) -> str:
    """The declared semantics; anything not confirmed raw is a summary (unknown → raw was seed 002's
    too-broad fix: a gateway's summary must not pass for the model's thinking)."""
    provider, model = provider.lower(), model.lower()
    if provider == "openai":
        return OPAQUE
    if provider in RAW_PROVIDERS or model.rsplit("/", 1)[-1].startswith("qwen"):
        return RAW
    return SUMMARY
