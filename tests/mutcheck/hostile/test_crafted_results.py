"""Results files that pass the schema yet say what no run says: one line and exit 2 from every
renderer, never an internal error. The reader checks every field the renderers read."""

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main

RESULTS = json.loads((Path(__file__).parents[1] / "golden" / "results.json").read_text(encoding="utf-8"))


def _unguarded_detail(results):
    results["mutants"][0]["problems"] = [{"kind": "unguarded-change", "test": None, "detail": "banana"}]
    return "mutants/0/problems/0/detail: 'banana' is not a detail of a unguarded-change problem"


def _unknown_verdict(results):
    results["summary"]["verdicts"]["banana"] = 1
    return "summary/verdicts: 'banana' is not a verdict"


def _killer_without_outcome(results):
    position, mutant = next((p, m) for p, m in enumerate(results["mutants"]) if m["killers"])
    mutant["outcomes"].pop(str(results["tests"].index(mutant["killers"][0])))
    return f"mutants/{position}/killers/0: {mutant['killers'][0]!r} has no outcome"


def _test_index_as_a_float(results):
    results["mutants"][0]["selected"][0] = 0.0  # an integer to JSON Schema, not to a list index
    return "mutants/0/selected/0: does not match the results schema: 0.0 is not of type 'integer'"


def _span_past_the_end(results):
    results["mutants"][0]["span"].update(start_line=99, end_line=99)  # src/tiny.py has 37 lines and a line break
    return "mutants/0/span: start line 99, column 7 is past the end of the file's text (38 lines)"


def _span_ending_before_it_starts(results):
    results["mutants"][0]["span"].update(start_line=6, end_line=5)
    return "mutants/0/span: ends before it starts"


@pytest.mark.parametrize(
    "craft",
    [
        _unguarded_detail,
        _unknown_verdict,
        _killer_without_outcome,
        _test_index_as_a_float,
        _span_past_the_end,
        _span_ending_before_it_starts,
    ],
)
@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "stryker"])
def test_a_crafted_results_file_is_one_line_and_exit_2_in_every_format(tmp_path, craft, fmt):
    results = copy.deepcopy(RESULTS)
    expected = craft(results)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results), encoding="utf-8")
    result = CliRunner().invoke(main, ["report", str(path), "--format", fmt, "--project", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.output == f"error: {path}: {expected}\n"


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "stryker"])
def test_deleted_last_lines_going_back_are_shown_in_every_format(tmp_path, fmt):
    results = copy.deepcopy(RESULTS)
    # What `--revert` makes of a change that deleted a file's last lines: they go back after its last line break.
    end = results["sources"]["src/tiny.py"].count("\n") + 1
    results["mutants"][0].update(span={"start_line": end, "start_column": 0, "end_line": end, "end_column": 0})
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results), encoding="utf-8")
    result = CliRunner().invoke(main, ["report", str(path), "--format", fmt, "--project", str(tmp_path)])
    assert result.exit_code == 0, result.output


CHANGE_GUARD = {"base": "main", "merge_base": "0" * 40, "files": [], "skipped": [], "about": {}}


@pytest.mark.parametrize("guarded", ["first", "second"])
def test_merge_refuses_shards_of_which_only_one_holds_the_change_guard(tmp_path, guarded):
    paths = []
    for number in (1, 2):
        shard = copy.deepcopy(RESULTS)
        shard["run"]["shard"] = f"{number}/2"
        shard["mutants"] = [m for position, m in enumerate(shard["mutants"]) if position % 2 == number - 1]
        shard["change_guard"] = CHANGE_GUARD if (number == 1) == (guarded == "first") else None
        paths.append(tmp_path / f"shard{number}.json")
        paths[-1].write_text(json.dumps(shard), encoding="utf-8")
    result = CliRunner().invoke(main, ["merge", *map(str, paths), "-o", str(tmp_path / "merged.json")])
    assert result.exit_code == 2, result.output
    message = f"{'has none' if guarded == 'first' else 'has one'}, unlike {paths[0]}: shards must match"
    assert result.output == f"error: {paths[1]}: change_guard: {message}\n"
    assert not (tmp_path / "merged.json").exists()


def test_merge_refuses_shards_that_hold_different_texts_of_one_file(tmp_path):
    paths = []
    for number in (1, 2):
        shard = copy.deepcopy(RESULTS)
        shard["run"]["shard"] = f"{number}/2"
        shard["mutants"] = [m for position, m in enumerate(shard["mutants"]) if position % 2 == number - 1]
        if number == 2:
            shard["sources"]["src/tiny.py"] += "# edited\n"
        paths.append(tmp_path / f"shard{number}.json")
        paths[-1].write_text(json.dumps(shard), encoding="utf-8")
    result = CliRunner().invoke(main, ["merge", *map(str, paths), "-o", str(tmp_path / "merged.json")])
    assert result.exit_code == 2, result.output
    message = f"'src/tiny.py' differs from its text in {paths[0]}: shards must match"
    assert result.output == f"error: {paths[1]}: sources: {message}\n"
    assert not (tmp_path / "merged.json").exists()
