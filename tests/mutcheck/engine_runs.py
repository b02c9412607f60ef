"""Synthetic engine runs for the matrix's tests: applied mutants and per-test outcomes, no process started."""

from mutcheck.catalog.catalog import Mutant
from mutcheck.core.source_text import Span
from mutcheck.engine.engine import BaselineRound, EngineRun, MutantRun
from mutcheck.mutation.mutate import AppliedMutant

TESTS = ["t.py::test_a", "t.py::test_b[1]", "t.py::test_b[2]"]


def applied(
    mutant_id: str,
    killed_by=(),
    equivalent=None,
    compile_equal=False,
    survives=None,
    generic=False,
    revert=False,
    reviewed=True,
) -> AppliedMutant:
    mutant = Mutant(
        mutant_id,
        "f",
        "m.py",
        "f",
        "x",
        "y",
        tuple(killed_by),
        equivalent,
        "o",
        {},
        {},
        None,
        (),
        "c.toml",
        survives=survives,
        generic=generic,
        revert=revert,
        reviewed=reviewed,
    )
    return AppliedMutant(mutant, "", "", Span(1, 0, 1, 1), "", compile_equal, "f", "f")


def engine_run(**mutants: dict[int, str]) -> EngineRun:
    run = EngineRun(tests=TESTS, baseline=[BaselineRound(["passed"] * 3, [0.1] * 3, [None] * 3)])
    for mutant_id, outcomes in mutants.items():
        run.mutants[mutant_id] = MutantRun(
            mutant_id, "swap", None, sorted(outcomes), outcomes, {}, {}, False, None, 0, 1
        )
    return run
