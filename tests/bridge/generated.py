"""Hypothesis strategies: Chat streams of any reasoning field, with encrypted details and tool calls."""

from hypothesis import strategies as st

from tests.bridge.examples import GATEWAY, OFFICIAL, RAW_TARGET
from tests.bridge.streams import chunk, finish, tool_delta

# Visible text never holds "ENC:", so finding it in a text means encrypted data leaked there.
words = st.text(alphabet="ab .\n", min_size=1, max_size=5)
secrets = st.text(alphabet="XYZ019", min_size=2, max_size=6).map(lambda data: f"ENC:{data}")
targets = st.sampled_from([RAW_TARGET, GATEWAY, OFFICIAL])
fields = st.sampled_from(["reasoning_content", "reasoning", "reasoning.summary", "reasoning_details"])
pieces = st.one_of(words.map(lambda text: ("text", text)), secrets.map(lambda data: ("data", data)))
calls = st.tuples(st.sampled_from(["exec_command", "read"]), st.lists(words, min_size=1, max_size=3))


def _reasoning_delta(field, kind, piece):
    if kind == "data":
        return {"reasoning_details": [{"type": "reasoning.encrypted", "data": piece}]}
    if field == "reasoning.summary":
        return {"reasoning": {"summary": piece}}
    if field == "reasoning_details":
        return {"reasoning_details": [{"type": "reasoning.text", "text": piece}]}
    return {field: piece}


@st.composite
def streams(draw):
    """A response as one provider streams it: reasoning pieces (in one field) mixed with encrypted
    details, then text, then tool calls, each call's arguments in pieces."""
    field = draw(fields)
    deltas = [_reasoning_delta(field, kind, piece) for kind, piece in draw(st.lists(pieces, max_size=4))]
    text = [{"content": piece} for piece in draw(st.lists(words, max_size=3))]
    if deltas and text and draw(st.booleans()):  # the last reasoning and the first text in one delta
        deltas[-1] = {**deltas[-1], **text.pop(0)}
    deltas += text
    for index, (name, arguments) in enumerate(draw(st.lists(calls, max_size=3))):
        deltas.append({"tool_calls": [tool_delta(index, f"c{index}", name, arguments[0])]})
        deltas += [{"tool_calls": [tool_delta(index, arguments=piece)]} for piece in arguments[1:]]
    return [*(chunk(**delta) for delta in deltas), finish()]
