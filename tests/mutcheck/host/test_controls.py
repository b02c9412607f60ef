"""Control runs, decided without a process: which unmutated runs a finished mutant needs, which are
queued, and which failures their outcomes turn order-dependent."""

from mutcheck.core.outcome import FAILED, ORDER_DEPENDENT, PASSED
from mutcheck.host.children import Child
from mutcheck.host.controls import Controls, needs


def _finished(selected: list[int], outcomes: dict[int, str], sequences: list[list[int]]) -> Child:
    child = Child({"id": "M", "selected": selected}, selected, 0, -1, 1.0, None, 0.0)
    child.outcomes, child.sequences = dict(outcomes), sequences
    child.witnesses = {index: "AssertionError" for index, outcome in outcomes.items() if outcome == FAILED}
    return child


def test_a_mutant_needs_each_process_s_tests_up_to_the_one_after_its_last_failure():
    child = _finished([0, 1, 2, 3, 4], {1: FAILED, 3: FAILED}, [[0, 1, 2], [3, 4]])
    assert needs(child) == [(0, 1, 2), (3, 4)]
    assert needs(_finished([0, 1], {0: PASSED, 1: PASSED}, [[0, 1]])) == []
    assert needs(_finished([0, 1, 2], {2: FAILED}, [[0, 1, 2]])) == [(0, 1, 2)]  # the last: nothing after it


def test_a_missing_control_is_queued_once_and_not_while_a_longer_run_starting_the_same_way_is_due():
    controls = Controls()
    controls.waiting = [_finished([0, 1, 2], {1: FAILED}, [[0, 1, 2]])]
    assert controls.release(running=[], unfinished=[[0, 1, 2, 3]]) == []
    assert controls.queue == []  # the mutant yet to run could need (0, 1, 2, 3), which answers both
    assert controls.release(running=[], unfinished=[]) == []
    assert controls.queue == [(0, 1, 2)]
    controls.release(running=[], unfinished=[])
    assert controls.queue == [(0, 1, 2)]  # queued already: not twice


def test_a_failure_the_control_shares_is_order_dependent_and_loses_its_witness():
    controls = Controls()
    child = _finished([0, 1, 2, 3], {1: FAILED, 3: FAILED}, [[0, 1, 2, 3]])
    controls.waiting = [child]
    controls.finished[(0, 1, 2, 3, 4)] = {0: PASSED, 1: FAILED, 2: PASSED, 3: PASSED}  # a longer run answers
    assert controls.release(running=[], unfinished=[]) == [child]
    assert child.outcomes == {1: ORDER_DEPENDENT, 3: FAILED}
    assert child.witnesses == {3: "AssertionError"}
    assert controls.waiting == [] and controls.queue == []
