"""The review comment: English, then the full Chinese text collapsed, under our hidden marker,
kept below GitHub's body limit by dropping table rows (never by cutting inside a block)."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup

from mutcheck.report import texts
from mutcheck.report.escape import MARKER, fence, finalize
from mutcheck.report.view import GRID_MAX_TESTS, SYMBOLS, MutantView, ReportView, build_view

# GitHub rejects bodies over 65,536 characters; stay clear of it.
COMMENT_LIMIT = 60_000


@dataclass(frozen=True)
class Limits:
    findings: int
    matrix: int
    equivalents: int
    generic: int


@cache
def _environment() -> jinja2.Environment:
    environment = texts.environment(autoescape=False).overlay(finalize=finalize)
    environment.globals.update(fence=fence)
    return environment


def _symbol(mutant: MutantView, test: str) -> str:
    return SYMBOLS.get(mutant.outcomes.get(test, ""), "")


def _translator(lang: str) -> Callable[..., Markup]:
    def t(group: str, key: str, **values: Any) -> Markup:
        # Our own sentences are trusted; values placed into them are escaped first.
        escaped = {name: finalize(value) for name, value in values.items()}
        return Markup(texts.say(lang, group, key, **escaped))

    return t


def _language_body(view: ReportView, limits: Limits) -> str:
    rows = view.findings + [mutant for mutant in view.mutants if mutant.met]  # the unmet stay visible longest
    generic = view.generic.survivors if view.generic else []
    shown = {
        "generic": generic[: limits.generic],
        "findings": view.findings[: limits.findings],
        "matrix": rows[: limits.matrix],
        "equivalents": view.equivalents[: limits.equivalents],
    }
    hidden = {
        "generic": len(generic) - min(len(generic), limits.generic),
        "findings": len(view.findings) - len(shown["findings"]),
        "matrix": len(rows) - len(shown["matrix"]),
        "equivalents": len(view.equivalents) - len(shown["equivalents"]),
    }
    template = _environment().get_template("comment.md.j2")
    return template.render(
        view=view,
        shown=shown,
        hidden=hidden,
        t=_translator(view.lang),
        grid=len(view.killing_tests) <= GRID_MAX_TESTS,
        symbol=_symbol,
    )


def _assemble(views: list[ReportView], limits: Limits) -> str:
    parts = [MARKER, "", _language_body(views[0], limits).strip()]
    for view in views[1:]:
        parts += [
            "",
            "<details>",
            "<summary>中文说明</summary>",
            "",
            _language_body(view, limits).strip(),
            "",
            "</details>",
        ]
    parts += ["", "---", f"<sub>{finalize(views[0].footer)}</sub>", ""]
    return "\n".join(parts)


def render_markdown(
    results: dict[str, Any], languages: tuple[str, ...] = texts.LANGUAGES, limit: int = COMMENT_LIMIT
) -> str:
    """The whole comment; rows are dropped (generic survivors, matrix, equivalents, then findings) until it fits."""
    views = [build_view(results, lang) for lang in languages]
    generic = len(views[0].generic.survivors) if views[0].generic else 0
    full = Limits(len(views[0].findings), len(views[0].mutants), len(views[0].equivalents), generic)
    body = _assemble(views, full)
    for field in ("generic", "matrix", "equivalents", "findings"):
        if len(body) <= limit:
            return body
        low, high = 0, getattr(full, field)
        while low < high:  # the most rows of `field` that still fit
            middle = (low + high + 1) // 2
            if len(_assemble(views, _with(full, field, middle))) <= limit:
                low = middle
            else:
                high = middle - 1
        full = _with(full, field, low)
        body = _assemble(views, full)
    return body


def _with(limits: Limits, field: str, value: int) -> Limits:
    return Limits(**{**vars(limits), field: value})


def _bilingual(parts: dict[str, str]) -> str:
    """English, then the Chinese text collapsed, as in the review comment."""
    return "\n".join(
        [parts["en"].strip(), "", "<details>", "<summary>中文说明</summary>", "", parts["zh"].strip(), "", "</details>"]
    )


def render_inline_finding(results: dict[str, Any], mutant_id: str) -> str:
    """The body of one inline review comment (without its marker): the finding in both languages."""
    template = _environment().get_template("inline.md.j2")
    bodies = {}
    for lang in texts.LANGUAGES:
        view = build_view(results, lang)
        generic = view.generic.survivors if view.generic else []
        mutant = next(m for m in [*view.mutants, *generic] if m.id == mutant_id)
        bodies[lang] = template.render(mutant=mutant, t=_translator(lang))
    return _bilingual(bodies)


def render_sentence(key: str, **values: Any) -> str:
    """One of our sentences in both languages, values escaped."""
    return _bilingual({lang: str(_translator(lang)("text", key, **values)) for lang in texts.LANGUAGES})
