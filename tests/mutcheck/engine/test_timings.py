"""The results record how long each phase of a run took."""

from tests.mutcheck.cli_runs import run
from tests.mutcheck.engine_project import make_engine_project

SEQUENTIAL = ("startup", "copy", "host_start", "collection", "baseline", "mutants")


def test_every_phase_has_its_seconds_and_they_add_up_to_no_more_than_the_whole(tmp_path):
    _, output, data = run(make_engine_project(tmp_path / "project"), "--only", "SWAP", "--only", "FALLBACK")
    timings = data["run"]["timings"]
    assert set(timings) == {*SEQUENTIAL, "apply", "total"}, output
    assert all(seconds >= 0 for seconds in timings.values())
    assert timings["collection"] > 0 and timings["host_start"] > 0 and timings["mutants"] > 0
    # The phases follow one another (apply overlaps host_start..baseline), within the total.
    assert sum(timings[phase] for phase in SEQUENTIAL) <= timings["total"] + 0.01
    assert timings["mutants"] == data["run"]["mutant_phase_seconds"]
