"""No command writes into the project: what the project's own code writes lands in a scratch copy."""

import hashlib
from pathlib import Path

from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.exit_code import ExitCode
from tests.mutcheck.engine_project import make_project

# A test module that writes next to itself when it is imported (at collection), and says where it was.
WRITES_AT_IMPORT = """\
import os
from pathlib import Path

Path(__file__).with_name("written-at-import.txt").write_text("x")
Path(os.environ["IMPORTED_AT"]).write_text(__file__)


def test_nothing():
    pass
"""


def _tree(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_check_collects_in_a_copy(tmp_path, monkeypatch):
    project = make_project(tmp_path / "project")
    (project / "tests/test_writes.py").write_text(WRITES_AT_IMPORT)
    imported_at = tmp_path / "imported-at.txt"
    monkeypatch.setenv("IMPORTED_AT", str(imported_at))
    before = _tree(project)
    result = CliRunner().invoke(main, ["check", "--project", str(project)])
    assert result.exit_code == ExitCode.OK, result.output
    module = Path(imported_at.read_text())  # collection did import it, and wrote next to it
    assert module.parts[-2:] == ("tests", "test_writes.py") and not module.is_relative_to(project), module
    assert _tree(project) == before
