"""What a downloaded artifact and a results file must hold before any of it is published: each
refusal is one line naming the file and the place in it."""

import copy
import json
from pathlib import Path

import pytest

from mutcheck.core.problems import InputError
from mutcheck.results.artifact import RESULTS_LIMIT, STATUS_LIMIT, NotRun, read_artifact
from mutcheck.results.results_check import first_broken_reference, first_unknown_index
from tests.mutcheck.results_docs import typed

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "results.json").read_text(encoding="utf-8"))
SHA = "a" * 40


def refusal(directory: Path) -> str:
    with pytest.raises(InputError) as error:
        read_artifact(directory)
    (problem,) = error.value.problems
    return str(problem)


def artifact(root: Path, number: str | None = "7", results: str | None = None, status: object = None) -> Path:
    root.mkdir()
    if number is not None:
        (root / "pr-number").write_text(number)
    if results is not None:
        (root / "results.json").write_text(results)
    if status is not None:
        (root / "status.json").write_text(status if isinstance(status, str) else json.dumps(status))
    return root


def test_a_complete_artifact_gives_its_results_and_pull_request(tmp_path):
    directory = artifact(tmp_path / "a", "42\n", json.dumps(GOLDEN))
    results, number = read_artifact(directory)
    assert (number, results.run.head_sha) == (42, GOLDEN["run"]["head_sha"])


@pytest.mark.parametrize("number", ["0", "07", "-3", "1e3", "4 2", "1234567890", "", "x" * 70])
def test_a_pull_request_number_is_digits_without_a_leading_zero(tmp_path, number):
    directory = artifact(tmp_path / "a", number, json.dumps(GOLDEN))
    assert refusal(directory) == f"{directory / 'pr-number'}: not a pull request number (digits only)"


def test_the_largest_pull_request_number_is_nine_digits(tmp_path):
    assert read_artifact(artifact(tmp_path / "a", "123456789", json.dumps(GOLDEN)))[1] == 123456789


def test_a_missing_or_linked_file_is_refused(tmp_path):
    missing = artifact(tmp_path / "a", None, json.dumps(GOLDEN))
    assert refusal(missing) == f"{missing / 'pr-number'}: missing from the artifact (or not a regular file)"
    linked = artifact(tmp_path / "b", "7")
    (linked / "results.json").symlink_to(tmp_path / "a" / "results.json")
    assert refusal(linked) == f"{linked / 'results.json'}: missing from the artifact (or not a regular file)"
    number_link = artifact(tmp_path / "c", None, json.dumps(GOLDEN))
    (number_link / "pr-number").symlink_to(linked / "pr-number")
    assert refusal(number_link) == f"{number_link / 'pr-number'}: missing from the artifact (or not a regular file)"


def test_results_over_the_limit_are_refused_before_reading(tmp_path):
    directory = artifact(tmp_path / "a", "7", " " * (RESULTS_LIMIT + 1))
    size = RESULTS_LIMIT + 1
    assert refusal(directory) == f"{directory / 'results.json'}: {size} bytes, over the {RESULTS_LIMIT}-byte limit"
    at_limit = artifact(tmp_path / "b", "7", json.dumps(GOLDEN).ljust(RESULTS_LIMIT))
    assert read_artifact(at_limit)[1] == 7


STATUS = {
    "finished": False,
    "stage": "run",
    "exit_status": 3,
    "errors": ["a", "b", "c", "d", "e", "f"],
    "head_sha": SHA,
}


def test_a_run_that_did_not_finish_is_told_by_its_status(tmp_path):
    not_run, number = read_artifact(artifact(tmp_path / "a", "7", status=STATUS))
    assert (not_run, number) == (NotRun("run", 3, ("b", "c", "d", "e", "f"), SHA), 7)
    early = read_artifact(artifact(tmp_path / "b", "7", status={**STATUS, "exit_status": None, "head_sha": None}))[0]
    assert (early.exit_status, early.head_sha) == (None, None)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"finished": True}, "finished", "says the run finished, but results.json is missing"),
        ({"finished": "no"}, "finished", "missing or of the wrong type"),
        ({"stage": "deploy"}, "stage", "missing or of the wrong type"),
        ({"exit_status": 256}, "exit_status", "missing or of the wrong type"),
        ({"exit_status": -1}, "exit_status", "missing or of the wrong type"),
        ({"exit_status": True}, "exit_status", "missing or of the wrong type"),
        ({"errors": ["a", 1]}, "errors", "missing or of the wrong type"),
        ({"errors": "a"}, "errors", "missing or of the wrong type"),
        ({"head_sha": "A" * 40}, "head_sha", "missing or of the wrong type"),
        ({"head_sha": "a" * 39}, "head_sha", "missing or of the wrong type"),
    ],
)
def test_each_field_of_a_status_is_checked(tmp_path, change, field, message):
    directory = artifact(tmp_path / "a", "7", status={**STATUS, **change})
    assert refusal(directory) == f"{directory / 'status.json'}: {field}: {message}"


def test_a_status_that_is_not_a_small_json_object_is_refused(tmp_path):
    for name, text, message in [
        ("a", "[1]", "finished: missing or of the wrong type"),
        ("b", "{", "not JSON (JSONDecodeError)"),
        ("c", "\udcff", "not JSON (UnicodeDecodeError)"),
        ("d", json.dumps(STATUS).ljust(STATUS_LIMIT + 1), f"over the {STATUS_LIMIT}-byte limit"),
    ]:
        directory = artifact(tmp_path / name, "7")
        (directory / "status.json").write_bytes(text.encode("utf-8", "surrogateescape"))
        assert refusal(directory) == f"{directory / 'status.json'}: {message}"


def broken(change) -> str | None:
    results = copy.deepcopy(GOLDEN)
    change(results)
    problem = first_unknown_index(results, "r.json") or first_broken_reference(typed(results), "r.json")
    return None if problem is None else str(problem)


def test_the_golden_results_refer_only_to_what_they_hold():
    assert broken(lambda results: None) is None


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (
            lambda r: r["tests"].append(r["tests"][0]),
            "r.json: tests: 'tests/test_tiny.py::test_clamp_low' is listed twice",
        ),
        (
            lambda r: r["baseline"]["flaky"].append("t::gone"),
            "r.json: baseline/flaky/0: 't::gone' is not a test of the run",
        ),
        (
            lambda r: r["baseline"].setdefault("order_dependent", []).append("t::gone"),
            "r.json: baseline/order_dependent/0: 't::gone' is not a test of the run",
        ),
        (
            lambda r: r["baseline"]["failures"].append({"test": "t::gone", "outcome": "failed", "witness": "x"}),
            "r.json: baseline/failures/0/test: 't::gone' is not a test of the run",
        ),
        (lambda r: r["mutants"].append(r["mutants"][0]), "r.json: mutants/9/id: 'SWAP' is an earlier mutant's id too"),
        (
            lambda r: r["mutants"][1].update(file="src/gone.py"),
            "r.json: mutants/1/file: 'src/gone.py' has no text in sources",
        ),
        (lambda r: r["mutants"][0]["selected"].append(7), "r.json: mutants/0/selected/3: test index 7: the run has 7"),
        (
            lambda r: r["mutants"][0]["outcomes"].update({"01": "passed"}),
            "r.json: mutants/0/outcomes: test index '01': the run has 7",
        ),
        (
            lambda r: r["mutants"][0]["witnesses"].update({"9": "x"}),
            "r.json: mutants/0/witnesses: test index '9': the run has 7",
        ),
        (
            lambda r: r["mutants"][0]["killers"].append("t::gone"),
            "r.json: mutants/0/killers/3: 't::gone' is not a test of the run",
        ),
        (lambda r: r["mutants"][0]["title"].pop("zh"), "r.json: mutants/0/title: no text in zh (run.languages)"),
        (lambda r: r["families"][next(iter(r["families"]))].pop("en"), None),
    ],
)
def test_a_results_file_that_refers_to_what_it_does_not_hold_is_refused(change, line):
    found = broken(change)
    if line is None:  # a family without a language
        assert (
            found is not None
            and found.startswith("r.json: families/")
            and found.endswith(": no text in en (run.languages)")
        )
        return
    assert found == line


@pytest.mark.parametrize(
    ("kind", "detail", "fits"),
    [
        ("equivalent-killed", "killed", True),
        ("equivalent-killed", "passed", False),
        ("gap-killed", "error", True),
        ("gap-killed", "killed", False),
        ("killer-passed", "passed, skipped", True),
        ("killer-passed", "passed, maybe", False),
        ("killer-passed", "", True),
        ("broken", "anything at all", True),
    ],
)
def test_a_problem_s_detail_is_one_the_reports_can_translate(kind, detail, fits):
    def change(results):
        results["mutants"][0]["problems"] = [{"kind": kind, "test": None, "detail": detail}]

    expected = None if fits else f"r.json: mutants/0/problems/0/detail: {detail!r} is not a detail of a {kind} problem"
    assert broken(change) == expected
