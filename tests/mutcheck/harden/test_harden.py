"""A survivor no call told apart: equivalent in practice only when every call was compared."""

from collections import Counter

from mutcheck.harden.harden import EQUIVALENT_IN_PRACTICE, GAVE_UP, PLACED, without_witness
from mutcheck.harden.witness import NOT_REPRODUCED, SAME, UNBUILDABLE, UNSTEADY, UNWRITABLE_RESULT


def test_equivalent_in_practice_only_when_every_call_was_compared() -> None:
    assert without_witness(Counter({SAME: 40})) == EQUIVALENT_IN_PRACTICE
    unwritable = "an argument cannot be written as source (self: a pkg.Interval: …)"
    assert without_witness(Counter({SAME: 1, unwritable: 959})) == GAVE_UP
    assert without_witness(Counter({SAME: 3, f"{UNWRITABLE_RESULT} (its return value: a lock)": 1})) == GAVE_UP
    assert without_witness(Counter({SAME: 3, UNBUILDABLE: 1})) == GAVE_UP
    assert without_witness(Counter({SAME: 3, PLACED: 1})) == GAVE_UP
    assert without_witness(Counter({SAME: 3, UNSTEADY: 1})) == GAVE_UP  # two replays of the original differ
    assert without_witness(Counter({SAME: 3, NOT_REPRODUCED: 1})) == GAVE_UP
    assert without_witness(Counter()) == GAVE_UP  # nothing compared at all
