"""What a test process says, read without a process: lines split across reads, test indices of a
forked child and of a fallback host (which numbers its own tests), a broken mutant, the end."""

import json

from mutcheck.host.children import Child, absorb


def _child(selected: list[int], fallback: bool = False) -> Child:
    child = Child({"id": "M", "selected": selected}, selected, 0, -1, 1.0, None, 0.0)
    child.fresh_host = fallback  # a fallback host numbers its own tests
    return child


def _lines(*events: dict) -> bytes:
    return b"".join(json.dumps(event).encode() + b"\n" for event in events)


def test_a_line_split_across_reads_is_taken_in_once_whole():
    child = _child([4, 7])
    data = _lines({"test": 4, "running": True}, {"test": 4, "outcome": "failed", "duration": 0.5, "witness": "E"})
    absorb(child, data[:30])
    assert child.running == 4 and child.outcomes == {}
    absorb(child, data[30:])
    assert child.outcomes == {4: "failed"} and child.durations == {4: 0.5} and child.witnesses == {4: "E"}
    assert child.running is None and child.buffer == b""


def test_a_fallback_host_s_own_numbers_are_the_run_s_test_indices():
    child = _child([4, 7], fallback=True)
    absorb(child, _lines({"test": 1, "running": True}))
    assert child.running == 7
    absorb(child, _lines({"test": 1, "outcome": "passed", "duration": 0.1, "ran": True}, {"done": True}))
    assert child.outcomes == {7: "passed"} and child.ran == {7: True} and child.finished


def test_a_broken_mutant_is_noted_and_blank_lines_are_skipped():
    child = _child([0])
    absorb(child, b"\n" + _lines({"broken": "ImportError: cannot import name x"}))
    assert child.broken == "ImportError: cannot import name x" and not child.finished
