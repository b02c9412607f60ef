"""Verdicts and expectation checks on synthetic engine runs (no process started)."""

import json

from mutcheck.core.exit_code import ExitCode
from mutcheck.core.line_reach import LineReach
from mutcheck.core.verdicts import UNMET_KINDS, Unmet
from mutcheck.engine.engine import BaselineRound
from mutcheck.results.matrix import build_matrix
from tests.mutcheck.engine_runs import applied, engine_run
from tests.mutcheck.paths import REPOSITORY


def test_parametrized_killer_named_without_parameters():
    matrix = build_matrix(
        engine_run(M={0: "passed", 1: "passed", 2: "failed"}), [applied("M", ["t.py::test_b"])], bail=False
    )
    assert matrix.results[0].verdict == "killed"
    assert matrix.results[0].expectation_met
    assert matrix.exit_code == ExitCode.OK


def test_missing_expected_killer_is_reported_even_when_killed():
    matrix = build_matrix(engine_run(M={0: "failed", 1: "passed"}), [applied("M", ["t.py::test_b"])], bail=False)
    assert matrix.results[0].problems == (Unmet("killer-passed", "t.py::test_b", "passed"),)
    assert matrix.exit_code == ExitCode.EXPECTATION_FAILED


def test_killer_that_never_reaches_the_scope():
    matrix = build_matrix(engine_run(M={0: "failed"}), [applied("M", ["t.py::test_b"])], bail=False)
    assert matrix.results[0].problems == (Unmet("killer-unreached", "t.py::test_b"),)


def test_bail_forgives_killers_that_did_not_get_to_run():
    run = engine_run(M={0: "failed", 1: "not-run"})
    assert build_matrix(run, [applied("M", ["t.py::test_b"])], bail=True).results[0].expectation_met
    assert not build_matrix(run, [applied("M", ["t.py::test_b"])], bail=False).results[0].expectation_met


def test_declared_equivalent_that_is_killed_fails_the_run():
    matrix = build_matrix(engine_run(E={0: "failed"}), [applied("E", equivalent={"en": "p", "zh": "证"})], bail=False)
    assert matrix.results[0].verdict == "killed"
    assert matrix.results[0].problems == (Unmet("equivalent-killed", "t.py::test_a", "killed"),)
    assert matrix.exit_code == ExitCode.EXPECTATION_FAILED


def test_timeout_counts_as_detection_for_its_test():
    run = engine_run(M={0: "timeout", 1: "not-run"})
    run.mutants["M"].timed_out = True
    result = build_matrix(run, [applied("M", ["t.py::test_a"])], bail=False).results[0]
    assert (result.verdict, result.expectation_met, result.killers) == ("timeout", True, ("t.py::test_a",))


def test_compile_equivalent_mutant_with_killers_cannot_meet_them():
    result = build_matrix(engine_run(M={}), [applied("M", ["t.py::test_a"], compile_equal=True)], bail=False).results[0]
    assert result.verdict == "equivalent"
    assert result.problems == (Unmet("compile-equivalent"),)


def test_failed_baseline_means_no_verdicts_and_exit_3():
    run = engine_run(M={0: "failed"})
    run.baseline.append(BaselineRound(["passed", "failed", "passed"], [0.1] * 3, [None] * 3))
    matrix = build_matrix(run, [applied("M", ["t.py::test_a"])], bail=False)
    assert matrix.results == ()
    assert matrix.exit_code == ExitCode.BASELINE_FAILED


def test_bail_after_a_timeout_forgives_killers_that_did_not_run():
    run = engine_run(M={0: "timeout", 1: "not-run"})
    result = build_matrix(run, [applied("M", ["t.py::test_b"])], bail=True).results[0]
    assert (result.verdict, result.expectation_met) == ("timeout", True)


GAP = {"en": "not tested yet", "zh": "尚未测试"}


def test_a_known_gap_that_survives_or_is_not_reached_meets_its_expectation():
    run = engine_run(S={0: "passed", 1: "passed"}, N={})
    matrix = build_matrix(run, [applied("S", survives=GAP), applied("N", survives=GAP)], bail=False)
    assert [(result.verdict, result.problems) for result in matrix.results] == [("survived", ()), ("no-coverage", ())]
    assert matrix.exit_code == ExitCode.OK


def test_a_gap_no_person_has_accepted_is_unmet_until_one_does():
    """`suggest` writes what it finds as a proposal: a gap turns the run green only once accepted."""
    run = engine_run(S={0: "passed"}, N={})
    proposed = [applied("S", survives=GAP, reviewed=False), applied("N", survives=GAP, reviewed=False)]
    matrix = build_matrix(run, proposed, bail=False)
    assert [result.problems for result in matrix.results] == [(Unmet("unreviewed-gap"),)] * 2
    assert matrix.exit_code == ExitCode.EXPECTATION_FAILED
    killed = build_matrix(engine_run(K={0: "failed"}), [applied("K", survives=GAP, reviewed=False)], bail=False)
    assert [problem.kind for problem in killed.results[0].problems] == ["gap-killed"]  # a test decided it


def test_a_known_gap_that_a_test_kills_is_unmet_naming_each_killer():
    matrix = build_matrix(engine_run(K={0: "failed", 1: "error", 2: "passed"}), [applied("K", survives=GAP)], False)
    assert matrix.results[0].verdict == "killed"
    assert matrix.results[0].problems == (
        Unmet("gap-killed", "t.py::test_a", "failed"),
        Unmet("gap-killed", "t.py::test_b[1]", "error"),
    )
    assert matrix.exit_code == ExitCode.EXPECTATION_FAILED


def test_a_known_gap_that_times_out_is_detected_too():
    run = engine_run(T={0: "timeout"})
    run.mutants["T"].timed_out = True
    result = build_matrix(run, [applied("T", survives=GAP)], bail=False).results[0]
    assert (result.verdict, result.problems) == ("timeout", (Unmet("gap-killed", "t.py::test_a", "timeout"),))


def test_a_broken_known_gap_is_still_unmet():
    run = engine_run(B={})
    run.mutants["B"].broken = "SyntaxError"
    result = build_matrix(run, [applied("B", survives=GAP)], bail=False).results[0]
    assert (result.verdict, result.problems) == ("broken", (Unmet("broken", detail="SyntaxError"),))


def test_a_known_gap_identical_after_compiling_can_never_be_killed():
    result = build_matrix(engine_run(C={}), [applied("C", survives=GAP, compile_equal=True)], bail=False).results[0]
    assert (result.verdict, result.problems) == ("equivalent", (Unmet("compile-equivalent"),))


def test_every_problem_a_run_can_write_is_one_the_results_schema_accepts():
    schema = json.loads((REPOSITORY / "src/mutcheck/schemas/results-v1.schema.json").read_text())
    problem = schema["properties"]["mutants"]["items"]["properties"]["problems"]["items"]
    assert set(problem["properties"]["kind"]["enum"]) == set(UNMET_KINDS)


def test_a_survivor_whose_lines_no_test_ran_is_no_coverage_and_one_whose_lines_ran_survived():
    run = engine_run(UNRUN={0: "passed", 1: "passed"}, RAN={0: "passed", 1: "passed"}, UNSEEN={0: "passed"})
    run.mutants["UNRUN"].line_reach = LineReach([4], [4], [])
    run.mutants["RAN"].line_reach = LineReach([4, 5], [5], [1])
    mutants = [
        applied("UNRUN", ["t.py::test_a"]),
        applied("RAN", ["t.py::test_a"]),
        applied("UNSEEN", ["t.py::test_a"]),
    ]
    results = build_matrix(run, mutants, bail=False).results
    assert [(result.verdict, result.problems) for result in results] == [
        ("no-coverage", (Unmet("no-coverage"),)),
        ("survived", (Unmet("unexpected-survivor"), Unmet("killer-passed", "t.py::test_a", "passed"))),
        ("survived", (Unmet("unexpected-survivor"), Unmet("killer-passed", "t.py::test_a", "passed"))),
    ]


def test_a_kill_or_a_proof_outweighs_lines_no_test_ran():
    run = engine_run(KILLED={0: "failed", 1: "passed"}, PROVEN={0: "passed"}, SLOW={0: "timeout"})
    for mutant in run.mutants.values():
        mutant.line_reach = LineReach([4], [4], [])  # a compile-time effect can act without its line running
    mutants = [applied("KILLED", ["t.py::test_a"]), applied("PROVEN", equivalent={"en": "same"}), applied("SLOW")]
    assert [result.verdict for result in build_matrix(run, mutants, bail=False).results] == [
        "killed",
        "equivalent",
        "timeout",
    ]
