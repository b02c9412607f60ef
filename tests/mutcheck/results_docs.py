"""Results in tests: a results file's JSON document (what tests edit), and the typed results the code takes."""

import copy
from dataclasses import asdict
from pathlib import Path
from typing import Any

from mutcheck.results.model import Results
from mutcheck.results.results import load_results, summarize


def typed(document: dict[str, Any]) -> Results:
    """The results a document holds (a copy: editing the document later leaves them as they were)."""
    return Results.from_json(copy.deepcopy(document))


def document(path: Path) -> dict[str, Any]:
    """A results file, read and checked as mutcheck reads it, as its JSON document."""
    return load_results(path).to_json()


def summary_of(document: dict[str, Any], baseline_ok: bool) -> dict[str, Any]:
    """The summary section mutcheck writes for a document's mutants (after a test edited them)."""
    return asdict(summarize(typed(document).mutants, baseline_ok))
