"""One entry point for every output format of a results document, in the languages asked for."""

import io
import json

from rich.console import Console

from mutcheck.core.escape import visible
from mutcheck.core.problems import InputError, Problem
from mutcheck.report import terminal
from mutcheck.report.html import render_html
from mutcheck.report.markdown import render_markdown
from mutcheck.report.stryker import render_stryker
from mutcheck.results.model import Results


def choose_languages(results: Results, requested: str | None, fmt: str) -> tuple[str, ...]:
    """`--lang`: one of the run's languages or several joined by "+" (default: all of them, in order;
    for text, the first: a log reads in one language)."""
    available = results.languages
    if requested is None:
        return available[:1] if fmt == "text" else available
    chosen = tuple(requested.split("+"))
    unknown = [code for code in chosen if code not in available]
    if unknown or len(set(chosen)) != len(chosen):
        message = f"not a language of this run, or repeated (the run has {', '.join(available)})"
        raise InputError([Problem("--lang", requested, "", message)])
    return chosen


def render(results: Results, fmt: str, languages: tuple[str, ...]) -> str:
    if fmt == "markdown":
        return render_markdown(results, languages)
    if fmt == "html":
        return render_html(results, languages)
    if fmt == "stryker":
        return json.dumps(render_stryker(results, languages[0]), indent=1, ensure_ascii=False) + "\n"
    buffer = io.StringIO()
    console = Console(file=buffer, width=160, highlight=False)
    for position, lang in enumerate(languages):
        if position:
            console.print()
        terminal.render(results, console, lang)
    # Nothing of an untrusted results file may reach a terminal as a control sequence.
    return visible(buffer.getvalue(), "\n\t")
