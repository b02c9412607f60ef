"""Fixtures shared by mutcheck's own tests."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.exit_code import ExitCode
from mutcheck.results import load_results

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repository_results(tmp_path_factory) -> dict:
    """`mutcheck run` on this repository's own catalog (the 71-mutant green run), once per session."""
    path = tmp_path_factory.mktemp("repository") / "results.json"
    outcome = CliRunner().invoke(main, ["run", "--project", str(REPOSITORY), "--json", str(path)])
    assert outcome.exit_code == ExitCode.OK, outcome.output
    return load_results(path)
