"""Fixtures shared by mutcheck's own tests: a cache folder of their own, the repository's own run."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.exit_code import ExitCode
from mutcheck.results import load_results

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True, scope="session")
def _cache_folder(tmp_path_factory: pytest.TempPathFactory):
    """Every test's runs keep their saved state in a temporary cache folder, never the user's own."""
    # In os.environ, so that the mutcheck processes the tests start inherit it too.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="session")
def repository_results(tmp_path_factory, _cache_folder) -> dict:
    """`mutcheck run` on this repository's own catalog (the 71-mutant green run), once per session."""
    path = tmp_path_factory.mktemp("repository") / "results.json"
    outcome = CliRunner().invoke(main, ["run", "--project", str(REPOSITORY), "--json", str(path)])
    assert outcome.exit_code == ExitCode.OK, outcome.output
    return load_results(path)
