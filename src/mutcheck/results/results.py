"""The results file: the versioned JSON record of one run (or of merged shards), read, checked,
summarised and written as `model.Results`. Built from a run in `build`; reading it loads neither
LibCST nor the engine."""

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

from mutcheck.core.atomic_write import write_atomically
from mutcheck.core.exit_code import run_status
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.verdicts import VERDICTS
from mutcheck.results.model import FORMAT, VERSION, GenericSummary, MutantEntry, Results, Summary
from mutcheck.results.results_check import capped, first_broken_reference, first_unknown_index, shown


def schema() -> dict[str, Any]:
    return json.loads(files("mutcheck").joinpath("schemas/results-v1.schema.json").read_text(encoding="utf-8"))


def _verdict_counts(mutants: list[MutantEntry]) -> dict[str, int]:
    return {verdict: sum(m.verdict == verdict for m in mutants) for verdict in VERDICTS}


def summarize(mutants: list[MutantEntry], baseline_ok: bool, drifted: int = 0) -> Summary:
    """Counts for the catalog's mutants, generic operator mutants apart; the run's exit status (an
    entry the change moved away from fails it too)."""
    catalogued = [mutant for mutant in mutants if not mutant.generic]
    generic = [mutant for mutant in mutants if mutant.generic]
    unmet = sum(not mutant.expectation_met for mutant in mutants)
    return Summary(
        mutants=len(catalogued),
        verdicts=_verdict_counts(catalogued),
        known_gaps=sum(mutant.known_gap for mutant in catalogued),
        unreviewed_gaps=sum(mutant.unreviewed_gap for mutant in catalogued),
        generic=GenericSummary(len(generic), _verdict_counts(generic)),
        expectations_unmet=unmet,
        drifted=drifted,
        reused=sum(bool(mutant.reuse and mutant.reuse.reused) for mutant in mutants),
        reused_tests=sum(mutant.reuse.kept for mutant in mutants if mutant.reuse),
        reuse_considered=sum(mutant.reuse.kept + len(mutant.reuse.ran) for mutant in mutants if mutant.reuse),
        exit_code=int(run_status(baseline_ok, bool(unmet or drifted))),
    )


def results_json(results: Results) -> str:
    """The results file's text."""
    return json.dumps(results.to_json(), indent=1, ensure_ascii=False) + "\n"


def rewrite_results(path: Path, results: Results) -> None:
    """The results file at `path` replaced by `results`, whole or not at all, keeping its permissions."""
    write_atomically(path, results_json(results).encode("utf-8"), mode_of=path)


def load_results(path: Path) -> Results:
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
    unknown = first_unknown_index(data, str(path))
    if unknown is not None:
        raise InputError([unknown])
    results = Results.from_json(data)
    problem = first_broken_reference(results, str(path))
    if problem is not None:
        raise InputError([problem])
    return results


def _part(part: str | int) -> str:
    """A step of a JSON path; a key from the file is quoted unless it is a plain name."""
    return str(part) if isinstance(part, int) or part.isidentifier() else shown(part)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")
