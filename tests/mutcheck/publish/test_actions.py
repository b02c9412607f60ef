"""Inside GitHub Actions: escaped annotations for survivors and the job summary."""

import copy
import io
import json

from mutcheck.core.escape import MARKER
from mutcheck.publish.actions import ANNOTATION_LIMIT, annotations, publish_in_actions
from tests.mutcheck.paths import GOLDEN
from tests.mutcheck.results_docs import typed

RESULTS = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))


def test_a_survivor_and_a_mutant_no_test_runs_are_annotated_on_the_mutated_line():
    assert annotations(typed(RESULTS)) == [
        "::warning file=src/tiny.py,line=37,title=UNREACHED no coverage%3A UNREACHED title::UNREACHED why",
        "::warning file=src/tiny.py,line=7,title=SURVIVOR survived%3A SURVIVOR title::SURVIVOR why",
    ]


def test_annotation_values_are_escaped():
    results = copy.deepcopy(RESULTS)
    survivor = next(m for m in results["mutants"] if m["verdict"] == "survived")
    survivor["file"] = "src/a,b:c.py"
    survivor["title"]["en"] = "100% broken, really:\nyes"
    survivor["why"]["en"] = "line one\r\nline two 50%"
    (line,) = [line for line in annotations(typed(results)) if "line=7," in line]
    assert line == (
        "::warning file=src/a%2Cb%3Ac.py,line=7,"
        "title=SURVIVOR survived%3A 100%25 broken%2C really%3A%0Ayes::line one%0D%0Aline two 50%25"
    )


def test_at_most_ten_annotations():
    results = copy.deepcopy(RESULTS)
    survivor = next(m for m in results["mutants"] if m["verdict"] == "survived")
    results["mutants"] = [dict(copy.deepcopy(survivor), id=f"S{n}") for n in range(25)]
    assert len(annotations(typed(results))) == ANNOTATION_LIMIT == 10  # GitHub shows ten warning annotations of a step


def test_summary_and_annotations_only_inside_actions(tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    out = io.StringIO()
    publish_in_actions(typed(RESULTS), out)
    assert out.getvalue() == "" and not summary.exists()
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    publish_in_actions(typed(RESULTS), out)
    assert out.getvalue().startswith("::warning file=src/tiny.py,line=37,")
    text = summary.read_text(encoding="utf-8")
    assert text.startswith(MARKER) and "中文说明" in text
    assert len(text.encode()) < 1024 * 1024
