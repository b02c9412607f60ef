"""The offline HTML report: one self-contained file, a switch between its languages, a filterable kill grid."""

from typing import Any

from mutcheck.report import texts
from mutcheck.report.view import build_view


def render_html(results: dict[str, Any], languages: tuple[str, ...] | None = None) -> str:
    """The page in `languages` (default: every language of the run), the first one shown first."""
    languages = languages or texts.run_languages(results)
    return (
        texts.environment(autoescape=True)
        .get_template("report.html.j2")
        .render(
            views={lang: build_view(results, lang) for lang in languages},
            languages=list(languages),
            tests=results["tests"],
            families=list(dict.fromkeys(m["family"] for m in results["mutants"])),
            t=texts.say,
        )
    )
