"""With twenty-odd of the most used pytest plugins loaded at once, each verdict that depends on one
of them equals one plain pytest run's, killing set included. The plugins are installed by
`nox -s plugins`, which requires them (MUTCHECK_REQUIRE_PLUGINS=1); elsewhere the module is skipped
when one is missing."""

import importlib.util
import os
from pathlib import Path

import pytest

from tests.mutcheck.cli_runs import mutant, run
from tests.mutcheck.naive import naive_run_of
from tests.mutcheck.plugin_zoo_project import ENTRIES, MODULES, PLUGIN_OF, make_plugin_zoo_project

MISSING = [name for name in MODULES if importlib.util.find_spec(name) is None]
if MISSING and not os.environ.get("MUTCHECK_REQUIRE_PLUGINS"):
    pytest.skip(f"the plugin zoo needs {', '.join(MISSING)} (nox -s plugins)", allow_module_level=True)

NAIVE_LIMIT = 60  # seconds: the unmutated suite takes a few; a run still going is a time-out


def test_every_plugin_is_installed():
    assert MISSING == []


@pytest.fixture(scope="module")
def zoo(tmp_path_factory) -> tuple[Path, int, str, dict]:
    project = make_plugin_zoo_project(tmp_path_factory.mktemp("zoo") / "project")
    code, output, data = run(project, "--fresh")
    return project, code, output, data


def test_the_run_meets_every_expectation_with_every_plugin_loaded(zoo):
    _, code, output, data = zoo
    assert [entry["id"] for entry in data["mutants"] if not entry["expectation_met"]] == [], output
    assert code == 0, output


@pytest.mark.parametrize("mutant_id", [entry[0] for entry in ENTRIES], ids=lambda mutant_id: PLUGIN_OF[mutant_id])
def test_the_verdict_and_killing_set_are_what_one_plain_pytest_run_says(zoo, mutant_id):
    project, _, output, data = zoo
    naive = naive_run_of(project, mutant_id, ["tests"], limit=NAIVE_LIMIT)
    killers = next(killers for id_, *_, killers in ENTRIES if id_ == mutant_id)
    assert naive.failed == {f"tests/{killer}" for killer in killers}, "the fixture no longer needs its plugin"
    result = mutant(data, mutant_id)
    assert (result["verdict"], set(result["killers"])) == ("killed", naive.failed), output
