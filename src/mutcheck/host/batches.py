"""What a test process does: run its tests in order and say how each went, one event per test —
a mutant's or a control's under time limits, a baseline chunk's with the functions each reached —
and, where it is watched (see `watch`), what each test was seen to depend on."""

from typing import Any

import pytest

from mutcheck.core.outcome import PASSED, TIMEOUT
from mutcheck.host.events import EventWriter
from mutcheck.host.protocol import TestResult, run_item
from mutcheck.host.shared_timer import process_alarm
from mutcheck.host.subprocesses import SubprocessReach
from mutcheck.host.swap import Marker
from mutcheck.host.timeouts import Alarm, TestTimeout
from mutcheck.host.watch import Watch

WITNESSES_PER_MUTANT = 2


def run_tests(
    items: list[pytest.Item],
    selected: list[int],
    events: EventWriter,
    bail: bool,
    limits: list[float],
    marker: Marker | None = None,
    watch: Watch | None = None,
) -> None:
    """Run `selected` items in order, one event per test, stopping at the first failure if `bail`.

    A test charged more than its limit (seconds, one per selected test) is interrupted and
    recorded as a timeout; the tests after it still run. With a swapped mutant's `marker`, each
    test's event says whether the mutated code started during it (`ran`); with a `watch`, what it was
    seen to depend on beyond what it showed unmutated (`seen`). Only outcomes count here, so failed
    phases get short reports (see `failure_reports`).
    """
    witnesses = 0
    alarm = process_alarm(items[0].config) if items else Alarm()
    for position, index in enumerate(selected):
        nextitem = items[selected[position + 1]] if position + 1 < len(selected) else None
        events.write({"test": index, "running": True})
        starts = marker.count() if marker else 0
        if watch:
            watch.start_test(index, items[index])
        alarm.arm(limits[position])
        try:
            want_witness = witnesses < WITNESSES_PER_MUTANT
            result = run_item(
                items[index], nextitem, want_witness=want_witness, phases_done=alarm.disarm, full_reports=False
            )
        except TestTimeout:  # raised outside pytest's own catch (e.g. in a report hook)
            result = TestResult(TIMEOUT, limits[position], None)
        finally:
            alarm.disarm()
        witnesses += result.witness is not None
        # a time-out ran for its limit: the alarm stopped it once charged that (give or take its 10 ms), and
        # what its teardown and report took after the stop is not the test's (a kept time-out stands
        # under a limit no longer than this: see `reuse.decide`)
        duration = limits[position] if result.outcome == TIMEOUT else result.duration
        event = {"test": index, "outcome": result.outcome, "duration": duration, "witness": result.witness}
        if marker:
            event["ran"] = marker.count() > starts
        if watch:
            event["seen"] = watch.stop_test()[1].to_json()
        events.write(event)
        if bail and result.outcome not in (PASSED, "skipped"):
            break
    events.write({"done": True})


def baseline_chunk(
    items: list[pytest.Item], chunk: list[int], watch: Watch | None, subprocesses: SubprocessReach | None
) -> list[dict[str, Any]]:
    """The unmutated results of `chunk`, in order, each with what it reached (see `Reach`), in its own
    process and in those it started, and what it was seen to depend on, if watched."""
    results = []
    for position, index in enumerate(chunk):
        nextitem = items[chunk[position + 1]] if position + 1 < len(chunk) else None
        if watch:
            subprocesses.start_test(index)
            watch.start_test(index, items[index])
        result = run_item(items[index], nextitem)
        event = {"test": index, "outcome": result.outcome, "duration": result.duration, "witness": result.witness}
        if watch:
            reached, seen = watch.stop_test()
            event.update(covered=reached.covered, fresh=reached.fresh, cached=reached.cached, lines=reached.lines)
            event["seen"] = seen.to_json()
            event["subprocess"], event["forked"] = subprocesses.stop_test(index)
        results.append(event)
    return results
