"""Verdicts, expectation checks and the run's exit status, decided from synthetic engine runs."""

from mutcheck.core.exit_code import ExitCode
from mutcheck.engine.engine import BaselineRound, EngineRun, MutantRun, baseline_passed
from mutcheck.results.matrix import Unmet, build_matrix
from tests.mutcheck.engine_runs import TESTS, applied, engine_run

A, B1, B2 = TESTS
PROOF = {"en": "p", "zh": "证"}


def only_result(run: EngineRun, mutant, bail: bool = False, strict_generic: bool = False):
    matrix = build_matrix(run, [mutant], bail=bail, strict_generic=strict_generic)
    assert matrix.tests == tuple(TESTS)
    (result,) = matrix.results
    assert result.applied is mutant and result.run is run.mutants[mutant.mutant.id]
    return result, matrix.exit_code


def test_an_error_outcome_kills_the_mutant_and_counts_as_its_killer():
    result, code = only_result(engine_run(M={0: "error", 1: "passed"}), applied("M", [A]))
    assert (result.verdict, result.killers, result.problems, code) == ("killed", (A,), (), ExitCode.OK)


def test_a_declared_equivalent_that_survives_is_equivalent_and_met():
    result, code = only_result(engine_run(E={0: "passed"}), applied("E", equivalent=PROOF))
    assert (result.verdict, result.problems, code) == ("equivalent", (), ExitCode.OK)


def test_a_survivor_with_killers_is_unexpected_and_names_each_killer_that_passed():
    result, code = only_result(engine_run(M={0: "passed", 1: "passed"}), applied("M", [A, B1]))
    assert result.verdict == "survived"
    assert result.problems == (
        Unmet("unexpected-survivor"),
        Unmet("killer-passed", A, "passed"),
        Unmet("killer-passed", B1, "passed"),
    )
    assert code == ExitCode.EXPECTATION_FAILED


def test_a_passing_killer_after_one_that_failed_is_still_reported():
    result, code = only_result(engine_run(M={0: "failed", 1: "passed"}), applied("M", [A, B1]))
    assert (result.verdict, result.problems, code) == (
        "killed",
        (Unmet("killer-passed", B1, "passed"),),
        ExitCode.EXPECTATION_FAILED,
    )


def test_a_killer_named_without_parameters_lists_every_outcome_it_had():
    result, _ = only_result(engine_run(M={0: "failed", 1: "skipped", 2: "passed"}), applied("M", [A, "t.py::test_b"]))
    assert result.problems == (Unmet("killer-passed", "t.py::test_b", "passed, skipped"),)


def test_a_killer_that_was_selected_but_has_no_outcome_passed_rather_than_was_unreached():
    run = engine_run(M={0: "failed"})
    run.mutants["M"].selected = [0, 1]
    result, _ = only_result(run, applied("M", [B1]))
    assert result.problems == (Unmet("killer-passed", B1, ""),)


def test_a_timed_out_mutant_whose_killer_passed_fails_the_run():
    run = engine_run(M={0: "timeout", 1: "passed"})
    run.mutants["M"].timed_out = True
    result, code = only_result(run, applied("M", [A, B1]))
    assert (result.verdict, result.killers) == ("timeout", (A,))
    assert (result.problems, code) == ((Unmet("killer-passed", B1, "passed"),), ExitCode.EXPECTATION_FAILED)


def test_bail_forgives_each_killer_it_stopped_before_but_not_one_that_passed():
    run = engine_run(M={0: "failed", 1: "not-run", 2: "passed"})
    result, code = only_result(run, applied("M", [B1, B2]), bail=True)
    assert (result.problems, code) == ((Unmet("killer-passed", B2, "passed"),), ExitCode.EXPECTATION_FAILED)
    result, _ = only_result(run, applied("M", [B1, B2]), bail=False)
    assert result.problems == (Unmet("killer-passed", B1, "not-run"), Unmet("killer-passed", B2, "passed"))


def test_bail_does_not_forgive_a_killer_of_a_survivor():
    result, _ = only_result(engine_run(M={0: "passed", 1: "not-run"}), applied("M", [B1]), bail=True)
    assert result.problems == (Unmet("unexpected-survivor"), Unmet("killer-passed", B1, "not-run"))


def test_a_mutant_no_test_reaches_is_unmet_as_no_coverage():
    result, code = only_result(engine_run(M={}), applied("M", [A]))
    assert (result.verdict, result.killers, result.problems, code) == (
        "no-coverage",
        (),
        (Unmet("no-coverage"),),
        ExitCode.EXPECTATION_FAILED,
    )


def test_a_broken_mutant_is_unmet_with_its_reason_whatever_else_happened():
    run = engine_run(M={0: "failed"})
    run.mutants["M"].broken = "ImportError: x"
    result, code = only_result(run, applied("M", [A]))
    assert (result.verdict, result.problems, code) == (
        "broken",
        (Unmet("broken", detail="ImportError: x"),),
        ExitCode.EXPECTATION_FAILED,
    )


def test_an_equivalent_killed_or_timed_out_names_each_detecting_test():
    run = engine_run(E={0: "timeout", 1: "failed", 2: "passed"})
    run.mutants["E"].timed_out = True
    result, code = only_result(run, applied("E", equivalent=PROOF))
    assert result.verdict == "killed"
    assert result.problems == (Unmet("equivalent-killed", A, "killed"), Unmet("equivalent-killed", B1, "killed"))
    assert code == ExitCode.EXPECTATION_FAILED
    run = engine_run(T={0: "timeout", 1: "passed"})
    run.mutants["T"].timed_out = True
    result, _ = only_result(run, applied("T", equivalent=PROOF))
    assert (result.verdict, result.problems) == ("timeout", (Unmet("equivalent-killed", A, "timeout"),))


def test_generic_survivors_fail_the_run_only_when_strict():
    survivor = engine_run(G={0: "passed"})
    result, code = only_result(survivor, applied("G", generic=True))
    assert (result.verdict, result.problems, code) == ("survived", (), ExitCode.OK)
    assert build_matrix(survivor, [applied("G", generic=True)], bail=False).exit_code == ExitCode.OK
    result, code = only_result(survivor, applied("G", generic=True), strict_generic=True)
    assert (result.problems, code) == ((Unmet("unexpected-survivor"),), ExitCode.EXPECTATION_FAILED)
    killed = engine_run(G={0: "failed"})
    result, code = only_result(killed, applied("G", generic=True), strict_generic=True)
    assert (result.verdict, result.problems, code) == ("killed", (), ExitCode.OK)
    unreached = engine_run(G={})
    result, code = only_result(unreached, applied("G", generic=True), strict_generic=True)
    assert (result.verdict, result.problems, code) == ("no-coverage", (), ExitCode.OK)


def test_a_reverted_hunk_no_test_notices_is_an_unguarded_change_whether_reached_or_not():
    result, code = only_result(engine_run(R={0: "passed", 1: "skipped"}), applied("R", revert=True))
    assert (result.verdict, result.problems, code) == (
        "survived",
        (Unmet("unguarded-change", detail="survived"),),
        ExitCode.EXPECTATION_FAILED,
    )
    result, code = only_result(engine_run(R={}), applied("R", revert=True))
    assert (result.verdict, result.problems, code) == (
        "no-coverage",
        (Unmet("unguarded-change", detail="no-coverage"),),
        ExitCode.EXPECTATION_FAILED,
    )


def test_a_reverted_hunk_is_guarded_by_a_failing_test_or_tests_that_cannot_load_and_by_none_when_compiled_the_same():
    for outcomes in ({0: "passed", 2: "failed"}, {1: "error"}, {0: "timeout"}):
        result, code = only_result(engine_run(R=outcomes), applied("R", revert=True))
        assert (result.verdict in ("killed", "timeout"), result.problems, code) == (True, (), ExitCode.OK)
    result, code = only_result(engine_run(R={0: "passed"}), applied("R", compile_equal=True, revert=True))
    assert (result.verdict, result.problems, code) == ("equivalent", (), ExitCode.OK)
    # The head's tests cannot even load with it undone (they import what the change added): guarded.
    broken = engine_run(R={})
    broken.mutants["R"].broken = "ImportError: cannot import name 'smallest' from 'm'"
    result, code = only_result(broken, applied("R", revert=True))
    assert (result.verdict, result.problems, code) == ("broken", (), ExitCode.OK)


def test_the_baseline_passes_only_when_every_round_agrees_and_nothing_failed():
    run = engine_run()
    assert baseline_passed(run)
    run.baseline.append(BaselineRound(["passed", "skipped", "passed"], [0.1] * 3, [None] * 3))
    assert not baseline_passed(run)  # flaky: the rounds differ
    skipped = EngineRun(tests=TESTS, baseline=[BaselineRound(["skipped", "passed", "passed"], [0.1] * 3, [None] * 3)])
    assert baseline_passed(skipped)
    failing = EngineRun(tests=TESTS, baseline=[BaselineRound(["passed", "error", "passed"], [0.1] * 3, [None] * 3)])
    assert not baseline_passed(failing)
    assert not baseline_passed(EngineRun(tests=TESTS, baseline=[]))
    broken = engine_run()
    broken.collection_error = "ImportError"
    assert not baseline_passed(broken)


def test_exit_status_orders_a_failed_baseline_before_unmet_expectations():
    run = engine_run(M={0: "passed"})
    run.baseline[0].outcomes[0] = "failed"
    matrix = build_matrix(run, [applied("M", [A])], bail=False)
    assert (matrix.results, matrix.unmet, matrix.exit_code) == ((), [], ExitCode.BASELINE_FAILED)
    met = build_matrix(engine_run(M={0: "failed"}, N={0: "passed"}), [applied("M", [A]), applied("N", [A])], False)
    assert [result.applied.mutant.id for result in met.unmet] == ["N"]
    assert met.exit_code == ExitCode.EXPECTATION_FAILED


def test_a_killed_mutant_records_every_detecting_test_in_order():
    run = engine_run(M={2: "timeout", 0: "failed", 1: "order-dependent"})
    result, _ = only_result(run, applied("M", [A]))
    assert result.killers == (A, B2)


def test_a_killer_named_without_parameters_names_only_its_own_parametrizations():
    tests = ["t.py::test_b", "t.py::test_b_other", "t.py::test_b[1]"]
    run = EngineRun(tests=tests, baseline=[BaselineRound(["passed"] * 3, [0.1] * 3, [None] * 3)])
    run.mutants["M"] = MutantRun("M", "swap", None, [1, 2], {1: "failed", 2: "passed"}, {}, {}, False, None, 0, 1)
    (result,) = build_matrix(run, [applied("M", ["t.py::test_b"])], bail=False).results
    assert result.problems == (Unmet("killer-passed", "t.py::test_b", "passed"),)
    run.mutants["M"] = MutantRun("M", "swap", None, [1], {1: "failed"}, {}, {}, False, None, 0, 1)
    (result,) = build_matrix(run, [applied("M", ["t.py::test_b"])], bail=False).results
    assert result.problems == (Unmet("killer-unreached", "t.py::test_b"),)
