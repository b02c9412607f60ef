"""What one test did under one mutant: the per-test outcome names, shared by every stage."""

PASSED = "passed"
FAILED = "failed"
ERROR = "error"
SKIPPED = "skipped"
TIMEOUT = "timeout"
NOT_RUN = "not-run"
ORDER_DEPENDENT = "order-dependent"  # failed under the mutant, but fails unmutated in that order too

DETECTING = (FAILED, ERROR, TIMEOUT)  # outcomes that count against a mutant
OUTCOMES = (PASSED, FAILED, ERROR, SKIPPED, TIMEOUT, NOT_RUN, ORDER_DEPENDENT)
