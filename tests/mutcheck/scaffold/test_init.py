"""`mutcheck init`: what it detects, what it writes, and that it never overwrites a file."""

import tomllib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.paths import REPOSITORY

REF = "f" * 40


def init(project: Path, *args: str):
    return CliRunner().invoke(main, ["init", "--project", str(project), *args])


def flat_project(root: Path, pyproject: str | None = None, **extra: str) -> Path:
    (root / "shop").mkdir(parents=True)
    (root / "shop" / "__init__.py").write_text("", encoding="utf-8")
    (root / "shop" / "cart.py").write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "__init__.py").write_text("", encoding="utf-8")  # not a package to mutate
    if pyproject is not None:
        (root / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    for name, text in extra.items():
        (root / name.replace("_", ".")).write_text(text, encoding="utf-8")
    return root


def test_detects_a_flat_package_and_pytest_ini_testpaths(tmp_path):
    project = flat_project(tmp_path / "p", '[project]\nname = "Shop"\n', pytest_ini="[pytest]\ntestpaths = checks\n")
    (project / "checks").mkdir()
    (project / "checks" / "test_cart.py").write_text("def test_total():\n    pass\n", encoding="utf-8")
    result = init(project)
    assert result.exit_code == 0, result.output
    assert 'target: shop (the package named like the project, "Shop")' in result.output
    assert "tests: checks (testpaths in pytest.ini)" in result.output
    table = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    assert table["project"] == {"name": "Shop"}  # what was there is kept
    assert table["tool"]["mutcheck"] == {
        "target": ["shop"],
        "catalog": "mutants",
        "tests": ["checks"],
        "languages": ["en", "zh"],
    }
    example = (project / "mutants" / "guards.toml").read_text(encoding="utf-8")
    assert 'file = "shop/__init__.py"' in example or 'file = "shop/cart.py"' in example
    assert 'killed_by = ["checks/test_cart.py::test_name"]' in example
    assert tomllib.loads(example) == {}  # the example entry is commented out
    check = CliRunner().invoke(main, ["check", "--project", str(project)])
    assert check.exit_code == 0, check.output
    assert check.output.strip() == "0 mutants in 1 families: every entry applies"
    assert not (project / ".github").exists()  # workflows only with --github


def test_setup_cfg_testpaths_and_a_new_pyproject(tmp_path):
    project = flat_project(tmp_path / "p", setup_cfg="[tool:pytest]\ntestpaths =\n    tests\n    more\n")
    for name in ("tests", "more"):
        (project / name).mkdir()
    result = init(project)
    assert result.exit_code == 0, result.output
    assert "tests: tests, more (testpaths in setup.cfg)" in result.output
    assert "wrote pyproject.toml: [tool.mutcheck]" in result.output
    config = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutcheck"]
    assert config["tests"] == ["tests", "more"] and config["target"] == ["shop"]


def test_never_overwrites_and_says_what_it_skipped(tmp_path):
    project = flat_project(tmp_path / "p", "[tool.mutcheck]\ntarget = ['shop']\n")
    (project / "tests").mkdir()
    (project / "mutants").mkdir()
    (project / "mutants" / "families.toml").write_text("# ours\n", encoding="utf-8")
    (project / ".gitignore").write_text("*.pyc", encoding="utf-8")  # no newline at the end
    workflows = project / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "mutcheck.yml").write_text("# ours\n", encoding="utf-8")
    before = (project / "pyproject.toml").read_text(encoding="utf-8")
    result = init(project, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "skipped pyproject.toml: it already has [tool.mutcheck]" in lines
    assert "skipped mutants/families.toml: it exists" in lines
    assert "skipped .github/workflows/mutcheck.yml: it exists" in lines
    assert f"wrote .github/workflows/mutcheck-comment.yml (actions from octo/mutcheck@{REF})" in lines
    assert "wrote .gitignore: /mutcheck-results/" in lines
    assert (project / "pyproject.toml").read_text(encoding="utf-8") == before
    assert (project / "mutants" / "families.toml").read_text(encoding="utf-8") == "# ours\n"
    assert (workflows / "mutcheck.yml").read_text(encoding="utf-8") == "# ours\n"
    assert (project / ".gitignore").read_text(encoding="utf-8") == "*.pyc\n\n# mutcheck's reports\n/mutcheck-results/\n"
    again = init(project, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof")
    assert "skipped .gitignore: it already ignores mutcheck's files" in again.output
    assert "wrote" not in again.output


A_TEST = "def test_total():\n    assert total([1, 2]) == 3\n"


def test_workflow_choices_follow_the_project(tmp_path):
    pyproject = '[project]\nname = "shop"\nrequires-python = ">=3.12"\n[project.optional-dependencies]\ndev = ["x"]\n'
    project = flat_project(tmp_path / "p", pyproject, pytest_ini="[pytest]\npythonpath = .\n")
    (project / "tests").mkdir()
    (project / "tests" / "test_cart.py").write_text("from shop.cart import total\n\n\n" + A_TEST, encoding="utf-8")
    result = init(project, "--github", "octo/mutcheck@main", "--shards", "3", "--skip-install-proof")
    assert result.exit_code == 0, result.output
    assert (
        "install: -e . (collecting tests needs nothing beyond the project's dependencies and pytest)" in result.output
    )
    assert "install: pip's arguments, yours to edit in .github/workflows/mutcheck.yml" in result.output
    assert "python: 3.12 (the lowest the project's requires-python allows (>=3.12))" in result.output
    assert "warning: main is not a commit SHA; pin one so the workflows run what you reviewed" in result.output
    written = (project / ".github" / "workflows" / "mutcheck.yml").read_text(encoding="utf-8")
    assert "shard: [1, 2, 3]" in written and "--shard ${{ matrix.shard }}/3" in written
    assert "uses: octo/mutcheck/.github/actions/run@main" in written and 'install: "-e ."' in written
    # each shard's reuse store is cached under a key of its own; the merging job runs nothing to reuse
    shard_job, merge_job = (yaml.safe_load(written)["jobs"][job]["steps"] for job in ("shard", "merge"))
    (shard_run,) = [step for step in shard_job if "/.github/actions/run@" in step.get("uses", "")]
    assert shard_run["with"]["cache-part"] == "shard-${{ matrix.shard }}"
    assert all("cache-part" not in step.get("with", {}) for step in merge_job)


def test_the_workflows_cancel_a_superseded_run_stop_a_hung_one_cache_pip_and_bring_mutmut_only_for_generic(tmp_path):
    project = flat_project(tmp_path / "p", '[project]\nname = "shop"\n', requirements_txt="hypothesis\n")
    (project / "tests").mkdir()
    (project / "tests" / "test_cart.py").write_text("from shop.cart import total\n\n\n" + A_TEST, encoding="utf-8")
    assert init(project, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof").exit_code == 0
    workflows = project / ".github" / "workflows"
    run = yaml.safe_load((workflows / "mutcheck.yml").read_text(encoding="utf-8"))
    assert run["concurrency"] == {
        "group": "mutcheck-${{ github.event.pull_request.number }}",
        "cancel-in-progress": True,
    }
    assert run["jobs"]["mutants"]["timeout-minutes"] == 60
    (step,) = [step for step in run["jobs"]["mutants"]["steps"] if "/.github/actions/run@" in step.get("uses", "")]
    assert step["with"]["generic"] == "false"  # mutmut is not installed: no generic run is asked
    assert step["with"]["dependency-files"].split() == ["pyproject.toml", "requirements.txt"]
    comment_text = (workflows / "mutcheck-comment.yml").read_text(encoding="utf-8")
    assert "GitHub runs a workflow_run workflow only from the default branch" in comment_text
    assert yaml.safe_load(comment_text)["jobs"]["comment"]["timeout-minutes"] == 10
    action = yaml.safe_load((REPOSITORY / ".github/actions/run/action.yml").read_text(encoding="utf-8"))
    (setup,) = [step for step in action["runs"]["steps"] if "setup-python" in step.get("uses", "")]
    assert setup["with"] == {
        "python-version": "${{ inputs.python-version }}",
        "cache": "pip",
        "cache-dependency-path": "${{ inputs.dependency-files }}",
    }

    generic = flat_project(
        tmp_path / "g", '[project]\nname = "shop"\n[tool.mutcheck]\ntarget = ["shop"]\ngeneric = true\n'
    )
    (generic / "tests").mkdir()
    assert init(generic, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof").exit_code == 0
    assert 'generic: "true"' in (generic / ".github/workflows/mutcheck.yml").read_text(encoding="utf-8")


# Extras as many projects have them: a small one for the tests, and the one named `test` that also
# lists a heavy stack, not installed here.
EXTRAS = """
[project.optional-dependencies]
test = ["hypothesis", "torch>=2", "transformers"]
tests-core = ["hypothesis>=6"]
docs = ["sphinx"]
all = ["Shop[test,docs]"]
"""


def installed_line(project: Path) -> str:
    workflow = (project / ".github" / "workflows" / "mutcheck.yml").read_text(encoding="utf-8")
    return next(line.strip() for line in workflow.splitlines() if line.strip().startswith("install:"))


def test_the_install_line_holds_what_collecting_the_tests_imports_and_not_the_heavy_extra(tmp_path):
    project = flat_project(
        tmp_path / "p", '[project]\nname = "Shop"\n' + EXTRAS, pytest_ini="[pytest]\npythonpath = .\n"
    )
    (project / "tests").mkdir()
    # a test module that writes beside itself when imported: collected in a copy, it writes there
    test = "import pathlib\nimport hypothesis\n\nfrom shop.cart import total\n\n"
    test += "pathlib.Path(__file__).with_name('imported').touch()\n\n\n" + A_TEST
    (project / "tests" / "test_cart.py").write_text(test, encoding="utf-8")
    result = init(project, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof")
    assert result.exit_code == 0, result.output
    assert not (project / "tests" / "imported").exists()
    reason = (
        "collecting tests needs hypothesis: extra tests-core has it; "
        "extra all would add sphinx, torch, transformers; extra test would add torch, transformers"
    )
    assert f"install: -e .[tests-core] ({reason})" in result.output
    assert installed_line(project) == 'install: "-e .[tests-core]"'


PARALLEL = """
[project.optional-dependencies]
fast = ["hypothesis"]
[dependency-groups]
parallel = ["pytest-xdist"]
checks = [{include-group = "parallel"}, "hypothesis", "ruff"]
"""


@pytest.mark.parametrize(
    ("pytest_ini", "test", "line"),
    [
        ("", A_TEST, "-e .[fast]"),  # pytest-xdist is installed here, but the tests do not use it
        ("addopts = -n 2\n", A_TEST, "-e .[fast] --group parallel"),  # an option of its
        ("looponfailroots = shop\n", A_TEST, "-e .[fast] --group parallel"),  # an ini key of its
        ("", "def test_total(worker_id):\n    assert total([worker_id]) == 'master'\n", "-e .[fast] --group parallel"),
    ],
    ids=["unused", "option", "ini-key", "fixture"],
)
def test_a_plugin_the_tests_use_is_installed_by_the_dependency_group_that_holds_it(tmp_path, pytest_ini, test, line):
    project = flat_project(tmp_path / "p", '[project]\nname = "shop"\n' + PARALLEL)
    (project / "pytest.ini").write_text("[pytest]\npythonpath = .\n" + pytest_ini, encoding="utf-8")
    (project / "tests").mkdir()
    source = "import hypothesis\n\nfrom shop.cart import total\n\n\n" + test
    (project / "tests" / "test_cart.py").write_text(source, encoding="utf-8")
    result = init(project, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof")
    assert result.exit_code == 0, result.output
    assert installed_line(project) == f'install: "{line}"', result.output
    if "parallel" in line:
        assert (
            "collecting tests needs hypothesis, pytest-xdist: extra fast and group parallel have them" in result.output
        )
        assert "install: pip's arguments (--group needs pip 25.1 or later), yours to edit in" in result.output


def test_tests_that_do_not_collect_here_are_read_for_their_imports_and_it_is_said(tmp_path):
    project = flat_project(
        tmp_path / "p", '[project]\nname = "Shop"\n' + EXTRAS, pytest_ini="[pytest]\npythonpath = .\n"
    )
    (project / "tests").mkdir()
    test = "import hypothesis\nimport torch\n\nfrom shop.cart import total\n\n\n" + A_TEST
    (project / "tests" / "test_cart.py").write_text(test, encoding="utf-8")
    result = init(project, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof")
    assert result.exit_code == 0, result.output
    said = "tests do not collect here (1 error: `mutcheck check` shows why); their imports name hypothesis, torch"
    assert f"install: -e .[test] ({said}: extra test has them; extra all would add sphinx)" in result.output
    assert installed_line(project) == 'install: "-e .[test]"'


def test_a_requirement_that_is_not_one_is_named_with_its_extra(tmp_path):
    pyproject = '[project]\nname = "shop"\n[project.optional-dependencies]\ntest = ["hypothesis >>> 6"]\n'
    project = flat_project(tmp_path / "p", pyproject)
    (project / "tests").mkdir()
    result = init(project, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof")
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.output.startswith("error: pyproject.toml: project.optional-dependencies.test: not a requirement: ")
    assert len(result.output.splitlines()) == 1 and not (project / "mutants").exists()


def test_bad_input_is_one_line_and_writes_nothing(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    cases = [
        (["--github", "not a repo"], "error: --github: not a repo: expected OWNER/REPO@REF"),
        (["--github", "octo/../x@1"], "error: --github: octo/../x@1: expected OWNER/REPO@REF"),
        (["--shards", "2"], "error: --shards: 2: only with --github"),
        ([], "target: no package found (src/NAME/__init__.py or NAME/__init__.py), nor one module to mutate"),
        (["--target", "../elsewhere", "--tests", "t"], "error: --target: ../elsewhere: leads outside the project"),
    ]
    for args, expected in cases:
        result = init(empty, *args)
        assert result.exit_code == ExitCode.USAGE, (args, result.output)
        assert len(result.output.splitlines()) == 1 and expected in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert list(empty.iterdir()) == []


def test_a_project_of_one_module_with_its_tests_beside_it_is_found(tmp_path):
    project = tmp_path / "trie"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "pygtrie"\n', encoding="utf-8")
    for name in ("pygtrie.py", "setup.py", "example.py", "test.py", "conftest.py"):
        (project / name).write_text("", encoding="utf-8")
    result = init(project)
    assert result.exit_code == 0, result.output
    assert 'target: pygtrie.py (the module named like the project, "pygtrie")' in result.output
    assert "tests: test.py (the test files at the project's root)" in result.output
    again = tmp_path / "again"  # no project name: the one module that is no test or script
    again.mkdir()
    for name in ("pygtrie.py", "setup.py", "test_pygtrie.py"):
        (again / name).write_text("", encoding="utf-8")
    result = init(again)
    assert result.exit_code == 0, result.output
    assert "target: pygtrie.py (the only module)" in result.output
    assert "tests: test_pygtrie.py (the test files at the project's root)" in result.output


def test_a_src_layout_wins_and_a_dependency_group_of_pytest_alone_is_not_installed(tmp_path):
    # As in agent SDKs: the project is named "acme-agents", its package src/agents, its test
    # helpers a top-level integration_tests/ package, and its test tools a PEP 735 group.
    pyproject = '[project]\nname = "acme-agents"\n[dependency-groups]\ndev = ["pytest"]\n'
    project = flat_project(tmp_path / "p", pyproject)
    for package in ("src/agents", "integration_tests"):
        (project / package).mkdir(parents=True)
        (project / package / "__init__.py").write_text("", encoding="utf-8")
    (project / "tests").mkdir()
    result = init(project, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof")
    assert result.exit_code == 0, result.output
    assert "target: src/agents (the only package under src/)" in result.output
    assert installed_line(project) == 'install: "-e ."'  # mutcheck brings pytest


def test_a_target_named_as_a_package_under_src_is_that_folder(tmp_path):
    project = flat_project(tmp_path / "p", '[project]\nname = "acme-agents"\n')
    (project / "src" / "agents").mkdir(parents=True)
    (project / "src" / "agents" / "__init__.py").write_text("", encoding="utf-8")
    (project / "tests").mkdir()
    result = init(project, "--target", "agents")
    assert result.exit_code == 0, result.output
    assert "target: src/agents (given with --target, the package under src/)" in result.output
    written = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    assert written["tool"]["mutcheck"]["target"] == ["src/agents"]
    other = flat_project(tmp_path / "other", '[project]\nname = "acme-agents"\n')
    (other / "src" / "agents").mkdir(parents=True)
    (other / "src" / "agents" / "__init__.py").write_text("", encoding="utf-8")
    missing = init(other, "--target", "agent", "--tests", "src")
    assert missing.exit_code == ExitCode.USAGE
    assert missing.output.strip() == "error: --target: agent: does not exist"


def test_a_tool_written_as_an_inline_table_gets_the_mutcheck_table_and_stays_valid_toml(tmp_path):
    pyproject = 'tool = { black = { line-length = 100 } }\n\n[project]\nname = "shop"\n'
    project = flat_project(tmp_path / "p", pyproject)
    (project / "tests").mkdir()
    result = init(project)
    assert result.exit_code == 0, result.output
    written = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    assert written["tool"]["black"] == {"line-length": 100}
    assert written["tool"]["mutcheck"] == {
        "target": ["shop"],
        "catalog": "mutants",
        "tests": ["tests"],
        "languages": ["en", "zh"],
    }
    assert written["project"] == {"name": "shop"}


def test_a_latin1_gitignore_keeps_its_bytes_and_every_write_is_reported_as_it_happens(tmp_path):
    project = flat_project(tmp_path / "p", '[project]\nname = "shop"\n')
    (project / "tests").mkdir()
    (project / ".gitignore").write_bytes(b"# caf\xe9\n*.log\n")
    result = init(project)
    assert result.exit_code == 0, result.output
    assert (project / ".gitignore").read_bytes() == b"# caf\xe9\n*.log\n\n# mutcheck's reports\n/mutcheck-results/\n"
    wrote = [line for line in result.output.splitlines() if line.startswith("wrote ")]
    assert [line.split(":")[0].split(" (")[0] for line in wrote] == [
        "wrote pyproject.toml",
        "wrote mutants/families.toml",
        "wrote mutants/guards.toml",
        "wrote .gitignore",
    ]


def test_files_whose_lines_end_in_crlf_get_their_additions_in_crlf_too(tmp_path):
    project = flat_project(tmp_path / "p")
    (project / "pyproject.toml").write_bytes(b'[project]\r\nname = "shop"\r\n')
    (project / ".gitignore").write_bytes(b"*.log\r\n")
    (project / "tests").mkdir()
    assert init(project).exit_code == 0
    for name in ("pyproject.toml", ".gitignore"):
        text = (project / name).read_bytes()
        assert text.count(b"\n") == text.count(b"\r\n") > 2, name
    pyproject = (project / "pyproject.toml").read_bytes()
    assert pyproject.startswith(b'[project]\r\nname = "shop"\r\n')
    assert tomllib.loads(pyproject.decode())["tool"]["mutcheck"]["tests"] == ["tests"]


def test_a_write_that_fails_puts_back_what_was_written_and_says_which_file(tmp_path):
    project = flat_project(tmp_path / "p", '[project]\nname = "shop"\n')
    (project / "tests").mkdir()
    (project / ".github").write_text("not a folder", encoding="utf-8")  # the workflows cannot go there
    before = {path.name: path.read_bytes() for path in project.iterdir() if path.is_file()}
    result = init(project, "--github", f"octo/mutcheck@{REF}", "--skip-install-proof")
    assert result.exit_code == 2, result.output
    assert "error: .github/workflows: cannot be written (Not a directory)" in result.output
    assert "nothing was written" in result.output and "Traceback" not in result.output
    assert {path.name: path.read_bytes() for path in project.iterdir() if path.is_file()} == before
    assert not (project / "mutants").exists()
