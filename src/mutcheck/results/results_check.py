"""What a results file must mean beyond its schema: every index, id, language and test id it uses exists."""

from collections import Counter
from collections.abc import Iterator
from typing import Any

from mutcheck.core.outcome import OUTCOMES
from mutcheck.core.problems import Problem
from mutcheck.core.source_text import Span, line_offsets
from mutcheck.core.verdicts import VERDICTS, Unmet
from mutcheck.results.model import MutantEntry, Results

SHOWN_LIMIT = 80
TEXT_FIELDS = ("title", "why", "hint", "equivalent", "survives")


def shown(value: object) -> str:
    """A value from the file, quoted on one line (repr escapes newlines and invisible characters), capped."""
    return capped(repr(value), SHOWN_LIMIT)


def capped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def first_broken_reference(results: Results, source: str) -> Problem | None:
    """The first thing the file refers to that does not exist (a schema-valid file can still lie)."""
    return next(_broken_references(results, source), None)


def first_unknown_index(data: dict[str, Any], source: str) -> Problem | None:
    """A test index key of `outcomes` or `witnesses` that is not one of the run's tests, written as
    mutcheck writes them: checked on the file as read, before the keys become numbers ("01" would
    alias "1", and a number of thousands of digits is not worth reading)."""
    tests = data["tests"]
    indexes = {str(index) for index in range(len(tests))}
    for position, mutant in enumerate(data["mutants"]):
        for field in ("outcomes", "witnesses"):
            for key in mutant[field]:
                if key not in indexes:
                    message = f"test index {shown(key)}: the run has {len(tests)}"
                    return Problem(source, "", f"mutants/{position}/{field}", message)
    return None


def _broken_references(results: Results, source: str) -> Iterator[Problem]:
    tests = results.tests
    known = set(tests)
    if len(known) != len(tests):
        twice = next(test for test, count in Counter(tests).items() if count > 1)
        yield Problem(source, "", "tests", f"{shown(twice)} is listed twice")
    baseline = results.baseline
    named = [(f"baseline/failures/{i}/test", failure.test) for i, failure in enumerate(baseline.failures)]
    named += [(f"baseline/flaky/{i}", test) for i, test in enumerate(baseline.flaky)]
    named += [(f"baseline/order_dependent/{i}", test) for i, test in enumerate(baseline.order_dependent)]
    about = results.change_guard.about if results.change_guard else {}
    named += [(f"change_guard/about/{shown(test)}", test) for test in about]
    for where, test in named:
        if test not in known:
            yield Problem(source, "", where, f"{shown(test)} is not a test of the run")
    for verdict in results.summary.verdicts:
        if verdict not in VERDICTS:
            yield Problem(source, "", "summary/verdicts", f"{shown(verdict)} is not a verdict")
    for family, text in results.families.items():
        yield from _languages(source, f"families/{shown(family)}", text, results.run.languages)
    ids: set[str] = set()
    for position, mutant in enumerate(results.mutants):
        if mutant.id in ids:
            yield Problem(source, "", f"mutants/{position}/id", f"{shown(mutant.id)} is an earlier mutant's id too")
        ids.add(mutant.id)
        yield from _mutant(source, f"mutants/{position}", mutant, results, known)


def _mutant(source: str, where: str, mutant: MutantEntry, results: Results, known: set[str]) -> Iterator[Problem]:
    tests, languages = results.tests, results.run.languages
    if mutant.file not in results.sources:
        yield Problem(source, "", f"{where}/file", f"{shown(mutant.file)} has no text in sources")
    elif message := _outside(mutant.span, results.sources[mutant.file]):
        yield Problem(source, "", f"{where}/span", message)
    for field in TEXT_FIELDS:
        text = getattr(mutant, field)
        if text is not None:
            yield from _languages(source, f"{where}/{field}", text, languages)
    line_tests = mutant.line_reach.tests if mutant.line_reach else []
    for field, indices in (("selected", mutant.selected), ("line_reach/tests", line_tests)):
        for position, index in enumerate(indices):
            if index >= len(tests):
                message = f"test index {index}: the run has {len(tests)}"
                yield Problem(source, "", f"{where}/{field}/{position}", message)
    index_of = {test: index for index, test in enumerate(tests)}
    for position, killer in enumerate(mutant.killers):
        if killer not in known:
            yield Problem(source, "", f"{where}/killers/{position}", f"{shown(killer)} is not a test of the run")
        elif index_of[killer] not in mutant.outcomes:  # the reports show each killer's outcome
            yield Problem(source, "", f"{where}/killers/{position}", f"{shown(killer)} has no outcome")
    for position, problem in enumerate(mutant.problems):
        if not _detail_fits(problem):
            message = f"{shown(problem.detail)} is not a detail of a {problem.kind} problem"
            yield Problem(source, "", f"{where}/problems/{position}/detail", message)


def _outside(span: Span, text: str) -> str | None:
    """Why a span is not a stretch of its file's text (lines split at line feeds, from 1; columns
    from 0, a deletion's end past its line break), or None when it is."""
    line_starts = line_offsets(text)[: text.count("\n") + 1]
    offsets = []
    for end in ("start", "end"):
        line, column = getattr(span, f"{end}_line"), getattr(span, f"{end}_column")
        if line > len(line_starts) or line_starts[line - 1] + column > len(text):
            return f"{end} line {line}, column {column} is past the end of the file's text ({len(line_starts)} lines)"
        offsets.append(line_starts[line - 1] + column)
    return "ends before it starts" if offsets[0] > offsets[1] else None


def _languages(source: str, where: str, text: dict[str, str], languages: list[str]) -> Iterator[Problem]:
    missing = [lang for lang in languages if lang not in text]
    if missing:
        yield Problem(source, "", where, f"no text in {', '.join(missing)} (run.languages)")


def _detail_fits(problem: Unmet) -> bool:
    """The reports translate some details: a verdict, an outcome, a list of outcomes."""
    kind, detail = problem.kind, problem.detail
    if kind in ("equivalent-killed", "unguarded-change"):
        return detail in VERDICTS
    if kind == "gap-killed":
        return detail in OUTCOMES
    if kind == "killer-passed" and detail:
        return all(outcome in OUTCOMES for outcome in detail.split(", "))
    return True
