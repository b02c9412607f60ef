"""One entry point for every output format of a results document."""

import io
import json
from typing import Any

from rich.console import Console

from mutcheck.report import terminal
from mutcheck.report.html import render_html
from mutcheck.report.markdown import render_markdown
from mutcheck.report.stryker import render_stryker

LANGUAGE_CHOICES = {"en": ("en",), "zh": ("zh",), "en+zh": ("en", "zh")}


def render(results: dict[str, Any], fmt: str, languages: tuple[str, ...]) -> str:
    if fmt == "markdown":
        return render_markdown(results, languages)
    if fmt == "html":
        return render_html(results)
    if fmt == "stryker":
        return json.dumps(render_stryker(results), indent=1, ensure_ascii=False) + "\n"
    buffer = io.StringIO()
    terminal.render(results, Console(file=buffer, width=160, highlight=False))
    return buffer.getvalue()
