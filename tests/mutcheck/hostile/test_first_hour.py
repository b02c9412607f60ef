"""What a newcomer meets in the first hour: other tools' files in the catalog folder, progress lines
that read as what they mean, `show` naming the tests a survivor's new test can start from, and a
suite that does not collect saying why, item by item."""

import re
import shutil

import pytest

from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.engine_project import make_engine_project, make_project
from tests.mutcheck.hostile.commands import invoke


def test_mutmuts_copy_of_pyproject_in_the_catalog_folder_is_ignored_with_one_warning(tmp_path):
    project = make_engine_project(tmp_path / "project")
    status, before = invoke(project, "check")
    # mutmut's working folder is `mutants/`: it copies the project there, its pyproject.toml too.
    shutil.copy(project / "pyproject.toml", project / "mutants" / "pyproject.toml")
    (project / "mutants" / "src").mkdir()
    shutil.copy(project / "src" / "tiny.py", project / "mutants" / "src" / "tiny.py")
    status_after, after = invoke(project, "check")
    assert (status, status_after) == (0, 0), after
    assert after.count("mutants/pyproject.toml is mutmut's copy of a project file, not a catalog file") == 1
    assert before in after  # and the rest is what it was


def test_a_stray_toml_file_that_is_not_mutmuts_copy_is_still_an_error(tmp_path):
    project = make_engine_project(tmp_path / "project")
    (project / "mutants" / "notes.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    status, output = invoke(project, "check")
    assert status == 2
    assert "mutants/notes.toml: project: unknown key (entries are [[mutant]] tables)" in output


def test_the_progress_line_says_what_killed_the_mutant_and_show_names_a_survivors_tests(tmp_path):
    project = make_engine_project(tmp_path / "project")
    _, output = invoke(project, "run")
    lines = {line.split("] ", 1)[1].split(":", 1)[0]: line for line in output.splitlines() if line.startswith("[")}
    assert lines["SWAP"].endswith("SWAP: killed by 3 of 3 tests"), lines
    assert lines["LOOP"].endswith("LOOP: killed by 1 of 2 tests, 1 timed out"), lines
    assert lines["SURVIVOR"].endswith("SURVIVOR: none of 3 tests failed"), lines
    assert "BREAKS: broken: tests/test_tiny.py: NameError" in lines["BREAKS"], lines
    _, shown = invoke(project, "show", "SURVIVOR")
    # the tests that ran its line `if value > high:`: test_clamp_low returns before it
    reached = "tests/test_tiny.py::test_clamp_high, tests/test_tiny.py::test_clamp_inside"
    assert f"reached by 2 tests, none of which failed: {reached}" in shown
    _, unreached = invoke(project, "show", "UNREACHED")
    assert "no test reaches its code" in unreached


def test_init_refuses_the_placeholder_of_the_readme_for_the_actions_repository(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "tests").mkdir()
    for placeholder in (
        "OWNER/REPO@REF",
        "octo/mutcheck@SHA",
        "OWNER/mutcheck@0123456789abcdef0123456789abcdef01234567",
    ):
        status, output = invoke(project, "init", "--github", placeholder)
        assert status == 2, output
        assert f"--github: {placeholder}: " in output and "a placeholder" in output
    assert not (project / ".github").exists() and not (project / "mutants").exists()


@pytest.mark.parametrize("command", ["check", "run"])
def test_test_files_sharing_a_basename_say_which_files_clash_for_the_first_five_then_how_many_more(tmp_path, command):
    # `tests = ["tests"]` over folders without __init__.py: pytest imports each test_util.py as `test_util`.
    project = make_project(tmp_path / "project")
    for folder in ("api", "cli", "core", "db", "io", "net", "ui", "web"):
        (project / "tests" / folder).mkdir()
        (project / "tests" / folder / "test_util.py").write_text("def test_it():\n    pass\n", encoding="utf-8")
    status, output = invoke(project, command)
    assert status == (ExitCode.USAGE if command == "check" else ExitCode.BASELINE_FAILED), output
    assert "collection failed: 7 errors" in output  # the first of the eight imports; the others clash with it
    for folder in ("cli", "core", "db", "io", "net"):
        assert f"  tests/{folder}/test_util.py: import file mismatch:" in output, output
        # the message's own lines, with the project's paths
        assert re.search(f"we want to collect:\n +tests/{folder}/test_util.py\n", output), output
    assert "tests/ui/test_util.py:" not in output and "  and 2 more" in output
    assert "imported module 'test_util' has this __file__ attribute:" in output
    assert str(tmp_path) not in output  # paths into the scratch copy are the project's own


def test_a_module_error_shows_its_first_lines_control_characters_spelled_out(tmp_path):
    project = make_project(tmp_path / "project")
    lines = "\\n".join(f"line {number}" for number in range(2, 12))
    (project / "tests" / "test_loud.py").write_text(
        f'raise ValueError("first\\x1b[31m red\\n{lines}")\n', encoding="utf-8"
    )
    (project / "tests" / "test_dependency.py").write_text("import no_such_dependency\n", encoding="utf-8")
    status, output = invoke(project, "check")
    assert status == 2
    assert "error: pyproject.toml: tool.mutcheck.tests: collection failed: 2 errors\n" in output
    assert "  tests/test_loud.py: ValueError: first\\x1b[31m red\n      line 2\n" in output
    assert "      line 6\n      …\n" in output and "line 7" not in output
    assert "\x1b" not in output
    assert "  tests/test_dependency.py: ImportError while importing test module 'tests/test_dependency.py'." in output
    assert "      ModuleNotFoundError: No module named 'no_such_dependency'" in output


@pytest.mark.parametrize(
    ("conftest", "said"),
    [
        (
            "def pytest_collectstart(collector):\n    pytest.exit('set DATABASE_URL first')\n",
            "Exit: set DATABASE_URL first",
        ),
        ("def pytest_collection_modifyitems(items):\n    raise KeyboardInterrupt\n", "KeyboardInterrupt"),
    ],
    ids=["pytest.exit", "KeyboardInterrupt"],
)
def test_a_collection_stopped_by_the_project_says_what_stopped_it(tmp_path, conftest, said):
    # pytest's terminal reporter alone says this, and a pytest host runs without it.
    project = make_project(tmp_path / "project")
    (project / "tests" / "conftest.py").write_text("import pytest\n\n\n" + conftest, encoding="utf-8")
    status, output = invoke(project, "check")
    assert status == 2
    assert "error: pyproject.toml: tool.mutcheck.tests: collection failed: pytest stopped: " in output
    assert said in output
