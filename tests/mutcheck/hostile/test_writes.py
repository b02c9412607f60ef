"""No command writes into the project: what the project's own code writes lands in a scratch copy."""

import hashlib
from pathlib import Path

from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.engine_project import make_engine_project, make_project

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


def test_a_submodule_and_a_nested_repository_are_copied_and_a_test_writing_beside_them_leaves_them_clean(tmp_path):
    import subprocess

    def git(where: Path, *args: str) -> None:
        identity = ("-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "protocol.file.allow=always")
        subprocess.run(["git", *identity, *args], cwd=where, check=True, capture_output=True)

    library = tmp_path / "library"
    library.mkdir()
    (library / "vendored.py").write_text("def limit():\n    return 2\n", encoding="utf-8")
    git(library, "init", "-q")
    git(library, "add", ".")
    git(library, "commit", "-qm", "library")
    project = make_engine_project(tmp_path / "project", git=True)
    git(project, "submodule", "add", "-q", str(library), "src/lib")
    git(project, "commit", "-qm", "submodule")
    nested = project / "src" / "nested"
    nested.mkdir()
    (nested / "inner.py").write_text("def inner():\n    return 3\n", encoding="utf-8")
    git(nested, "init", "-q")
    git(nested, "add", ".")
    git(nested, "commit", "-qm", "nested")
    (project / "tests" / "test_vendored.py").write_text(
        "from pathlib import Path\n\nfrom lib import vendored\nfrom nested import inner\n\n\n"
        "def test_vendored_writes_beside_them():\n"
        "    for module in (vendored, inner):\n"
        '        Path(module.__file__).with_name("written.txt").write_text("x")\n'
        "    assert vendored.limit() == 2 and inner.inner() == 3\n",
        encoding="utf-8",
    )
    before = {"lib": _tree(project / "src" / "lib"), "nested": _tree(nested)}
    result = CliRunner().invoke(main, ["run", "--project", str(project), "--only", "SWAP"])
    assert result.exit_code == ExitCode.OK, result.output
    assert {"lib": _tree(project / "src" / "lib"), "nested": _tree(nested)} == before
