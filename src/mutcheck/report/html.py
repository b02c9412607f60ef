"""The offline HTML report: one self-contained file, a switch between its languages, a filterable kill grid."""

import re

from markupsafe import Markup, escape

from mutcheck.core import texts
from mutcheck.report import templates
from mutcheck.report.html_grid import grid_data
from mutcheck.report.html_source import mutant_anchor, source_files
from mutcheck.report.view import build_view
from mutcheck.results.model import Results

LINE_KINDS = {"@": "hunk", "+": "added", "-": "removed"}


def diff_lines(diff: str) -> list[tuple[str, str]]:
    """Each line of a unified diff (its newline kept) and its kind: file, hunk, added, removed or context."""
    lines, in_hunks = [], False
    for line in diff.splitlines(keepends=True):
        in_hunks = in_hunks or line.startswith("@@")
        # before the first hunk, "--- a/…" and "+++ b/…" name the files; after it, a removed "--x" is code
        lines.append((LINE_KINDS.get(line[:1], "context") if in_hunks else "file", line))
    return lines


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def catalog_text(text: str | None) -> Markup:
    """A catalog text as the catalog writes it, in Markdown's inline code (`a == b`) at most: every
    character escaped, a backtick span shown as code."""
    parts = _CODE_SPAN.split(text or "")  # text, code, text, code, …, text
    shown = [Markup("<code>{}</code>").format(part) if index % 2 else escape(part) for index, part in enumerate(parts)]
    return Markup("").join(shown)


def render_html(results: Results, languages: tuple[str, ...] | None = None) -> str:
    """The page in `languages` (default: every language of the run), the first one shown first."""
    languages = languages or results.languages
    sources, marked_at = source_files(results)
    grid = grid_data(results, languages)
    return (
        templates.environment(autoescape=True)
        .get_template("report.html.j2")
        .render(
            views={lang: build_view(results, lang) for lang in languages},
            languages=list(languages),
            grid=grid,
            sources=sources,
            marked_at=marked_at,
            families=list(dict.fromkeys(mutant["family"] for mutant in grid["mutants"])),
            diff_lines=diff_lines,
            mutant_anchor=mutant_anchor,
            t=texts.say,
            catalog_text=catalog_text,
        )
    )
