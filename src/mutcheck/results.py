"""The results file: the versioned JSON record of one run (or of merged shards), read by reports."""

import hashlib
import json
import os
import platform
import subprocess
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mutcheck import __version__
from mutcheck.catalog import REVERT_FAMILY, Catalog
from mutcheck.engine import EngineRun, baseline_passed
from mutcheck.matrix import VERDICTS, Matrix, MutantResult
from mutcheck.outcome import ORDER_DEPENDENT
from mutcheck.problems import InputError, Problem
from mutcheck.results_check import capped, first_broken_reference, shown

if TYPE_CHECKING:
    from mutcheck.drift import Drift

FORMAT = "mutcheck-results"
VERSION = 1


def schema() -> dict[str, Any]:
    return json.loads(files("mutcheck").joinpath("schemas/results-v1.schema.json").read_text(encoding="utf-8"))


def catalog_digest(catalog: Catalog) -> str:
    """Identifies the catalog's edits and expectations, so shards of different catalogs never merge."""
    fields = [
        [m.id, m.file, m.scope, m.match, m.replace, list(m.killed_by), m.equivalent, m.survives]
        for m in catalog.mutants
    ]
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def in_ci() -> bool:
    """The `CI` environment variable says so, as GitHub Actions, GitLab and most CI services set it."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off")


def head_sha(root: Path) -> str | None:
    completed = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=False)
    return completed.stdout.strip() if completed.returncode == 0 else None


def uncommitted_changes(root: Path) -> bool | None:
    """Whether tracked files differ from the head commit (None outside git): the run then tested
    code no commit holds. Untracked files do not count: CI writes its own (results, installs)."""
    completed = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True, text=True, check=False
    )
    return bool(completed.stdout.strip()) if completed.returncode == 0 else None


def _mutant_entry(result: MutantResult, order: int) -> dict[str, Any]:
    applied, run, mutant = result.applied, result.run, result.applied.mutant
    return {
        "id": mutant.id,
        "order": order,
        "generic": mutant.generic,
        "revert": mutant.revert,
        "operator": mutant.operator,
        "aliases": list(mutant.aliases),
        "family": mutant.family,
        "file": mutant.file,
        "scope": mutant.scope,
        "span": vars(applied.span),
        "replacement": applied.replacement,
        "diff": applied.diff,
        "origin": mutant.origin,
        "title": mutant.title,
        "why": mutant.why,
        "hint": mutant.hint,
        "equivalent": mutant.equivalent,
        "survives": mutant.survives,
        "tracked": mutant.tracked,
        "reviewed": mutant.reviewed,
        "killed_by": list(mutant.killed_by),
        "path": run.path,
        "fallback": run.fallback,
        "verdict": result.verdict,
        "expectation_met": result.expectation_met,
        "problems": [vars(problem) for problem in result.problems],
        "killers": list(result.killers),
        "broken": run.broken,
        "selected": run.selected,
        "outcomes": {str(index): outcome for index, outcome in sorted(run.outcomes.items())},
        "witnesses": {str(index): witness for index, witness in sorted(run.witnesses.items())},
        "seconds": round(run.seconds, 4),
        "time_limit": round(run.time_limit, 3),
    }


def baseline_section(run: EngineRun) -> dict[str, Any]:
    """The unmutated suite; `order_dependent` names the tests that failed unmutated when run in
    some mutant's selection and order (never counted as killers), or in the baseline only as
    the workers split the suite."""
    tests = run.tests
    first = run.baseline[0] if run.baseline else None
    failures = [
        {"test": tests[index], "outcome": outcome, "witness": first.witnesses[index]}
        for index, outcome in enumerate(first.outcomes if first else [])
        if outcome not in ("passed", "skipped")
    ]
    flaky = [
        tests[index] for index in range(len(tests)) if len({round_.outcomes[index] for round_ in run.baseline}) > 1
    ]
    return {
        "ok": baseline_passed(run),
        "rounds": len(run.baseline),
        "durations": [round(max(r.durations[i] for r in run.baseline), 5) for i in range(len(tests))] if first else [],
        "failures": failures,
        "flaky": flaky,
        "order_dependent": sorted(
            {tests[index] for index in run.order_dependent}
            | {
                tests[index]
                for mutant in run.mutants.values()
                for index, outcome in mutant.outcomes.items()
                if outcome == ORDER_DEPENDENT
            }
        ),
        "collection_error": run.collection_error,
    }


def _verdict_counts(mutants: list[dict[str, Any]]) -> dict[str, int]:
    return {verdict: sum(m["verdict"] == verdict for m in mutants) for verdict in VERDICTS}


def is_known_gap(mutant: dict[str, Any]) -> bool:
    """Catalogued with `survives`, and it did survive (or no test reached it), as expected."""
    return mutant["survives"] is not None and mutant["expectation_met"]


def is_unreviewed_gap(mutant: dict[str, Any]) -> bool:
    """A gap `mutcheck suggest` found that no person has accepted yet (it survived, as proposed)."""
    return any(problem["kind"] == "unreviewed-gap" for problem in mutant["problems"])


def summarize(mutants: list[dict[str, Any]], baseline_ok: bool, drifted: int = 0) -> dict[str, Any]:
    """Counts for the catalog's mutants, generic operator mutants apart; the run's exit status (an
    entry the change moved away from fails it too)."""
    catalogued = [mutant for mutant in mutants if not mutant["generic"]]
    generic = [mutant for mutant in mutants if mutant["generic"]]
    unmet = sum(not mutant["expectation_met"] for mutant in mutants)
    exit_code = 3 if not baseline_ok else (1 if unmet or drifted else 0)
    return {
        "mutants": len(catalogued),
        "verdicts": _verdict_counts(catalogued),
        "known_gaps": sum(is_known_gap(mutant) for mutant in catalogued),
        "unreviewed_gaps": sum(is_unreviewed_gap(mutant) for mutant in catalogued),
        "generic": {"mutants": len(generic), "verdicts": _verdict_counts(generic)},
        "expectations_unmet": unmet,
        "drifted": drifted,
        "exit_code": exit_code,
    }


def build_results(
    matrix: Matrix,
    run: EngineRun,
    catalog: Catalog,
    root: Path,
    facts: dict[str, Any],
    order: dict[str, int],
    change_guard: dict[str, Any] | None = None,
    drifts: "list[Drift]" = (),
) -> dict[str, Any]:
    """`order`: each mutant's place among every mutant the run chose before `--shard` took its
    part, so that merged shards list them as the unsharded run does; `drifts`: the catalog entries
    the change moved away from."""
    mutants = [_mutant_entry(result, order[result.applied.mutant.id]) for result in matrix.results]
    baseline = baseline_section(run)
    families = dict(catalog.families)
    if change_guard is not None:
        families[REVERT_FAMILY] = revert_family(facts["languages"])
    return {
        "format": FORMAT,
        "version": VERSION,
        "run": {
            "mutcheck_version": __version__,
            "python": platform.python_version(),
            "ci": in_ci(),
            "head_sha": head_sha(root),
            "uncommitted_changes": uncommitted_changes(root),
            "catalog_digest": catalog_digest(catalog),
            "seconds": round(run.seconds, 3),
            "mutant_phase_seconds": round(run.mutant_phase_seconds, 3),
            "timings": {phase: round(seconds, 3) for phase, seconds in run.timings.items()},
            "copy": {"files": run.copy.files, "bytes": run.copy.bytes, "seconds": round(run.copy.seconds, 3)},
            "controls": dict(run.controls),
            **facts,
        },
        "tests": list(run.tests),
        "baseline": baseline,
        "families": families,
        "sources": {result.applied.mutant.file: result.applied.original for result in matrix.results},
        "mutants": mutants,
        "summary": summarize(mutants, baseline["ok"], len(drifts)),
        "change_guard": change_guard,
        "drift": [drift_entry(drift) for drift in drifts],
    }


def drift_entry(drift: "Drift") -> dict[str, Any]:
    mutant = drift.mutant
    return {
        "id": mutant.id,
        "source": mutant.source,
        "file": mutant.file,
        "scope": mutant.scope,
        "title": mutant.title,
        "field": drift.field,
        "message": drift.message,
        "diff": drift.diff,
        "proposal": drift.proposal,
    }


def revert_family(languages: list[str]) -> dict[str, str]:
    from mutcheck.report.texts import say

    return {lang: say(lang, "revert", "family") for lang in languages}


def write_results(path: Path, results: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load_results(path: Path) -> dict[str, Any]:
    """Read a results file and check it against the schema of its version, then check what it
    refers to: a file that fails either is refused with its first problem."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"), parse_constant=_no_constant)
    except (OSError, ValueError) as error:
        raise InputError([Problem(str(path), "", "", f"cannot read results: {capped(str(error), 300)}")]) from error
    except RecursionError as error:
        raise InputError([Problem(str(path), "", "", "cannot read results: nested too deeply")]) from error
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise InputError([Problem(str(path), "", "format", f"not a {FORMAT} version {VERSION} file")])
    import jsonschema  # only reading a results file needs it, not writing one

    # JSON Schema counts 1.0 as an integer; the renderers index and count with these numbers.
    whole_numbers = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)
    )
    validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=whole_numbers)
    error = jsonschema.exceptions.best_match(validator(schema()).iter_errors(data))
    if error is not None:
        where = "/".join(_part(part) for part in error.absolute_path)
        message = f"does not match the results schema: {capped(error.message, 300)}"
        raise InputError([Problem(str(path), "", where or "(top)", message)])
    data = _with_later_fields(data)
    problem = first_broken_reference(data, str(path))
    if problem is not None:
        raise InputError([problem])
    return data


def _part(part: str | int) -> str:
    """A step of a JSON path; a key from the file is quoted unless it is a plain name."""
    return str(part) if isinstance(part, int) or part.isidentifier() else shown(part)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _with_later_fields(data: dict[str, Any]) -> dict[str, Any]:
    """Fields version 1 gained later, filled in as a file written before them means them."""
    data["run"].setdefault("languages", ["en", "zh"])
    data["run"].setdefault("strict_generic", False)
    data["run"].setdefault("ci", False)  # as the Stryker report of such a file always said
    data["run"].setdefault("revert_base", None)
    data["summary"].setdefault("known_gaps", 0)
    data["summary"].setdefault("unreviewed_gaps", 0)
    data.setdefault("change_guard", None)
    data.setdefault("drift", [])
    data["summary"].setdefault("drifted", 0)
    for mutant in data["mutants"]:
        mutant.setdefault("survives", None)
        mutant.setdefault("tracked", None)
        mutant.setdefault("reviewed", True)
        mutant.setdefault("revert", False)
        mutant.setdefault("broken", None)
        mutant.setdefault("fallback", None)
    return data
