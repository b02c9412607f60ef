"""The time limit's part in a stored outcome standing: an outcome that ended stands under a limit
longer than it took; a time-out, under a limit no longer than it was charged before it was stopped."""

import pytest

from mutcheck.core.outcome import FAILED, PASSED, TIMEOUT
from mutcheck.reuse.decide import past_the_limit
from mutcheck.reuse.store import TestOutcome as StoredOutcome


@pytest.mark.parametrize(
    ("outcome", "took", "limit", "runs_again"),
    [
        (PASSED, 0.5, 2.0, False),
        (PASSED, 2.0, 2.0, True),  # today it would be stopped
        (FAILED, 3.0, 2.0, True),
        (TIMEOUT, 2.0, 2.0, False),
        (TIMEOUT, 2.0, 1.5, False),  # stopped sooner today, still unfinished
        (TIMEOUT, 2.0, 3.0, True),  # a longer limit might let it finish
    ],
)
def test_a_stored_outcome_runs_again_when_today_s_limit_could_end_it_otherwise(outcome, took, limit, runs_again):
    assert past_the_limit(StoredOutcome(outcome, took, None, 0), limit) is runs_again
