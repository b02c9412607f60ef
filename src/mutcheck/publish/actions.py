"""Inside GitHub Actions: the job summary file and `::warning` annotations for survivors."""

import os
from pathlib import Path
from typing import TextIO

from mutcheck.core.texts import say
from mutcheck.results.model import Results

SUMMARY_LIMIT = 1024 * 1024  # GitHub's cap on one step's summary
ANNOTATION_LIMIT = 10


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def annotations(results: Results) -> list[str]:
    """Workflow commands for the first unexpected survivors (and mutants no test runs that the
    catalog expects killed), on the mutated line."""
    survivors = [
        mutant
        for mutant in results.mutants
        if any(p.kind in ("unexpected-survivor", "no-coverage") for p in mutant.problems)
    ][:ANNOTATION_LIMIT]
    lang = results.languages[0]
    titles = [f"{m.id} {say(lang, 'verdict', m.verdict)}: {m.title[lang]}" for m in survivors]
    return [
        f"::warning file={_property(m.file)},line={m.span.start_line},title={_property(title)}::{_data(m.why[lang])}"
        for m, title in zip(survivors, titles, strict=True)
    ]


def publish_in_actions(results: Results, stdout: TextIO) -> None:
    """When running in GitHub Actions: annotations to stdout, the comment to the job summary."""
    if os.environ.get("GITHUB_ACTIONS") != "true":
        return
    for line in annotations(results):
        print(line, file=stdout)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        from mutcheck.report.markdown import render_markdown  # Jinja2 loads only inside Actions

        with Path(summary).open("a", encoding="utf-8") as file:
            file.write(render_markdown(results, limit=SUMMARY_LIMIT) + "\n")
