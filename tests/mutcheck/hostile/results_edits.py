"""The golden results and Hypothesis strategies that edit them: hostile text, JSON values, values alike."""

import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

RESULTS = json.loads((Path(__file__).parents[1] / "golden" / "results.json").read_text(encoding="utf-8"))
SNIPPETS = [
    "@octocat", "#12", "o/r#3", "GH-4", "https://x.test", "www.x.test", "0123456789abcdef0123", "`", "```",
    "<!-- mutcheck -->", "</details>", "<details>", "|", "\n", "\u202e", "\u200b", "\ufeff", "$x$", "\\", "[a](b)",
]  # fmt: skip
hostile_text = st.lists(st.one_of(st.text(max_size=12), st.sampled_from(SNIPPETS)), max_size=6).map("".join)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=8,
)


def leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for child in value.values() for leaf in leaves(child)]
    if isinstance(value, list):
        return [leaf for child in value for leaf in leaves(child)]
    return [value]


def paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON document, as a path of keys and indexes."""
    places = [path]
    if isinstance(value, dict):
        places += [p for key, child in value.items() for p in paths(child, (*path, key))]
    elif isinstance(value, list):
        places += [p for index, child in enumerate(value) for p in paths(child, (*path, index))]
    return places


# Strings of the document itself (test ids, ids, languages, outcome words…) and a few indexes:
# edits made of them pass the schema and refer to things that may not exist.
POOL = sorted({value for value in leaves(RESULTS) if isinstance(value, str)} | {"01", "7", "99", "zh", "en"})


@st.composite
def alike(draw: st.DrawFn, value: Any, strings: st.SearchStrategy[str] | None = None) -> Any:
    """A value of the same JSON type: what passes the schema but not necessarily the meaning;
    `strings` adds to the strings drawn."""
    strings = st.nothing() if strings is None else strings
    if isinstance(value, bool):
        return draw(st.booleans())
    if isinstance(value, int):
        return draw(st.integers(min_value=0, max_value=12))
    if isinstance(value, float):
        return draw(st.floats(min_value=0, max_value=1e9))
    if isinstance(value, str):
        return draw(st.sampled_from(["7", "99", "01"]) | st.sampled_from(POOL) | hostile_text | strings)
    if isinstance(value, list):
        if value and draw(st.booleans()):
            return [*value, draw(alike(draw(st.sampled_from(value)), strings))]
        return value[: draw(st.integers(min_value=0, max_value=len(value)))]
    if isinstance(value, dict) and value:
        changed = dict(value)
        if draw(st.booleans()):
            key = draw(st.sampled_from(["7", "99", "01"]) | st.sampled_from(POOL) | strings)
            changed[key] = draw(alike(draw(st.sampled_from(list(value.values()))), strings))
        else:
            changed.pop(draw(st.sampled_from(list(value))))
        return changed
    return value
