"""Declared semantics per provider and model (spec §2, seed 002's retrospective)."""

import pytest

from bridge import OPAQUE, RAW, SUMMARY, reasoning_semantics


@pytest.mark.parametrize("model", ["gpt-5", "o3", "qwen3.8"])
def test_openai_is_opaque_whatever_the_model(model):
    assert reasoning_semantics("openai", model) == OPAQUE


@pytest.mark.parametrize(("provider", "model"), [("vllm", "qwen3.8"), ("vllm", "llama-3.3-70b"), ("qwen", "max")])
def test_qwen_and_vllm_providers_are_raw(provider, model):
    assert reasoning_semantics(provider, model) == RAW


@pytest.mark.parametrize(
    ("provider", "model"),
    [("openrouter", "Qwen/Qwen3-32B"), ("example-gateway", "qwen3.8"), ("together", "org/team/qwen2.5-72b")],
)
def test_a_qwen_model_is_raw_whoever_serves_it(provider, model):
    assert reasoning_semantics(provider, model) == RAW


@pytest.mark.parametrize("model", ["qwen-mirror/llama-3", "my-qwen3", "deepseek/deepseek-r1-distill-qwen", "qwq-32b"])
def test_qwen_must_start_the_models_last_segment(model):
    assert reasoning_semantics("openrouter", model) == SUMMARY


@pytest.mark.parametrize(
    ("provider", "model", "expected"),
    [("OpenAI", "GPT-5", OPAQUE), ("VLLM", "Llama-3", RAW), ("Qwen", "Max", RAW), ("OpenRouter", "QWEN/QWEN3-8B", RAW)],
)
def test_names_compare_case_insensitively(provider, model, expected):
    assert reasoning_semantics(provider, model) == expected


@pytest.mark.parametrize(
    ("provider", "model"),
    [("example-gateway", "gpt-x"), ("deepseek", "deepseek-reasoner"), ("openrouter", "anthropic/claude-4"), ("", "")],
)
def test_unknown_providers_and_gateways_are_summaries(provider, model):
    assert reasoning_semantics(provider, model) == SUMMARY
