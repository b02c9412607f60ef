"""Stryker's mutation-testing-report-schema (version 2): the format dashboards and other tools read,
in one language (the run's first, or the one asked for)."""

import platform
from typing import Any

from mutcheck.core.texts import say
from mutcheck.report.view import family_label
from mutcheck.results.model import MutantEntry, Results

STATUS = {
    "killed": "Killed",
    "survived": "Survived",
    "no-coverage": "NoCoverage",
    "timeout": "Timeout",
    "broken": "RuntimeError",  # the mutated module fails when imported
    "equivalent": "Ignored",
}


def _status_reason(entry: MutantEntry, lang: str) -> str | None:
    if entry.verdict == "equivalent":
        proof = entry.equivalent[lang] if entry.equivalent else say(lang, "stryker", "same_byte_code")
        return say(lang, "show", "equivalent", proof=proof)  # as `mutcheck show` words it
    if entry.known_gap:  # Survived or NoCoverage, as catalogued
        reason = say(lang, "show", "known_gap", reason=entry.survives[lang])
        return reason + (say(lang, "terminal", "tracked", tracked=entry.tracked) if entry.tracked else "")
    if entry.verdict == "broken":
        return entry.broken
    witnesses = list(entry.witnesses.values())
    return "; ".join(witnesses) if witnesses else None


def _mutant(results: Results, entry: MutantEntry, lang: str) -> dict[str, Any]:
    tests = results.tests
    span = entry.span
    mutant = {
        "id": entry.id,
        # With several targets the target's name leads the family, as in the other reports.
        "mutatorName": entry.operator if entry.generic else family_label(entry.target, entry.family),
        "description": entry.title[lang],
        "location": {
            # Stryker counts columns from 1 and ends exclusively, as LibCST's 0-based columns do.
            "start": {"line": span.start_line, "column": span.start_column + 1},
            "end": {"line": span.end_line, "column": span.end_column + 1},
        },
        "status": STATUS[entry.verdict],
        # its own lines' tests where those were seen; a test that killed it ran it, whatever the lines say
        "coveredBy": list(dict.fromkeys([*(tests[index] for index in entry.reached), *entry.killers])),
        "killedBy": entry.killers,
        "testsCompleted": sum(outcome != "not-run" for outcome in entry.outcomes.values()),
        "duration": round(entry.seconds * 1000, 1),
    }
    if entry.replacement is not None:  # results written before it was recorded have none: the viewer shows the title
        mutant["replacement"] = entry.replacement
    reason = _status_reason(entry, lang)
    if reason:
        mutant["statusReason"] = reason
    return mutant


def render_stryker(results: Results, lang: str | None = None) -> dict[str, Any]:
    lang = lang or results.languages[0]
    files: dict[str, dict[str, Any]] = {}
    for entry in results.mutants:
        file = files.setdefault(
            entry.file, {"language": "python", "source": results.sources[entry.file], "mutants": []}
        )
        file["mutants"].append(_mutant(results, entry, lang))
    test_files: dict[str, dict[str, Any]] = {}
    for test in results.tests:
        path, _, name = test.partition("::")
        test_files.setdefault(path, {"tests": []})["tests"].append({"id": test, "name": name})
    run = results.run
    return {
        "schemaVersion": "2",
        "thresholds": {"high": 80, "low": 60},
        "files": files,
        "testFiles": test_files,
        "framework": {"name": "mutcheck", "version": run.mutcheck_version},
        "system": {"ci": run.ci, "os": {"platform": platform.system().lower()}},
        "config": {key: getattr(run, key) for key in ("jobs", "bail", "baseline_rounds", "shard", "only", "diff_base")},
    }
