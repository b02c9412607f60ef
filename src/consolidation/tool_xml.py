"""Parser for tool calls a model wrote as XML text (`<invoke name=...><parameter ...>`)."""

import json
import re
from dataclasses import dataclass, field

from consolidation.parts import Part

_INVOKE_OPEN = re.compile(r'<invoke\s+name\s*=\s*"([^"<>]*)"\s*>')
_PARAMETER_OPEN = re.compile(r'\s*<parameter\s+name\s*=\s*"([^"<>]*)"\s*>')
_INVOKE_CLOSE = re.compile(r"\s*</invoke>")
_PARAMETER_CLOSE = "</parameter>"
_EMPTY_WRAPPER = re.compile(r"<function_calls>\s*</function_calls>")
_PROTOCOL_TAG = re.compile(r"</?(?:function_calls|invoke|parameter)\b")


@dataclass(frozen=True)
class ParsedToolCalls:
    recovered: bool
    remaining_text: str
    function_call_parts: list[Part] = field(default_factory=list)


def looks_like_tool_call_xml(text: str) -> bool:
    return _INVOKE_OPEN.search(text) is not None


def leaks_protocol_tags(text: str) -> bool:
    """True when tool-call markup is left in text that should be plain prose."""
    return _PROTOCOL_TAG.search(text) is not None


def _parameter_value(raw: str) -> object:
    """Parameters are JSON when they parse as JSON, plain strings otherwise."""
    value = raw.strip()
    try:
        return json.loads(value)
    except ValueError:
        return value


def _parse_invoke(text: str, opening: re.Match[str]) -> tuple[str, dict[str, object], int] | None:
    """Parse the `<invoke>` element `opening` starts: (name, args, end), or None if malformed."""
    args: dict[str, object] = {}
    position = opening.end()
    while True:
        closing = _INVOKE_CLOSE.match(text, position)
        if closing is not None:
            return opening.group(1), args, closing.end()
        parameter = _PARAMETER_OPEN.match(text, position)
        if parameter is None:
            return None
        value_end = text.find(_PARAMETER_CLOSE, parameter.end())
        if value_end == -1:
            return None
        args[parameter.group(1)] = _parameter_value(text[parameter.end() : value_end])
        position = value_end + len(_PARAMETER_CLOSE)


def parse_tool_call_xml(text: str) -> ParsedToolCalls:
    """Extract every well-formed `<invoke>` element; malformed ones stay in the remaining text."""
    calls: list[Part] = []
    kept: list[str] = []
    position = 0
    for match in _INVOKE_OPEN.finditer(text):
        if match.start() < position:
            continue  # inside a parameter value of the call just parsed
        parsed = _parse_invoke(text, match)
        if parsed is None:
            continue
        name, args, end = parsed
        kept.append(text[position : match.start()])
        calls.append({"functionCall": {"id": f"xml_call_{len(calls) + 1}", "name": name, "args": args}})
        position = end
    kept.append(text[position:])
    remaining = _EMPTY_WRAPPER.sub("", "".join(kept)).strip()
    return ParsedToolCalls(recovered=bool(calls), remaining_text=remaining, function_call_parts=calls)
