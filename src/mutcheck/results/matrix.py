"""Verdicts per mutant, the expectation check against the catalog, and the run's exit status."""

from dataclasses import dataclass

from mutcheck.core.exit_code import ExitCode, run_status
from mutcheck.core.outcome import DETECTING
from mutcheck.core.verdicts import BROKEN, EQUIVALENT, KILLED, NO_COVERAGE, SURVIVED, TIMEOUT, Unmet, names_node
from mutcheck.engine.engine import EngineRun, MutantRun, baseline_passed
from mutcheck.mutation.mutate import AppliedMutant


@dataclass(frozen=True)
class MutantResult:
    applied: AppliedMutant
    run: MutantRun
    verdict: str
    killers: tuple[str, ...]  # test ids whose outcome detected the mutant
    problems: tuple[Unmet, ...]  # empty when the catalog's expectation holds

    @property
    def expectation_met(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Matrix:
    tests: tuple[str, ...]
    results: tuple[MutantResult, ...]
    baseline_ok: bool

    @property
    def unmet(self) -> list[MutantResult]:
        return [result for result in self.results if not result.expectation_met]

    @property
    def exit_code(self) -> ExitCode:
        return run_status(self.baseline_ok, bool(self.unmet))


def _verdict(applied: AppliedMutant, run: MutantRun) -> str:
    if applied.equivalent_by_compilation:
        return EQUIVALENT
    if run.broken:
        return BROKEN
    if not run.selected:
        return NO_COVERAGE
    if any(outcome in ("failed", "error") for outcome in run.outcomes.values()):
        return KILLED
    if run.timed_out or "timeout" in run.outcomes.values():
        return TIMEOUT
    if applied.mutant.equivalent:
        return EQUIVALENT
    # its tests ran the functions around it, but no test ran its own lines (see `line_reach`)
    return NO_COVERAGE if run.line_reach is not None and not run.line_reach.tests else SURVIVED


def _problems(
    applied: AppliedMutant, run: MutantRun, verdict: str, tests: tuple[str, ...], bail: bool, strict_generic: bool
) -> list[Unmet]:
    mutant = applied.mutant
    if mutant.generic:  # no catalogued expectation; a survivor counts only when asked to
        return [Unmet("unexpected-survivor")] if strict_generic and verdict == SURVIVED else []
    detected = {tests[index] for index, outcome in run.outcomes.items() if outcome in DETECTING}
    if mutant.revert:  # guarded when a test fails, or the tests cannot even load, with it undone
        return [Unmet("unguarded-change", detail=verdict)] if verdict in (SURVIVED, NO_COVERAGE) else []
    if verdict == BROKEN:
        return [Unmet("broken", detail=run.broken)]
    if mutant.equivalent:
        if verdict in (KILLED, TIMEOUT):
            return [Unmet("equivalent-killed", detail=verdict, test=test) for test in sorted(detected)]
        return []
    if mutant.survives:  # a known gap: like a strict xfail, a detection means the catalog is out of date
        if verdict in (KILLED, TIMEOUT):
            return [
                Unmet("gap-killed", test=tests[index], detail=outcome)
                for index, outcome in sorted(run.outcomes.items())
                if outcome in DETECTING
            ]
        if verdict == EQUIVALENT:
            return [Unmet("compile-equivalent")]
        # a gap `suggest` found is no expectation until a person has accepted it
        return [] if mutant.reviewed else [Unmet("unreviewed-gap")]
    if verdict == NO_COVERAGE:
        return [Unmet("no-coverage")]
    if verdict == EQUIVALENT:
        return [Unmet("compile-equivalent")]
    problems = [Unmet("unexpected-survivor")] if verdict == SURVIVED else []
    ran = {tests[index]: outcome for index, outcome in run.outcomes.items()}
    for expected in mutant.killed_by:
        outcomes = [outcome for node, outcome in ran.items() if names_node(expected, node)]
        if any(outcome in DETECTING for outcome in outcomes):
            continue
        if not outcomes and not any(names_node(expected, tests[index]) for index in run.selected):
            problems.append(Unmet("killer-unreached", test=expected))
        elif bail and verdict in (KILLED, TIMEOUT) and all(outcome == "not-run" for outcome in outcomes):
            continue  # --bail stopped before it; it was not given the chance
        else:
            problems.append(Unmet("killer-passed", test=expected, detail=", ".join(sorted(set(outcomes)))))
    return problems


def build_matrix(run: EngineRun, applied: list[AppliedMutant], bail: bool, strict_generic: bool = False) -> Matrix:
    tests = tuple(run.tests)
    ok = baseline_passed(run)
    results = []
    if ok:
        for mutant in applied:
            mutant_run = run.mutants[mutant.mutant.id]
            verdict = _verdict(mutant, mutant_run)
            killers = tuple(
                tests[index] for index, outcome in sorted(mutant_run.outcomes.items()) if outcome in DETECTING
            )
            results.append(
                MutantResult(
                    mutant,
                    mutant_run,
                    verdict,
                    killers,
                    tuple(_problems(mutant, mutant_run, verdict, tests, bail, strict_generic)),
                )
            )
    return Matrix(tests, tuple(results), ok)
