"""Fixtures shared by mutcheck's own tests: a cache folder of their own, the repository's own run, a fake GitHub."""

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.results_docs import document

if TYPE_CHECKING:
    from tests.mutcheck.fake_github import FakeGitHub

REPOSITORY = Path(__file__).resolve().parents[2]
GOLDEN_HEAD = json.loads((Path(__file__).parent / "golden" / "results.json").read_text(encoding="utf-8"))["run"][
    "head_sha"
]


@pytest.fixture(autouse=True, scope="session")
def _cache_folder(tmp_path_factory: pytest.TempPathFactory):
    """Every test's runs keep their saved state in a temporary cache folder, never the user's own."""
    # In os.environ, so that the mutcheck processes the tests start inherit it too.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="session")
def repository_results(tmp_path_factory, _cache_folder) -> dict:
    """`mutcheck run` on this repository's two targets (their green run), once per session."""
    path = tmp_path_factory.mktemp("repository") / "results.json"
    outcome = CliRunner().invoke(main, ["run", "--project", str(REPOSITORY), "--json", str(path)])
    assert outcome.exit_code == ExitCode.OK, outcome.output
    return document(path)


@pytest.fixture
def fake(monkeypatch) -> "FakeGitHub":
    """A fake GitHub on 127.0.0.1 whose pull request is at the golden results' commit, seen from outside Actions."""
    # Imported here: the fake's contract check needs `.[dev]`, and the engine's version matrix has `.[test]`.
    from tests.mutcheck.fake_github import FakeGitHub

    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    with FakeGitHub() as server:
        server.head_sha = GOLDEN_HEAD
        yield server
