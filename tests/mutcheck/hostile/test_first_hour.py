"""What a newcomer meets in the first hour: other tools' files in the catalog folder, progress lines
that read as what they mean, and `show` naming the tests a survivor's new test can start from."""

import shutil

from tests.mutcheck.engine_project import make_engine_project
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
    reached = (
        "tests/test_tiny.py::test_clamp_low, tests/test_tiny.py::test_clamp_high, tests/test_tiny.py::test_clamp_inside"
    )
    assert f"reached by 3 test(s), none of which failed: {reached}" in shown
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
