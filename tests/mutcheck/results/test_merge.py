"""`mutcheck merge`: real `--shard k/n` results of a fixture project, combined or refused."""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.problems import InputError
from mutcheck.results.merge import merge_results
from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.paths import GOLDEN
from tests.mutcheck.results_docs import document, typed

# SWAP falls in shard 1/2, NESTED in 2/2; both are killed as catalogued.
SELECTION = ["--only", "SWAP", "--only", "NESTED"]


def run_json(project: Path, path: Path, *args: str) -> Path:
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--json", str(path), *args])
    assert path.exists(), result.output
    return path


def merge(*paths: Path, output: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["merge", *map(str, paths), "-o", str(output)])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> dict[str, Path]:
    """Shards 1/2 and 2/2 and the unsharded run of the same selection."""
    root = tmp_path_factory.mktemp("merge")
    project = make_engine_project(root / "project", git=True)
    return {
        "1/2": run_json(project, root / "shard1.json", "--shard", "1/2", *SELECTION),
        "2/2": run_json(project, root / "shard2.json", "--shard", "2/2", *SELECTION),
        "whole": run_json(project, root / "whole.json", *SELECTION),
    }


def test_every_shard_merges_and_the_times_are_the_slowest_shards(shards, tmp_path):
    output = tmp_path / "merged.json"
    code, text = merge(shards["1/2"], shards["2/2"], output=output)
    assert code == ExitCode.OK, text
    merged = document(output)
    runs = [document(shards[k])["run"] for k in ("1/2", "2/2")]
    assert [m["id"] for m in merged["mutants"]] == ["SWAP", "NESTED"]
    assert set(merged["run"]) == set(runs[0])  # every field of a shard's run is decided, none dropped
    assert merged["run"]["shard"] is None
    assert merged["run"]["seconds"] == max(r["seconds"] for r in runs)
    assert merged["run"]["mutant_phase_seconds"] == max(r["mutant_phase_seconds"] for r in runs)
    assert merged["run"]["timings"] == {phase: max(r["timings"][phase] for r in runs) for phase in runs[0]["timings"]}
    assert merged["run"]["copy"] == {key: max(r["copy"][key] for r in runs) for key in ("files", "bytes", "seconds")}
    assert merged["run"]["jobs"] == max(r["jobs"] for r in runs)


def test_the_merged_run_was_made_in_ci_only_if_every_shard_was(shards):
    loaded = [(shards[k], document(shards[k])) for k in ("1/2", "2/2")]
    for flags in ((True, True), (True, False), (False, True), (False, False)):
        for (_, shard), flag in zip(loaded, flags, strict=True):
            shard["run"]["ci"] = flag
        assert merge_results([(path, typed(shard)) for path, shard in loaded]).run.ci is all(flags), flags


def test_each_time_is_the_maximum_whichever_shard_comes_first(shards):
    """Shard 2's times made the larger, so that a value taken from the first shard alone shows."""
    first, second = document(shards["1/2"]), document(shards["2/2"])
    second["run"].update(
        seconds=first["run"]["seconds"] + 7, mutant_phase_seconds=first["run"]["mutant_phase_seconds"] + 5
    )
    second["run"]["timings"] = {phase: seconds + 3 for phase, seconds in first["run"]["timings"].items()}
    second["run"]["copy"] = {**first["run"]["copy"], "seconds": first["run"]["copy"]["seconds"] + 2}
    second["run"]["jobs"] = first["run"]["jobs"] + 1
    run = merge_results([(Path("1.json"), typed(first)), (Path("2.json"), typed(second))]).run.to_json()
    assert run["seconds"] == second["run"]["seconds"]
    assert run["mutant_phase_seconds"] == second["run"]["mutant_phase_seconds"]
    assert run["timings"] == second["run"]["timings"]
    assert run["copy"]["seconds"] == second["run"]["copy"]["seconds"]
    assert run["jobs"] == second["run"]["jobs"]


def test_one_shard_of_two_is_refused_naming_the_missing_one(shards, tmp_path):
    output = tmp_path / "merged.json"
    code, text = merge(shards["1/2"], output=output)
    assert code == ExitCode.USAGE
    assert text.strip() == "error: merge: run.shard: missing shards 2/2 of 2"
    assert not output.exists()


def test_a_shard_given_twice_is_refused_naming_both_files(shards, tmp_path):
    again = tmp_path / "again.json"
    shutil.copy(shards["1/2"], again)
    code, text = merge(shards["1/2"], shards["2/2"], again, output=tmp_path / "merged.json")
    assert code == ExitCode.USAGE
    assert text.strip() == f"error: {again}: run.shard: 1/2 is in {shards['1/2']} too: give each shard once"


def test_an_unsharded_result_is_refused(shards, tmp_path):
    code, text = merge(shards["1/2"], shards["whole"], output=tmp_path / "merged.json")
    assert code == ExitCode.USAGE
    assert f"error: {shards['whole']}: run.shard: null: not a `mutcheck run --shard k/n` result" in text


def test_shards_of_different_counts_are_refused(shards):
    first, other = document(shards["1/2"]), document(shards["2/2"])
    other["run"]["shard"] = "2/3"
    with pytest.raises(InputError) as raised:
        merge_results([(Path("a.json"), typed(first)), (Path("b.json"), typed(other))])
    assert [str(p) for p in raised.value.problems] == ["b.json: run.shard: 2/3 is a shard of 3, a.json one of 2"]


def test_a_huge_shard_count_lists_a_few_missing_shards():
    results = document(GOLDEN / "results.json")
    results["run"]["shard"] = "3/1000000000000"
    with pytest.raises(InputError) as raised:
        merge_results([(Path("a.json"), typed(results))])
    message = str(raised.value.problems[0])
    assert message.startswith("merge: run.shard: missing shards 1/1000000000000, 2/1000000000000, 4/1000000000000")
    assert message.endswith("and 999999999989 more of 1000000000000")


def test_shards_of_different_runs_are_refused(shards):
    first, other = document(shards["1/2"]), document(shards["2/2"])
    other["run"].update(bail=True, only=["NESTED"])
    with pytest.raises(InputError) as raised:
        merge_results([(Path("a.json"), typed(first)), (Path("b.json"), typed(other))])
    assert [str(p) for p in raised.value.problems] == [
        "b.json: run.bail: differs from a.json: shards must match",
        "b.json: run.only: differs from a.json: shards must match",
    ]


def test_shards_merge_into_the_unsharded_result(tmp_path):
    project = make_engine_project(tmp_path / "project", git=True)
    # --fresh: each shard runs its mutants, none reused from the whole run
    selection = ["--only", "SWAP", "--only", "NESTED", "--only", "EQUAL", "--only", "SURVIVOR", "--fresh"]
    whole = document(run_json(project, tmp_path / "whole.json", *selection))
    paths = [run_json(project, tmp_path / f"shard{k}.json", "--shard", f"{k}/3", *selection) for k in (1, 2, 3)]
    merged_path = tmp_path / "merged.json"
    code, text = merge(*paths, output=merged_path)
    assert code == ExitCode.EXPECTATION_FAILED, text  # SURVIVOR stays unmet
    merged = document(merged_path)

    def comparable(data):
        return [
            {key: value for key, value in entry.items() if key not in ("seconds", "time_limit")}
            for entry in data["mutants"]
        ]

    assert comparable(merged) == comparable(whole)
    assert merged["summary"] == whole["summary"]
    assert sum(len(document(p)["mutants"]) for p in paths) == 4
    shard_controls = [document(p)["run"]["controls"] for p in paths]
    assert merged["run"]["controls"] == {key: sum(c[key] for c in shard_controls) for key in ("runs", "tests")}
    assert merged["run"]["controls"]["runs"] >= 1  # SWAP's failures were checked unmutated


def test_merge_refuses_shards_of_different_catalogs(tmp_path):
    project = make_engine_project(tmp_path / "project", git=True)
    first = run_json(project, tmp_path / "a.json", "--shard", "1/2", *SELECTION)
    catalog = project / "mutants/catalog.toml"
    catalog.write_text(catalog.read_text().replace("value > low", "value >= low", 1))
    second = run_json(project, tmp_path / "b.json", "--shard", "2/2", *SELECTION)
    code, text = merge(first, second, output=tmp_path / "m.json")
    assert code == ExitCode.USAGE
    assert "run.catalog_digest: differs from" in text
