"""`mutcheck run` on this repository: the catalog is load-bearing, and the seeds' matrices hold."""

from pathlib import Path

from mutcheck.report.stryker import render_stryker
from tests.mutcheck.results_docs import typed
from tests.mutcheck.spans import at_location, patched

REPOSITORY = Path(__file__).resolve().parents[2]


def _entry(results: dict, name: str) -> dict:
    return next(m for m in results["mutants"] if name == m["id"] or name in m["aliases"])


def _failed(results: dict, entry: dict) -> set[str]:
    return {results["tests"][int(i)] for i, outcome in entry["outcomes"].items() if outcome in ("failed", "error")}


def test_every_killed_by_test_fails_under_its_mutant(repository_results):
    for entry in repository_results["mutants"]:
        failed = {test.split("[")[0] for test in _failed(repository_results, entry)}
        assert set(entry["killed_by"]) <= failed, entry["id"]


def test_every_declared_equivalent_mutant_survives(repository_results):
    equivalents = [entry for entry in repository_results["mutants"] if entry["equivalent"]]
    assert len(equivalents) >= 8
    assert all(entry["verdict"] == "equivalent" and not _failed(repository_results, entry) for entry in equivalents)


def test_seed_000_sandboxed_matrix_is_reproduced(repository_results):
    """M1–M6 of seed 000's verification report: each killed by the named kind of test."""
    expectations = {
        "000-M1": "test_e2_back_to_back_episodes_split",
        "000-M2": "test_d1_truncated_second_episode_is_dropped_from_history_and_record",
        "000-M3": "test_x2_signed_episode_survives_recovery",
        "000-M4": "test_every_tool_use_turn_is_normalized_not_only_the_latest",
        "000-M5": "test_merge_example_keeps_chronological_order",
        "000-M6": "test_x3_stray_signature_text_part_is_consumed",
    }
    for name, test in expectations.items():
        entry = _entry(repository_results, name)
        assert entry["verdict"] == "killed", name
        assert any(killer.split("::")[1].startswith(test) for killer in entry["killers"]), name


def test_seed_000_m1_kills_only_the_back_to_back_shape(repository_results):
    """Seed 000: 'M1 kills only the back-to-back shape … the two guards cover disjoint shapes'."""
    killers = {killer.split("::")[1] for killer in _entry(repository_results, "000-M1")["killers"]}
    assert "test_e2_back_to_back_episodes_split" in killers
    assert "test_e1_interleaved_episodes_keep_their_place" not in killers


def test_seed_003_retry_matrix_is_reproduced(repository_results):
    """Seed 003's M1–M7: all killed except M4, which is provably equivalent."""
    verdicts = {f"003-M{n}": _entry(repository_results, f"003-M{n}")["verdict"] for n in range(1, 8)}
    assert verdicts == {name: ("equivalent" if name == "003-M4" else "killed") for name in verdicts}


def test_catalog_runs_entirely_by_code_swapping(repository_results):
    assert {entry["path"] for entry in repository_results["mutants"] if entry["verdict"] != "equivalent"} == {"swap"}


def test_every_stryker_location_and_replacement_give_the_mutated_file(repository_results):
    diffs = {entry["id"]: entry["diff"] for entry in repository_results["mutants"]}
    checked = []
    for file in render_stryker(typed(repository_results))["files"].values():
        for mutant in file["mutants"]:
            mutated = at_location(file["source"], mutant["location"], mutant["replacement"])
            assert patched(file["source"], diffs[mutant["id"]]) == mutated, mutant["id"]
            checked.append(mutant)
    assert len(checked) == len(repository_results["mutants"])
    deletions = sum(
        path.read_text(encoding="utf-8").count("\ndelete = true")
        for path in [*REPOSITORY.glob("mutants/*.toml"), *REPOSITORY.glob("mutants/bridge/*.toml")]
    )
    assert deletions and sum(mutant["replacement"] == "" for mutant in checked) == deletions
