"""The offline HTML report: one self-contained file, both languages, a filterable kill grid."""

from typing import Any

from mutcheck.report import texts
from mutcheck.report.view import build_view


def render_html(results: dict[str, Any]) -> str:
    views = {lang: build_view(results, lang) for lang in texts.LANGUAGES}
    return (
        texts.environment(autoescape=True)
        .get_template("report.html.j2")
        .render(
            views=views,
            tests=results["tests"],
            families=list(dict.fromkeys(m["family"] for m in results["mutants"])),
            t=texts.say,
        )
    )
