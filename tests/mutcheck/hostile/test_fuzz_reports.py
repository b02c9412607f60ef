"""Fuzzing the artifact reader, the results loader with `report`, and the Markdown renderer."""

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mutcheck.cli import main
from mutcheck.core.escape import MARKER
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.problems import InputError
from mutcheck.report.markdown import render_markdown
from mutcheck.results.artifact import read_artifact
from tests.mutcheck.hostile.markdown_checks import assert_inert
from tests.mutcheck.hostile.results_edits import RESULTS, alike, hostile_text, json_values, paths
from tests.mutcheck.results_docs import typed

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLACES = paths(RESULTS)[1:]
REFERENCES = ("tests", "outcomes", "witnesses", "selected", "killers", "id", "detail", "title", "families", "sources")
REFERRING = [path for path in PLACES if any(part in REFERENCES for part in path)]


@st.composite
def edited_results(draw: st.DrawFn) -> str:
    """The golden results with one to three places replaced, mostly by a value of the same type."""
    results = copy.deepcopy(RESULTS)
    for path in draw(st.lists(st.sampled_from(REFERRING) | st.sampled_from(PLACES), min_size=1, max_size=3)):
        parent = results
        try:
            for key in path[:-1]:
                parent = parent[key]
            old = parent[path[-1]]
        except (KeyError, IndexError, TypeError):  # an earlier edit replaced this place's parent
            continue
        parent[path[-1]] = draw(st.one_of(alike(old), alike(old), json_values))
    return json.dumps(results)


results_text = st.one_of(edited_results(), st.text(), st.binary().map(lambda b: b.decode("latin-1")))


def assert_clean_exit(outcome, allowed: set[int]) -> None:
    assert outcome.exit_code in allowed, (outcome.exit_code, outcome.output[-500:])
    assert outcome.exception is None or isinstance(outcome.exception, SystemExit), repr(outcome.exception)
    assert "Traceback" not in outcome.output


@FUZZ
@given(
    results=st.one_of(edited_results().map(str.encode), st.binary()),
    number=st.sampled_from([b"7", b"12\n"]) | st.binary(max_size=12),
)
def test_the_artifact_reader_returns_or_refuses(results, number):
    with tempfile.TemporaryDirectory() as directory:
        (Path(directory) / "results.json").write_bytes(results)
        (Path(directory) / "pr-number").write_bytes(number)
        try:
            loaded, pr_number = read_artifact(Path(directory))
        except InputError as error:
            assert len(error.problems) == 1 and "\n" not in str(error)
        else:  # whatever the reader accepts, the comment renders
            assert pr_number >= 1 and render_markdown(loaded).startswith(MARKER)


@FUZZ
@given(text=results_text, fmt=st.sampled_from(["text", "markdown", "html", "stryker"]))
def test_report_renders_or_refuses_any_results_file(text, fmt):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "results.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        outcome = CliRunner().invoke(main, ["report", str(path), "--format", fmt])
    assert_clean_exit(outcome, {ExitCode.OK, ExitCode.USAGE})
    if outcome.exit_code == ExitCode.USAGE:
        assert outcome.output.splitlines()[0].startswith(f"error: {path}")


@st.composite
def hostile_results(draw: st.DrawFn) -> dict[str, Any]:
    """Valid results whose every untrusted string is arbitrary; references between fields stay intact."""
    results = copy.deepcopy(RESULTS)
    tests = draw(st.lists(hostile_text, min_size=len(results["tests"]), max_size=len(results["tests"]), unique=True))
    renamed = dict(zip(results["tests"], tests, strict=True))
    ids = draw(st.lists(hostile_text, min_size=len(results["mutants"]), max_size=len(results["mutants"]), unique=True))
    file = draw(hostile_text)
    results["tests"] = tests
    results["sources"] = {file: draw(hostile_text)}
    for failure in results["baseline"]["failures"]:
        failure["test"] = renamed[failure["test"]]
        failure["witness"] = draw(hostile_text)
    results["baseline"]["flaky"] = [renamed[test] for test in results["baseline"]["flaky"]]
    for mutant, mutant_id in zip(results["mutants"], ids, strict=True):
        mutant.update(id=mutant_id, file=file, diff=draw(hostile_text), scope=draw(hostile_text))
        mutant["title"] = {lang: draw(hostile_text) for lang in mutant["title"]}
        mutant["why"] = {lang: draw(hostile_text) for lang in mutant["why"]}
        mutant["killers"] = [renamed[test] for test in mutant["killers"]]
        mutant["killed_by"] = [renamed[test] for test in mutant["killed_by"]]
        mutant["witnesses"] = {index: draw(hostile_text) for index in mutant["witnesses"]}
        for problem in mutant["problems"]:
            problem["test"] = renamed.get(problem["test"], problem["test"])
            if problem["kind"] == "broken":
                problem["detail"] = draw(hostile_text)
    return results


@FUZZ
@given(results=hostile_results(), languages=st.sampled_from([("en", "zh"), ("zh", "en"), ("en",), ("zh",)]))
def test_the_comment_is_inert_whatever_the_run_wrote(results, languages):
    assert_inert(render_markdown(typed(results), languages), results, languages)
