"""Stryker JSON from a real run of the fixture project: Stryker's schema, the mutated code at each
location, the run's CI flag, and what Stryker's own viewer (mutation-testing-elements) shows of it
in headless Chromium."""

import html
import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.ci import in_ci
from mutcheck.report.stryker import render_stryker
from tests.mutcheck.browser import chromium
from tests.mutcheck.engine_project import CATALOG, make_engine_project
from tests.mutcheck.npm_packages import npm_package, stryker_schema
from tests.mutcheck.paths import TESTS
from tests.mutcheck.results_docs import document, typed
from tests.mutcheck.spans import at_location, patched

DELETE = '''
[[mutant]]
id = "DELETE"
family = "boundary"
file = "src/tiny.py"
scope = "clamp"
match = """if value > high:
    return high"""
delete = true
killed_by = ["tests/test_tiny.py::test_clamp_high"]
origin = "engine fixture"
title = { en = "DELETE title", zh = "DELETE 标题" }
why = { en = "DELETE why", zh = "DELETE 原因" }
'''


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict[str, Path]:
    """`mutcheck run` of the fixture's catalog and a statement deletion, made in CI: its results and Stryker JSON."""
    root = tmp_path_factory.mktemp("stryker")
    project = make_engine_project(root / "project", catalog=CATALOG + DELETE)
    paths = {"results": root / "results.json", "stryker": root / "stryker.json"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CI", "true")
        arguments = ["run", "--project", str(project), "--json", str(paths["results"])]
        outcome = CliRunner().invoke(main, [*arguments, "--stryker", str(paths["stryker"])])
    assert paths["stryker"].is_file(), outcome.output
    return paths


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_report_validates_against_strykers_schema(run):
    report = read(run["stryker"])
    assert len(report["files"]["src/tiny.py"]["mutants"]) == 10
    jsonschema.Draft7Validator(stryker_schema()).validate(report)


def test_the_replacement_at_each_location_gives_the_mutated_file(run):
    results, report = document(run["results"]), read(run["stryker"])
    diffs = {mutant["id"]: mutant["diff"] for mutant in results["mutants"]}
    for file in report["files"].values():
        for mutant in file["mutants"]:
            mutated = at_location(file["source"], mutant["location"], mutant["replacement"])
            assert patched(file["source"], diffs[mutant["id"]]) == mutated, mutant["id"]
    deleted = next(mutant for mutant in report["files"]["src/tiny.py"]["mutants"] if mutant["id"] == "DELETE")
    # The deleted statement's whole lines, line break included: the location ends past it.
    assert deleted["location"] == {"start": {"line": 7, "column": 1}, "end": {"line": 8, "column": 21}}
    assert deleted["replacement"] == ""


def test_a_run_in_ci_says_so_when_its_results_are_rendered_later(run, monkeypatch):
    assert document(run["results"])["run"]["ci"] is True
    assert read(run["stryker"])["system"]["ci"] is True
    monkeypatch.delenv("CI", raising=False)
    later = CliRunner().invoke(main, ["report", str(run["results"]), "--format", "stryker"])
    assert later.exit_code == 0, later.output
    assert json.loads(later.output) == read(run["stryker"])


@pytest.mark.parametrize(
    ("value", "ci"),
    [("true", True), ("1", True), ("yes", True), ("TRUE", True), ("false", False), ("0", False), ("", False)],
)
def test_ci_is_the_ci_variable_set_to_a_true_value(monkeypatch, value, ci):
    monkeypatch.setenv("CI", value)
    assert in_ci() is ci
    monkeypatch.delenv("CI")
    assert in_ci() is False


def test_results_written_before_replacements_were_recorded_still_render(run, tmp_path):
    older = read(run["results"])
    del older["run"]["ci"]
    for mutant in older["mutants"]:
        del mutant["replacement"]
    path = tmp_path / "older.json"
    path.write_text(json.dumps(older), encoding="utf-8")
    report = render_stryker(typed(document(path)))
    mutants = report["files"]["src/tiny.py"]["mutants"]
    assert report["system"]["ci"] is False and not any("replacement" in mutant for mutant in mutants)
    jsonschema.Draft7Validator(stryker_schema()).validate(report)


def viewed(report: dict, tmp_path: Path) -> dict:
    """What Stryker's viewer shows of `report` in headless Chromium (see stryker_viewer.html)."""
    page = tmp_path / "viewer.html"
    shutil.copyfile(TESTS / "stryker_viewer.html", page)
    script = npm_package("mutation-testing-elements") / "dist" / "mutation-test-elements.js"
    shutil.copyfile(script, tmp_path / "mutation-test-elements.js")
    (tmp_path / "report.js").write_text(f"const REPORT = {json.dumps(report)};\n", encoding="utf-8")
    dom = chromium(tmp_path, page.as_uri(), "--virtual-time-budget=60000", "--dump-dom")
    seen = re.search(r'<pre id="seen">(.*?)</pre>', dom, flags=re.S)
    assert seen and seen.group(1), "the viewer page did not finish"
    return json.loads(html.unescape(seen.group(1)))


def test_strykers_viewer_shows_the_files_mutants_mutated_code_and_tests(run, tmp_path):
    report = read(run["stryker"])
    replacements = {mutant["id"]: mutant["replacement"] for mutant in document(run["results"])["mutants"]}
    seen = viewed(report, tmp_path)
    assert seen["errors"] == []
    assert "tiny.py" in seen["root"]
    assert list(seen["files"]) == ["#mutant/tiny.py"]  # the viewer leaves out the folder all files share
    file = report["files"]["src/tiny.py"]
    shown = seen["files"]["#mutant/tiny.py"]
    assert set(shown) == {mutant["id"] for mutant in file["mutants"]}
    lines = file["source"].split("\n")
    names = {test["id"]: test["name"] for tests in report["testFiles"].values() for test in tests["tests"]}
    for mutant in file["mutants"]:
        start, end = mutant["location"]["start"], mutant["location"]["end"]
        mutated = lines[start["line"] - 1][: start["column"] - 1] + replacements[mutant["id"]]
        mutated += lines[end["line"] - 1][end["column"] - 1 :]
        assert shown[mutant["id"]]["mutated"] == mutated.rstrip().split("\n"), mutant["id"]  # not the title
        drawer = shown[mutant["id"]]["drawer"]
        assert mutant["description"] in drawer
        assert all(names[test] in drawer for test in mutant["killedBy"] + mutant["coveredBy"]), mutant["id"]
    assert shown["DELETE"]["mutated"] == [""]
    assert list(seen["tests"]) == ["#test/test_tiny.py"]
    assert all(name in seen["tests"]["#test/test_tiny.py"] for name in names.values())
