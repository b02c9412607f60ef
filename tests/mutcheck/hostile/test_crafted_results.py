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


@pytest.mark.parametrize("craft", [_unguarded_detail, _unknown_verdict, _killer_without_outcome])
@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "stryker"])
def test_a_crafted_results_file_is_one_line_and_exit_2_in_every_format(tmp_path, craft, fmt):
    results = copy.deepcopy(RESULTS)
    expected = craft(results)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results), encoding="utf-8")
    result = CliRunner().invoke(main, ["report", str(path), "--format", fmt, "--project", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.output == f"error: {path}: {expected}\n"
