"""The typed results: a results file read into them and written back is the same document."""

import copy
import json

import jsonschema

from mutcheck.core.verdicts import Unmet
from mutcheck.results.model import Results
from mutcheck.results.results import load_results, rewrite_results, schema
from tests.mutcheck.paths import GOLDEN as GOLDEN_FOLDER

GOLDEN = GOLDEN_FOLDER / "results.json"
DOCUMENT = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_a_results_file_read_and_written_back_is_the_same_document_with_its_later_fields_filled(tmp_path):
    written = tmp_path / "again.json"
    written.write_text("{}", encoding="utf-8")
    written.chmod(0o640)
    rewrite_results(written, load_results(GOLDEN))
    assert written.stat().st_mode & 0o777 == 0o640  # replaced whole, its permissions kept
    again = json.loads(written.read_text(encoding="utf-8"))
    filled = {"run": {**DOCUMENT["run"], "uncommitted_changes": None}}  # null: not known, as the schema says
    filled["baseline"] = {**DOCUMENT["baseline"], "order_dependent": []}
    # none: a run that consulted no store
    filled["summary"] = {**DOCUMENT["summary"], "reused": 0, "reused_tests": 0, "reuse_considered": 0}
    assert again == {**DOCUMENT, **filled}
    assert load_results(written) == load_results(GOLDEN)


def test_fields_a_file_lacks_are_left_out_when_written_not_written_as_null(tmp_path):
    older = copy.deepcopy(DOCUMENT)
    for key in ("ci", "languages", "strict_generic", "revert_base"):
        older["run"].pop(key, None)
    for mutant in older["mutants"]:
        del mutant["replacement"], mutant["fallback"], mutant["broken"]
    document = Results.from_json(older).to_json()
    jsonschema.Draft202012Validator(schema()).validate(document)
    assert not {"timings", "copy", "controls"} & set(document["run"])
    assert all("replacement" not in mutant for mutant in document["mutants"])
    assert document["run"]["languages"] == ["en", "zh"] and document["run"]["ci"] is False


def test_a_run_fact_this_version_does_not_know_is_left_out_not_an_error():
    """The schema allows more facts in `run` (a newer version writes them): reading one is no error."""
    newer = copy.deepcopy(DOCUMENT)
    newer["run"]["7"] = "7"
    jsonschema.Draft202012Validator(schema()).validate(newer)
    assert Results.from_json(newer).to_json() == Results.from_json(DOCUMENT).to_json()


def test_test_indices_are_numbers_in_the_types_and_strings_in_the_file():
    results = Results.from_json(copy.deepcopy(DOCUMENT))
    swap = results.mutants[0]
    assert swap.outcomes == {0: "failed", 1: "failed", 2: "failed"}
    assert [results.tests[index] for index in swap.witnesses] == results.tests[:2]
    assert results.to_json()["mutants"][0]["outcomes"] == {"0": "failed", "1": "failed", "2": "failed"}


def test_problems_known_gaps_and_the_catalogued_mutants_are_read_from_the_entries():
    document = copy.deepcopy(DOCUMENT)
    document["mutants"][0]["generic"] = True
    survivor = next(mutant for mutant in document["mutants"] if mutant["id"] == "SURVIVOR")
    survivor.update(survives={"en": "on purpose", "zh": "有意为之"}, problems=[], expectation_met=True)
    results = Results.from_json(document)
    assert [mutant.id for mutant in results.catalogued][:2] == ["NESTED", "FALLBACK"]
    assert [mutant.id for mutant in results.mutants if mutant.known_gap] == ["SURVIVOR"]
    unreached = next(mutant for mutant in results.mutants if mutant.id == "UNREACHED")
    assert unreached.problems == [Unmet("no-coverage")] and not unreached.known_gap
