"""The HTML page's kill grid as data for its script: each catalogued mutant's cells and the words to label them."""

from typing import Any

from mutcheck.core.outcome import OUTCOMES
from mutcheck.core.texts import say
from mutcheck.core.verdicts import KILLED, TIMEOUT, VERDICTS, names_node
from mutcheck.report.html_source import mutant_anchor
from mutcheck.results.model import MutantEntry, Results

# Problems that name an expected killer which did not detect a detected mutant.
MISSED_KILLER = ("killer-passed", "killer-unreached")
GRID_WORDS = ("mutant", "all", "not_selected", "expected_killer", "expected_killer_missed")


def _named_tests(tests: list[str], catalog_ids: list[str]) -> list[int]:
    """The indices of the tests that the catalog's ids name, each parametrization included."""
    return [index for index, test in enumerate(tests) if any(names_node(name, test) for name in catalog_ids)]


def _mutant(tests: list[str], entry: MutantEntry, number: int) -> dict[str, Any]:
    expected = _named_tests(tests, entry.killed_by)
    if entry.verdict in (KILLED, TIMEOUT):  # the matrix judged each expected killer (--bail may excuse one)
        missed = _named_tests(tests, [p.test for p in entry.problems if p.kind in MISSED_KILLER])
    else:  # nothing detected the mutant, so no expected killer did
        missed = expected
    return {
        "id": entry.id,
        "anchor": mutant_anchor(number),
        "family": entry.family,
        "verdict": entry.verdict,
        "met": entry.expectation_met,
        "outcomes": entry.outcomes,
        "witnesses": entry.witnesses,
        "expected": [index for index in expected if index not in missed],
        "missed": missed,
    }


def _words(results: Results, lang: str) -> dict[str, Any]:
    return {
        **{key: say(lang, "text", key) for key in GRID_WORDS},
        "verdict": {verdict: say(lang, "verdict", verdict) for verdict in VERDICTS},
        "outcome": {outcome: say(lang, "outcome", outcome) for outcome in OUTCOMES},
        "family": {family: title.get(lang, family) for family, title in results.families.items()},
    }


def grid_data(results: Results, languages: tuple[str, ...]) -> dict[str, Any]:
    """Tests, catalogued mutants (numbered as their details are) and, per language, the grid's words."""
    tests = results.tests
    catalogued = results.catalogued
    return {
        "tests": tests,
        "mutants": [_mutant(tests, entry, number) for number, entry in enumerate(catalogued, 1)],
        "words": {lang: _words(results, lang) for lang in languages},
    }
