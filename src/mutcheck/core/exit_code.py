"""The process exit status of every mutcheck command, in one place."""

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    EXPECTATION_FAILED = 1  # an unexpected survivor, a missing expected killer, a killed "equivalent"
    USAGE = 2  # bad flags, configuration, catalog or input file
    BASELINE_FAILED = 3  # the unmutated suite fails or is flaky
    PUBLISH_FAILED = 4  # a report could not be published (e.g. no permission to comment)
    INTERNAL_ERROR = 5  # a defect of mutcheck itself: one line, the details in a file
    OUTPUT_CLOSED = 141  # the reader of the output went away (`mutcheck list | head`): 128 + SIGPIPE
    INTERRUPTED = 130  # SIGINT (Ctrl-C), as shells report it: 128 + 2
    TERMINATED = 143  # SIGTERM: 128 + 15


def run_status(baseline_ok: bool, unmet: bool) -> ExitCode:
    """A run's exit status: the baseline first, then any expectation the run did not meet."""
    if not baseline_ok:
        return ExitCode.BASELINE_FAILED
    return ExitCode.EXPECTATION_FAILED if unmet else ExitCode.OK
