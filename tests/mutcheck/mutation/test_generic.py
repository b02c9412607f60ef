"""`mutcheck run --generic`: mutmut's operator mutants through mutcheck's engine, verdict for
verdict the same as `mutmut run` reports."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.project_paths import target_files
from mutcheck.core.texts import say
from mutcheck.mutation.generic import generate
from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.results_docs import document
from tests.mutcheck.spans import at_span

# mutmut's exit codes, as its own status table reads them.
MUTMUT_STATUS = {0: "survived", 1: "killed", 3: "killed", 33: "no-coverage", 5: "no-coverage", 36: "timeout"}


def generic_project(root: Path) -> Path:
    """The engine fixture without its endless-loop function (mutmut would wait 15 s per loop)."""
    project = make_engine_project(root)
    source = project / "src/tiny.py"
    text = source.read_text()
    source.write_text(re.sub(r"\ndef countdown\(n\):\n(?:    .*\n)+", "\n", text))
    tests = project / "tests/test_tiny.py"
    tests.write_text(tests.read_text().replace(", countdown", "").split("\n\ndef test_countdown")[0] + "\n")
    catalog = project / "mutants/catalog.toml"
    entries = catalog.read_text().split("\n[[mutant]]\n")
    catalog.write_text("\n[[mutant]]\n" + next(entry for entry in entries if 'id = "SWAP"' in entry))
    return project


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return generic_project(tmp_path_factory.mktemp("generic") / "project")


def run_generic(project: Path, *args: str):
    """`mutcheck run` on the fixture: its one catalog mutant and every generic one."""
    return CliRunner().invoke(
        main, ["run", "--project", str(project), "--only", "SWAP", "--only", "generic", "--generic", *args]
    )


def test_generated_mutants_are_named_as_mutmut_names_them(project):
    applied = generate(project, target_files(project, ("src",)))
    ids = [mutant.mutant.id for mutant in applied]
    assert "tiny.x_clamp__mutmut_1" in ids
    assert "tiny.xǁCounterǁadd__mutmut_1" in ids
    assert all(mutant.mutant.generic and mutant.mutant.family == "generic" for mutant in applied)
    first = applied[0]
    assert first.diff.startswith("--- a/src/tiny.py\n+++ b/src/tiny.py\n")
    assert first.mutant.title["en"].startswith(first.mutant.operator + ": ")
    assert first.span.start_line >= 1 and first.swap_target == "clamp"
    assert all(at_span(m.original, vars(m.span), m.replacement) == m.mutated for m in applied)


def _mutmut_verdicts(project: Path, scratch: Path) -> dict[str, str]:
    """Run `mutmut run` in a scratch copy (without the catalog, whose directory mutmut would use)."""
    copy = scratch / "mutmut-copy"
    shutil.copytree(project, copy)
    shutil.rmtree(copy / "mutants")
    with (copy / "pyproject.toml").open("a") as file:
        file.write('\n[tool.mutmut]\nsource_paths = ["src"]\npytest_add_cli_args_test_selection = ["tests"]\n')
    subprocess.run(
        [str(Path(sys.executable).parent / "mutmut"), "run"],
        cwd=copy,
        capture_output=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        check=True,
        timeout=600,
    )
    meta = json.loads((copy / "mutants/src/tiny.py.meta").read_text())
    return {key: MUTMUT_STATUS.get(code, f"other {code}") for key, code in meta["exit_code_by_key"].items()}


def test_verdicts_agree_with_mutmut_run(project, tmp_path):
    theirs = _mutmut_verdicts(project, tmp_path)
    results_path = tmp_path / "results.json"
    outcome = run_generic(project, "--json", str(results_path))
    assert outcome.exit_code == ExitCode.OK, outcome.output
    ours = {m["id"]: m["verdict"] for m in document(results_path)["mutants"] if m["generic"]}
    assert set(ours) == set(theirs)
    assert ours == theirs
    assert {"killed", "survived", "no-coverage"} <= set(ours.values())


def test_generic_survivors_count_only_when_strict(project, tmp_path):
    results_path = tmp_path / "results.json"
    lenient = run_generic(project)
    assert lenient.exit_code == ExitCode.OK
    assert "generic operator mutants (mutmut):" in lenient.output
    strict = run_generic(project, "--strict-generic", "--json", str(results_path))
    assert strict.exit_code == ExitCode.EXPECTATION_FAILED
    data = document(results_path)
    survivors = [m for m in data["mutants"] if m["generic"] and m["verdict"] == "survived"]
    assert survivors and all(
        m["problems"] == [{"kind": "unexpected-survivor", "test": None, "detail": None}] for m in survivors
    )
    assert data["summary"]["mutants"] == 1 and data["summary"]["generic"]["mutants"] == len(
        [m for m in data["mutants"] if m["generic"]]
    )


def test_generic_section_in_the_comment(project, tmp_path):
    results_path = tmp_path / "results.json"
    run_generic(project, "--json", str(results_path))
    comment = CliRunner().invoke(main, ["report", str(results_path), "--format", "markdown"]).output
    english, chinese = comment.split("<summary>中文说明</summary>")
    assert "<summary>Generic operator mutants (mutmut)</summary>" in english
    assert "Informational: they do not change the exit status" in english
    assert "<summary>通用算子变异体（mutmut）</summary>" in chinese
    assert "All 1 guard mutants behave as catalogued." in english  # the generic ones are not counted


def test_a_generic_only_run_reports_the_generic_counts_and_no_family_table(project, tmp_path):
    results_path = tmp_path / "results.json"
    outcome = CliRunner().invoke(
        main,
        ["run", "--project", str(project), "--generic", "--only", "generic", "--json", str(results_path), "--fresh"],
    )
    assert outcome.exit_code == ExitCode.OK, outcome.output
    summary = document(results_path)["summary"]
    generic = summary["generic"]
    assert summary["mutants"] == 0 and generic["verdicts"]["killed"] and generic["verdicts"]["survived"]
    assert "Guard mutants by family" not in outcome.output
    words = {"killed": "killed", "survived": "survived", "no-coverage": "no coverage"}
    counts = ", ".join(f"{count} {words[verdict]}" for verdict, count in generic["verdicts"].items() if count)
    assert (
        f"0 catalog mutants; {generic['mutants']} generic mutants: {counts} (informational); every expectation met"
        in (outcome.output)
    )
    comment = CliRunner().invoke(main, ["report", str(results_path), "--format", "markdown"]).output
    english, chinese = comment.split("<summary>中文说明</summary>")
    words = ", ".join(
        f"{say('en', 'verdict', verdict)} {count}" for verdict, count in generic["verdicts"].items() if count
    )
    assert (
        f"**No guard mutant was selected for this run. {generic['mutants']} generic operator mutants: {words}.**"
        in (english)
    )
    assert "#### By family" not in english
    assert f"**本次运行没有选中任何守护变异体。{generic['mutants']} 个通用算子变异体：" in chinese
