"""Results files and artifacts that pass the schema but not the meaning are refused: exit 2, one line."""

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.fake_github import NAME, OWNER, FakeGitHub
from tests.mutcheck.results_docs import document

RESULTS = json.loads((Path(__file__).parents[1] / "golden" / "results.json").read_text(encoding="utf-8"))
HEAD = RESULTS["run"]["head_sha"]


def mutant(results: dict[str, Any], mutant_id: str) -> dict[str, Any]:
    return next(entry for entry in results["mutants"] if entry["id"] == mutant_id)


def tampered(edit: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    results = copy.deepcopy(RESULTS)
    edit(results)
    return results


# name: (the edit, the field the refusal names)
LIES = {
    "an outcome of a test index past the end": (
        lambda r: mutant(r, "SWAP")["outcomes"].update({"99": "failed"}),
        "mutants/0/outcomes: test index '99': the run has 7",
    ),
    "a witness of a test index past the end": (
        lambda r: mutant(r, "SWAP")["witnesses"].update({"7": "boom"}),
        "mutants/0/witnesses: test index '7'",
    ),
    "an index written with a leading zero": (
        lambda r: mutant(r, "NESTED")["outcomes"].update({"03": "passed"}),
        "mutants/1/outcomes: test index '03'",
    ),
    "an index with thousands of digits": (
        lambda r: mutant(r, "NESTED")["outcomes"].update({"9" * 5000: "passed"}),
        "mutants/1/outcomes: test index '999",
    ),
    "a selected test index past the end": (
        lambda r: mutant(r, "FALLBACK")["selected"].append(7),
        "mutants/2/selected/2: test index 7: the run has 7",
    ),
    "a killer that is not a test of the run": (
        lambda r: mutant(r, "LOOP")["killers"].append("tests/elsewhere.py::test_x"),
        "mutants/3/killers/1: 'tests/elsewhere.py::test_x' is not a test of the run",
    ),
    "a mutant id used twice": (
        lambda r: r["mutants"].append(copy.deepcopy(mutant(r, "SWAP"))),
        "mutants/9/id: 'SWAP' is an earlier mutant's id too",
    ),
    "a test id listed twice": (
        lambda r: r["tests"].append(r["tests"][0]),
        "tests: 'tests/test_tiny.py::test_clamp_low' is listed twice",
    ),
    "a killed equivalent whose detail is not a verdict": (
        lambda r: mutant(r, "EQUAL")["problems"].append({"kind": "equivalent-killed", "test": None, "detail": "pwn"}),
        "mutants/7/problems/0/detail: 'pwn' is not a detail of a equivalent-killed problem",
    ),
    "a killed gap whose detail is not an outcome": (
        lambda r: mutant(r, "EQUAL")["problems"].append({"kind": "gap-killed", "test": None, "detail": "exploded"}),
        "mutants/7/problems/0/detail",
    ),
    "a passed killer whose detail lists no outcome": (
        lambda r: mutant(r, "SURVIVOR")["problems"][1].update(detail="passed, whatever"),
        "mutants/8/problems/1/detail",
    ),
    "a title missing a language of the run": (
        lambda r: mutant(r, "SWAP")["title"].pop("zh"),
        "mutants/0/title: no text in zh (run.languages)",
    ),
    "a family title missing a language of the run": (
        lambda r: next(iter(r["families"].values())).pop("en"),
        "families/",
    ),
    "a mutated file without its source": (
        lambda r: r["sources"].clear(),
        "mutants/0/file: 'src/tiny.py' has no text in sources",
    ),
    "a baseline failure of a test that is not in the run": (
        lambda r: r["baseline"]["failures"].append({"test": "ghost", "outcome": "failed", "witness": None}),
        "baseline/failures/0/test: 'ghost' is not a test of the run",
    ),
    "a flaky test that is not in the run": (
        lambda r: r["baseline"]["flaky"].append("ghost"),
        "baseline/flaky/0: 'ghost' is not a test of the run",
    ),
}


def write(directory: Path, text: str | bytes, number: str = "7") -> Path:
    directory.mkdir()
    results = directory / "results.json"
    results.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    (directory / "pr-number").write_text(number, encoding="utf-8")
    return results


def assert_refused(outcome, path: Path, expected: str) -> None:
    assert outcome.exit_code == ExitCode.USAGE, outcome.output
    assert isinstance(outcome.exception, SystemExit), repr(outcome.exception)
    assert "Traceback" not in outcome.output
    (line,) = outcome.output.splitlines()  # one problem, one line
    assert line.startswith(f"error: {path}: ") and expected in line, line


@pytest.mark.parametrize("lie", LIES, ids=list(LIES))
@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "stryker"])
def test_report_refuses_a_results_file_that_lies(tmp_path, lie, fmt):
    edit, expected = LIES[lie]
    path = write(tmp_path / "run", json.dumps(tampered(edit)))
    outcome = CliRunner().invoke(main, ["report", str(path), "--format", fmt])
    assert_refused(outcome, path, expected)


@pytest.mark.parametrize("lie", LIES, ids=list(LIES))
def test_comment_refuses_an_artifact_that_lies_before_any_request(tmp_path, lie):
    edit, expected = LIES[lie]
    path = write(tmp_path / "artifact", json.dumps(tampered(edit)))
    with FakeGitHub() as fake:
        arguments = ["comment", "--repo", f"{OWNER}/{NAME}", "--api-url", fake.base, "--inline"]
        arguments += ["--from-artifact", str(path.parent), "--head-sha", HEAD]
        outcome = CliRunner(env={"GITHUB_TOKEN": "token", "GITHUB_ACTIONS": None}).invoke(main, arguments)
        assert fake.requests == []
    assert_refused(outcome, path, expected)


# Text that is no results file at all (the reader, not the schema, refuses it).
DEEP = '{"format": "mutcheck-results", "version": 1, "run": ' + "[" * 100_000 + "]" * 100_000 + "}"
UNREADABLE = {
    "JSON nested 100,000 deep": (DEEP, "nested too deeply"),
    "NaN": (json.dumps(RESULTS).replace('"seconds": 4.2', '"seconds": NaN', 1), "NaN is not a JSON number"),
    "Infinity": (json.dumps(RESULTS).replace('"seconds": 4.2', '"seconds": -Infinity', 1), "-Infinity is not"),
    "an integer of 5,000 digits": (json.dumps(RESULTS).replace('"order": 0', '"order": ' + "9" * 5000), "Exceeds the"),
    "bytes that are not UTF-8": (b"\xff\xfe" + json.dumps(RESULTS).encode("utf-16-le"), "'utf-8' codec can't decode"),
}


@pytest.mark.parametrize("case", UNREADABLE, ids=list(UNREADABLE))
def test_report_refuses_unreadable_text(tmp_path, case):
    text, expected = UNREADABLE[case]
    path = write(tmp_path / "run", text)
    assert_refused(CliRunner().invoke(main, ["report", str(path)]), path, f"cannot read results: {expected}")


def test_a_schema_complaint_about_a_huge_value_stays_one_short_line(tmp_path):
    huge = tampered(lambda r: mutant(r, "SWAP").update(verdict="x\n" * 100_000))
    path = write(tmp_path / "run", json.dumps(huge))
    outcome = CliRunner().invoke(main, ["report", str(path)])
    assert_refused(outcome, path, "mutants/0/verdict: does not match the results schema")
    assert len(outcome.output) < 1000


def test_the_golden_results_mean_what_they_say():
    assert document(Path(__file__).parents[1] / "golden" / "results.json")["mutants"]


@pytest.mark.parametrize("number", ["0", "007", "-7", "7 ", "٧"])
def test_only_a_plain_positive_pull_request_number_is_accepted(tmp_path, number):
    from mutcheck.core.problems import InputError
    from mutcheck.results.artifact import read_artifact

    write(tmp_path / "artifact", json.dumps(RESULTS), number)
    if number == "7 ":  # surrounding whitespace (an `echo` adds a newline) is not part of the number
        assert read_artifact(tmp_path / "artifact")[1] == 7
        return
    with pytest.raises(InputError, match="pr-number: not a pull request number"):
        read_artifact(tmp_path / "artifact")
