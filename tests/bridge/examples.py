"""The worked examples' inputs (B1–B8), shared by the tests that check them."""

from tests.bridge.streams import chunk, finish, tool_delta

RAW_TARGET = {"provider": "vllm", "model": "qwen3.8"}
GATEWAY = {"provider": "example-gateway", "model": "gpt-x"}
OFFICIAL = {"provider": "openai", "model": "gpt-5"}

# B1/B2: the same stream from a raw and from a summary provider
THINK_THEN_ANSWER = [
    chunk(reasoning_content="Let me"),
    chunk(reasoning_content=" check."),
    chunk(content="Done."),
    finish(),
]

ENCRYPTED = "gAAAAB5-OPAQUE-BLOB-9f3c"

# B5: an official summary with encrypted reasoning beside it
SUMMARY_AND_ENCRYPTED = [
    chunk(reasoning_details=[{"type": "reasoning.summary", "summary": "Checking the files."}]),
    chunk(reasoning_details=[{"type": "reasoning.encrypted", "data": ENCRYPTED}]),
    chunk(content="Done."),
    finish(),
]

# B6: the seed's tool loop, two identical calls in one response
IDENTICAL_CALLS = [
    chunk(reasoning_content="List the files."),
    chunk(tool_calls=[tool_delta(0, "c1", "exec_command", '{"cmd": ')]),
    chunk(tool_calls=[tool_delta(0, arguments='"ls"}')]),
    chunk(tool_calls=[tool_delta(1, "c2", "exec_command", '{"cmd": "ls"}')]),
    finish("tool_calls"),
]

# B3/B4: the seed's tool turn as the client sends it back
TOOL_TURN = [
    {"type": "message", "role": "user", "content": "List the files."},
    {
        "type": "reasoning",
        "id": "rs_0",
        "summary": [],
        "content": [{"type": "reasoning_text", "text": "I will list files"}],
    },
    {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "exec_command", "arguments": '{"cmd": "ls"}'},
    {"type": "function_call_output", "call_id": "call_1", "output": "a.txt"},
]
