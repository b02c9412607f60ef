"""Deterministic property tests: the same examples every run, and no example database on disk.

Under mutcheck (MUTCHECK_RUNNING is set) each property test runs 10 examples instead of 50 and a
failing example is not shrunk: a verdict needs one failure, not its smallest form, and property
tests would otherwise be nearly all of the mutant phase. The benchmarks give the naive runs the
same settings.
"""

import os

from hypothesis import Phase, settings

UNDER_MUTCHECK = bool(os.environ.get("MUTCHECK_RUNNING"))

settings.register_profile(
    "deterministic",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=10 if UNDER_MUTCHECK else 50,
    phases=[phase for phase in Phase if not (UNDER_MUTCHECK and phase is Phase.shrink)],
)
settings.load_profile("deterministic")
