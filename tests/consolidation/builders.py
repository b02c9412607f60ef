"""Short constructors for the part shapes the spec's examples are written in."""

from consolidation.parts import Part
from consolidation.turn import ChatSession, StreamAttempt, process_stream_response

INVOKE_READ = '<invoke name="read_file"><parameter name="path">/a.txt</parameter></invoke>'


def T(text: str, signature: str | None = None) -> Part:
    """A thought with text, optionally signed on the same part."""
    part: Part = {"text": text, "thought": True}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def S(signature: str) -> Part:
    """A text-less signature-only thought (the Anthropic `signature_delta` shape)."""
    return {"thought": True, "thoughtSignature": signature}


def X(text: str) -> Part:
    return {"text": text}


def FC(name: str, call_id: str | None = None, **args: object) -> Part:
    return {"functionCall": {"id": call_id or f"id_{name}", "name": name, "args": args}}


def FR(call_id: str, name: str = "tool") -> Part:
    return {"functionResponse": {"id": call_id, "name": name, "response": {"output": "ok"}}}


def E(text: str, signature: str | None = None) -> Part:
    """A consolidated episode as it is emitted: no signature key when unsigned."""
    return T(text, signature)


def read_call(call_id: str = "xml_call_1") -> Part:
    return {"functionCall": {"id": call_id, "name": "read_file", "args": {"path": "/a.txt"}}}


def attempt(parts: list[Part], finish: str | None = "STOP", **fields: object) -> StreamAttempt:
    """One attempt whose `has_tool_call` follows its parts, as the streaming code computes it."""
    fields.setdefault("has_tool_call", any("functionCall" in part for part in parts))
    return StreamAttempt(parts=parts, finish_reason=finish, **fields)


def run_attempt(parts: list[Part], finish: str | None = "STOP", **fields: object) -> ChatSession:
    """A fresh session after one successful attempt: history and records to assert on."""
    session = ChatSession(history=[{"role": "user", "parts": [X("go")]}])
    process_stream_response(session, attempt(parts, finish, **fields))
    return session


def model_parts(session: ChatSession) -> list[Part]:
    return session.history[-1]["parts"]
