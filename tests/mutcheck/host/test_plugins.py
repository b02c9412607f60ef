"""Verdicts that depend on pytest's plugins equal one plain pytest run's: every test runs through
pytest's own protocol, so each wrapper of it (warnings filters, pytest-timeout, reruns) applies."""

from pathlib import Path

import pytest

from tests.mutcheck.cli_runs import mutant, run
from tests.mutcheck.naive import naive_run_of
from tests.mutcheck.plugins_project import ENTRIES, PLUGIN_OF, make_plugins_project

NAIVE_LIMIT = 10  # seconds: the unmutated suite takes about one; a run still going is a time-out


@pytest.fixture(scope="module")
def plugged(tmp_path_factory) -> tuple[Path, int, str, dict]:
    project = make_plugins_project(tmp_path_factory.mktemp("plugins") / "project")
    code, output, data = run(project)
    return project, code, output, data


def test_the_run_meets_every_expectation(plugged):
    _, code, output, data = plugged
    assert [entry["id"] for entry in data["mutants"] if not entry["expectation_met"]] == [], output
    assert code == 0, output


@pytest.mark.parametrize("mutant_id", [entry[0] for entry in ENTRIES], ids=lambda mutant_id: PLUGIN_OF[mutant_id])
def test_the_verdict_and_killing_set_are_what_one_plain_pytest_run_says(plugged, mutant_id):
    project, _, output, data = plugged
    naive = naive_run_of(project, mutant_id, ["tests"], limit=NAIVE_LIMIT)
    killer = next(killer for id_, *_, killer in ENTRIES if id_ == mutant_id)
    assert naive.failed == ({f"tests/{killer}"} if killer else set()), "the fixture no longer needs its plugin"
    verdict = "timeout" if naive.status is None else "killed" if naive.failed else "survived"
    result = mutant(data, mutant_id)
    assert (result["verdict"], set(result["killers"])) == (verdict, naive.failed), output
