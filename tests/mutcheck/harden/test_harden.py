"""A survivor no call told apart: equivalent in practice only when every call was compared."""

from collections import Counter

from mutcheck.harden.harden import EQUIVALENT_IN_PRACTICE, GAVE_UP, PLACED, without_witness
from mutcheck.harden.witness import NOT_REPRODUCED, SAME, UNBUILDABLE, UNSTEADY, UNWRITABLE_RESULT


def test_equivalent_in_practice_only_when_every_recorded_call_was_compared() -> None:
    def status(recorded: dict, varied: dict | None = None) -> str:
        return without_witness(Counter(recorded), Counter(recorded) + Counter(varied or {}))

    assert status({SAME: 40}) == EQUIVALENT_IN_PRACTICE
    unwritable = "an argument cannot be written as source (self: a pkg.Interval: …)"
    assert status({SAME: 1, unwritable: 959}) == GAVE_UP
    assert status({SAME: 3, f"{UNWRITABLE_RESULT} (its return value: a lock)": 1}) == GAVE_UP
    assert status({SAME: 3, UNBUILDABLE: 1}) == GAVE_UP
    assert status({SAME: 3, UNSTEADY: 1}) == GAVE_UP  # two replays of the original differ
    assert status({SAME: 3, NOT_REPRODUCED: 1}) == GAVE_UP
    assert status({SAME: 3}, {PLACED: 1}) == GAVE_UP  # a path or an address held, by any call
    assert status({}) == GAVE_UP  # nothing compared at all
    # a variation left uncompared (a constructor refused it, its result is an iterator) was an input
    # no test gave: every recorded call was compared
    assert status({SAME: 3}, {UNBUILDABLE: 5, f"{UNWRITABLE_RESULT} (an iterator)": 2, SAME: 9}) == (
        EQUIVALENT_IN_PRACTICE
    )
    assert status({}, {SAME: 9}) == GAVE_UP  # no recorded call compared: variations alone do not count
