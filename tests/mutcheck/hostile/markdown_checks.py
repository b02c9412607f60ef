"""What a review comment must never contain, checked on the Markdown as a parser reads it."""

import re
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from mutcheck.core.escape import MARKER, visible
from mutcheck.core.texts import say
from mutcheck.report.markdown import COMMENT_LIMIT

# Raw characters that hide or reorder text; the comment must spell them out instead.
INVISIBLE = re.compile("[\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff\u200e\u200f\u061c]")
# The one raw invisible character we write: the zero-width space that breaks a link or reference.
OUR_BREAKS = re.compile(
    "(?<=@)\u200b|(?<=#)\u200b(?=[0-9])|(?<=gh-)\u200b(?=[0-9])|(?<=:)\u200b(?=//)|(?<=www)\u200b(?=\\.)"
    "|(?<=[0-9a-f]{6})\u200b(?=[0-9a-f])",
    re.IGNORECASE,
)
# Entities where a Markdown escape would do: e-mails and the API show them raw.
ENTITIES = re.compile(r"&(#[0-9]+|#x[0-9a-f]+|[a-z]+);", re.IGNORECASE)
# What GitHub would link in text (not in code): each must be broken by a zero-width space.
LIVE = {
    "mention": re.compile(r"@(?!\u200b)"),
    "issue reference": re.compile(r"#[0-9]|\bgh-[0-9]", re.IGNORECASE),
    "URL": re.compile(r"https?://|www\.|://", re.IGNORECASE),
    "commit SHA": re.compile(r"\b[0-9a-f]{7,40}\b", re.IGNORECASE),
}
# The only HTML we write: the marker, the collapsed sections, the footer, line breaks in the legend.
OURS = re.compile(r"<details>|</details>|<summary>[^<]*</summary>|<sub>|</sub>|<br>|" + re.escape(MARKER))


def tokens(body: str) -> list[Token]:
    return MarkdownIt("commonmark").enable("table").parse(body)


def assert_inert(body: str, results: dict[str, Any], languages: tuple[str, ...]) -> None:
    assert body.startswith(MARKER + "\n")
    assert len(body) <= COMMENT_LIMIT
    assert not INVISIBLE.search(OUR_BREAKS.sub("", body)), INVISIBLE.search(OUR_BREAKS.sub("", body))
    assert not ENTITIES.search(body), ENTITIES.search(body)
    parsed = tokens(body)
    html = "".join(t.content for t in parsed if t.type == "html_block")
    inlines = [t for t in parsed if t.type == "inline"]
    html += "".join(c.content for t in inlines for c in t.children or [] if c.type == "html_inline")
    assert OURS.sub("", html).strip() == "", html  # no HTML, comment or marker of anyone else's
    assert html.count(MARKER) == 1  # in code, a marker is only text
    for lang in languages[1:]:  # each language after the first, collapsed under its own name
        assert html.count(f"<summary>{say(lang, 'text', 'language_section')}</summary>") == 1
    headlines_only = "####" not in body  # nothing else fitted: each language's verdict alone
    expected = len(languages) - 1 if headlines_only else expected_details(results, languages)
    assert html.count("<details>") == html.count("</details>") == expected
    head_sha = results["run"]["head_sha"]
    for position, token in enumerate(inlines):
        children = token.children or []
        assert not [c for c in children if c.type in ("link_open", "image")], token.content
        # a code span only where a catalog text wrote one: inert (nothing in it links or renders)
        for code in (c.content for c in children if c.type == "code_inline"):
            assert any(code in text for text in _catalog_texts(results)), (code, token.content)
        text = "".join(c.content if c.type == "text" else "\n" for c in children if c.type != "html_inline")
        if position == len(inlines) - 1 and head_sha:  # our footer links the run's own commit
            text = text.replace(head_sha, "")
        for what, pattern in LIVE.items():
            assert not pattern.search(text), f"a live {what} in {text!r}"
    for table in _tables(parsed):
        assert len(set(table)) == 1, table  # no value split a cell


def expected_details(results: dict[str, Any], languages: tuple[str, ...]) -> int:
    """The language sections, and in each language our collapsed findings' details, equivalents,
    known gaps and generic mutants, and the collapsed matrix and run facts (when a mutant was run)."""
    catalogued = [m for m in results["mutants"] if not m["generic"]]
    generic = any(m["generic"] for m in results["mutants"])
    findings = any(
        not m["expectation_met"] and all(p["kind"] != "unreviewed-gap" for p in m["problems"]) for m in catalogued
    )
    count = len(languages) - 1
    for lang in languages:
        equivalents = any(m["equivalent"] and m["equivalent"][lang] and m["expectation_met"] for m in catalogued)
        count += (
            findings
            + equivalents
            + any(m.get("survives") is not None and m["expectation_met"] for m in catalogued)
            + generic
            + bool(catalogued)
        )
    return count


def _catalog_texts(results: dict[str, Any]) -> list[str]:
    """Every catalog text of the run as the comment shows it: whitespace joined, invisible characters spelled."""
    values = []
    for mutant in results["mutants"]:
        for field in ("title", "why", "hint", "equivalent", "survives"):
            values += [visible(" ".join(text.split())) for text in (mutant.get(field) or {}).values()]
    return values


def _tables(parsed: list[Token]) -> list[list[int]]:
    """Per table, the number of cells of each row."""
    tables, cells = [], None
    for token in parsed:
        if token.type == "table_open":
            cells = []
        elif token.type == "tr_open":
            cells.append(0)
        elif token.type in ("th_open", "td_open"):
            cells[-1] += 1
        elif token.type == "table_close":
            tables.append(cells)
    return tables


def fences(body: str) -> list[str]:
    return [t.content for t in tokens(body) if t.type == "fence"]


CHINESE_SECTION = "<details>\n<summary>中文说明</summary>"


def split_languages(body: str) -> tuple[str, str]:
    english, chinese = body.split(CHINESE_SECTION)
    return english, chinese
