"""`mutcheck run` end to end on a fixture project: every engine path, verdicts and exit status."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.cli_runs import mutant, outcome, run
from tests.mutcheck.engine_project import english_project, entry, make_engine_project, make_project
from tests.mutcheck.results_docs import document


@pytest.fixture(scope="module")
def full_run(tmp_path_factory) -> tuple[int, str, dict]:
    project = make_engine_project(tmp_path_factory.mktemp("engine") / "project")
    return run(project)


def test_swap_path_kills_with_the_expected_tests_and_records_witnesses(full_run):
    _, _, data = full_run
    entry = mutant(data, "SWAP")
    assert entry["path"] == "swap"
    assert entry["verdict"] == "killed"
    assert entry["expectation_met"]
    assert outcome(data, entry, "test_clamp_low") == "failed"
    assert outcome(data, entry, "test_clamp_inside") == "failed"
    assert outcome(data, entry, "test_clamp_high") == "failed"
    assert any("assert" in witness for witness in entry["witnesses"].values())
    assert outcome(data, entry, "test_tick") == "unselected"


def test_nested_scope_is_swapped_through_its_outer_method(full_run):
    entry = mutant(full_run[2], "NESTED")
    assert (entry["path"], entry["verdict"], entry["expectation_met"]) == ("swap", "killed", True)
    assert len(entry["selected"]) == 1


def test_class_statement_falls_back_to_a_scratch_copy(full_run):
    entry = mutant(full_run[2], "FALLBACK")
    assert (entry["path"], entry["verdict"], entry["expectation_met"]) == ("fallback", "killed", True)
    assert outcome(full_run[2], entry, "test_tick") == "failed"


def test_infinite_loop_times_out_and_the_run_goes_on(full_run):
    _, _, data = full_run
    entry = mutant(data, "LOOP")
    assert entry["verdict"] == "timeout"
    assert outcome(data, entry, "test_countdown") == "timeout"
    assert entry["expectation_met"]
    assert entry["time_limit"] < 5


def test_a_hanging_test_does_not_hide_the_tests_after_it(full_run):
    """HANG makes test_countdown loop forever and test_countdown_from_zero fail: the matrix has both."""
    _, _, data = full_run
    entry = mutant(data, "HANG")
    assert outcome(data, entry, "test_countdown") == "timeout"
    assert outcome(data, entry, "test_countdown_from_zero") == "failed"
    assert (entry["verdict"], entry["expectation_met"]) == ("killed", True)


def test_unreached_function_is_no_coverage(full_run):
    entry = mutant(full_run[2], "UNREACHED")
    assert entry["verdict"] == "no-coverage"
    assert entry["selected"] == []
    assert entry["problems"] == [{"kind": "no-coverage", "test": None, "detail": None}]


def test_mutant_that_breaks_the_import_is_broken(full_run):
    entry = mutant(full_run[2], "BREAKS")
    assert entry["verdict"] == "broken"
    assert not entry["expectation_met"]
    assert entry["problems"] == [
        {
            "kind": "broken",
            "test": None,
            "detail": "tests/test_tiny.py: NameError: name 'undefined_name' is not defined",
        }
    ]


def test_declared_equivalent_survives(full_run):
    entry = mutant(full_run[2], "EQUAL")
    assert (entry["verdict"], entry["expectation_met"]) == ("equivalent", True)


def test_unexpected_survivor_fails_the_run(full_run):
    code, output, data = full_run
    entry = mutant(data, "SURVIVOR")
    assert entry["verdict"] == "survived"
    assert entry["problems"] == [
        {"kind": "unexpected-survivor", "test": None, "detail": None},
        {"kind": "killer-passed", "test": "tests/test_tiny.py::test_clamp_high", "detail": "passed"},
    ]
    assert "expected killer did not fail: tests/test_tiny.py::test_clamp_high (passed)" in output
    assert code == ExitCode.EXPECTATION_FAILED
    assert data["summary"]["exit_code"] == 1
    assert "SURVIVOR [survived] SURVIVOR title" in output


def test_met_expectations_exit_zero(tmp_path):
    project = make_engine_project(tmp_path / "project")
    code, output, data = run(project, "--only", "SWAP", "--only", "NESTED", "--only", "FALLBACK", "--only", "EQUAL")
    assert code == ExitCode.OK, output
    assert [entry["id"] for entry in data["mutants"]] == ["SWAP", "NESTED", "FALLBACK", "EQUAL"]
    assert "4 mutants: 3 killed, 1 equivalent; every expectation met" in output


def test_bail_stops_at_the_first_kill(tmp_path):
    project = make_engine_project(tmp_path / "project")
    code, _, data = run(project, "--only", "SWAP", "--bail")
    entry = mutant(data, "SWAP")
    assert code == ExitCode.OK
    assert sorted(entry["outcomes"].values()).count("failed") == 1
    assert "not-run" in entry["outcomes"].values()


def test_failing_baseline_exits_3_naming_the_test(tmp_path):
    project = make_engine_project(tmp_path / "project")
    tests = project / "tests/test_tiny.py"
    tests.write_text(tests.read_text() + "\n\ndef test_broken():\n    assert 1 == 2\n")
    code, output, data = run(project, "--only", "SWAP")
    assert code == ExitCode.BASELINE_FAILED
    assert "baseline failed: tests/test_tiny.py::test_broken: AssertionError: assert 1 == 2" in output
    assert data["baseline"]["ok"] is False
    assert data["mutants"] == []


def test_flaky_baseline_exits_3(tmp_path):
    project = make_engine_project(tmp_path / "project")
    tests = project / "tests/test_tiny.py"
    flaky = (
        "\n\ndef test_flaky(tmp_path_factory):\n"
        "    import pathlib\n"
        "    marker = pathlib.Path('flaky-marker')\n"
        "    first = not marker.exists()\n"
        "    marker.write_text('seen')\n"
        "    assert first\n"
    )
    tests.write_text(tests.read_text() + flaky)
    code, output, data = run(project, "--only", "SWAP", "--baseline-rounds", "3")
    assert code == ExitCode.BASELINE_FAILED
    assert "flaky (outcome differs between rounds): tests/test_tiny.py::test_flaky" in output
    assert data["baseline"]["flaky"] == ["tests/test_tiny.py::test_flaky"]
    assert not (project / "flaky-marker").exists()


def test_unknown_only_name_is_a_usage_error(tmp_path):
    project = make_engine_project(tmp_path / "project")
    code, output, _ = run(project, "--only", "NOPE")
    assert code == ExitCode.USAGE
    assert "--only: NOPE: no mutant id, alias or family of that name" in output


def test_diff_keeps_mutants_on_changed_lines(tmp_path):
    project = make_engine_project(tmp_path / "project", git=True)
    source = project / "src/tiny.py"
    source.write_text(
        source.read_text().replace("return step if step > 0 else 0", "return step if step > 0 else 0  # why")
    )
    code, _, data = run(project, "--diff", "HEAD", "--only", "NESTED", "--only", "SWAP")
    assert [entry["id"] for entry in data["mutants"]] == ["NESTED"]
    assert code == ExitCode.OK


def test_diff_keeps_mutants_whose_expected_killer_changed(tmp_path):
    project = make_engine_project(tmp_path / "project", git=True)
    tests = project / "tests/test_tiny.py"
    tests.write_text(tests.read_text() + "\n")
    _, _, data = run(project, "--diff", "HEAD", "--only", "SWAP", "--only", "NESTED")
    assert [entry["id"] for entry in data["mutants"]] == ["SWAP", "NESTED"]


def _tree_state(project: Path) -> tuple[str, dict[str, bytes]]:
    status = subprocess.run(["git", "status", "--porcelain"], cwd=project, capture_output=True, text=True).stdout
    files = {str(path): path.read_bytes() for path in project.rglob("*") if path.is_file() and ".git" not in path.parts}
    return status, files


@pytest.mark.parametrize("delay", [0.5, 2.5])
def test_sigkill_mid_run_leaves_the_tree_untouched(tmp_path, delay):
    project = make_engine_project(tmp_path / "project", git=True)
    before = _tree_state(project)
    process = subprocess.Popen(
        [sys.executable, "-m", "mutcheck", "run", "--project", str(project)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    process.wait()
    time.sleep(0.5)  # let an orphaned host notice and stop
    after = _tree_state(project)
    assert after[0] == "" == before[0]
    assert after[1] == before[1]


def test_results_validate_against_the_schema(full_run, tmp_path):
    _, _, data = full_run
    path = tmp_path / "copy.json"
    path.write_text(json.dumps(data))
    assert document(path)["summary"]["mutants"] == 9


def test_a_test_cannot_swallow_its_time_out(tmp_path):
    """`pytest.raises(Exception)` around a call that hangs under the mutant still times out."""
    catalog = entry(
        id='"SPIN"',
        scope='"countdown"',
        match="'''while n > 0:\n    n -= 1\nreturn n'''",
        replace="'''while True:\n    pass'''",
        killed_by='["tests/test_tiny.py::test_countdown_rejects_text"]',
    )
    project = make_project(tmp_path / "project", catalog)
    tests = project / "tests/test_tiny.py"
    swallowing = "\n\ndef test_countdown_rejects_text():\n    import pytest\n    with pytest.raises(Exception):\n"
    tests.write_text(tests.read_text() + swallowing + '        countdown("3")\n')
    code, output, data = run(project)
    spin = mutant(data, "SPIN")
    assert outcome(data, spin, "test_countdown_rejects_text") == "timeout", output
    assert (spin["verdict"], spin["expectation_met"], code) == ("timeout", True, ExitCode.OK)


def test_a_run_where_nothing_is_reached_says_why_it_may_be(tmp_path):
    project = make_engine_project(tmp_path / "project")
    code, output, _ = run(project, "--only", "UNREACHED")
    assert code == ExitCode.EXPECTATION_FAILED
    assert "warning: no test executed any mutated function" in output


def _gap(mutant_id: str, scope: str, match: str, replace: str, extra: str = "") -> str:
    reason = f'survives = {{ en = "{mutant_id}: nothing checks it yet", zh = "{mutant_id}：尚无测试检查" }}'
    return entry(
        id=f'"{mutant_id}"', scope=f'"{scope}"', match=f'"{match}"', replace=f'"{replace}"', killed_by=None
    ).replace("origin =", f"{reason}\n{extra}origin =")


KNOWN_GAPS = (
    _gap("GAP", "clamp", "value > high", "value >= high", 'tracked = "#12"\n')
    + _gap("GAP-NOCOV", "unused", "x + 1", "x - 1")
    + _gap("GAP-KILLED", "clamp", "value < low", "value > low")
)


def test_known_gaps_survive_as_catalogued_and_a_killed_one_must_move_to_killed_by(tmp_path):
    project = make_project(tmp_path / "project", KNOWN_GAPS)
    code, output, data = run(project)
    gap, uncovered, killed = (mutant(data, name) for name in ("GAP", "GAP-NOCOV", "GAP-KILLED"))
    assert (gap["verdict"], gap["expectation_met"], gap["tracked"]) == ("survived", True, "#12")
    assert gap["survives"] == {"en": "GAP: nothing checks it yet", "zh": "GAP：尚无测试检查"}
    assert (uncovered["verdict"], uncovered["expectation_met"]) == ("no-coverage", True)
    assert killed["verdict"] == "killed"
    assert killed["problems"] == [
        {"kind": "gap-killed", "test": f"tests/test_tiny.py::{test}", "detail": "failed"}
        for test in ("test_clamp_low", "test_clamp_high", "test_clamp_inside")
    ]
    assert code == ExitCode.EXPECTATION_FAILED
    assert data["summary"]["known_gaps"] == 2 and data["summary"]["expectations_unmet"] == 1
    assert "known gap now killed by tests/test_tiny.py::test_clamp_low (failed): move it to killed_by" in output
    assert "known gap GAP [survived] low bound inclusive: GAP: nothing checks it yet (tracked: #12)" in output
    assert "known gap GAP-NOCOV [no coverage] low bound inclusive: GAP-NOCOV: nothing checks it yet" in output
    assert "3 mutants: 1 killed, 1 survived, 1 no coverage; 2 known gaps; 1 unmet expectation" in output

    code, output, data = run(project, "--only", "GAP", "--only", "GAP-NOCOV")
    assert code == ExitCode.OK, output
    assert (
        "2 mutants: 1 survived, 1 no coverage; 2 known gaps; 3 of 3 test outcomes reused (evidence unchanged); "
        "every expectation met" in output
    )


def test_a_project_in_english_alone_runs_and_reports_in_english_alone(tmp_path):
    project = english_project(tmp_path / "project")
    checked = CliRunner().invoke(main, ["check", "--project", str(project)])
    assert checked.exit_code == ExitCode.OK, checked.output
    comment, page = tmp_path / "comment.md", tmp_path / "report.html"
    code, output, data = run(project, "--markdown", str(comment), "--html", str(page))
    assert code == ExitCode.OK, output
    assert data["run"]["languages"] == ["en"]
    assert data["families"] == {"boundary": {"en": "boundary"}}
    assert mutant(data, "B1")["title"] == {"en": "low bound inclusive"}
    body = comment.read_text(encoding="utf-8")
    assert "All 1 guard mutants behave as catalogued." in body
    assert "中文" not in body and body.count("<details>") == 1  # the quiet comment's matrix, no other language
    html = page.read_text(encoding="utf-8")
    assert 'class="zh"' not in html and 'id="language"' not in html and "中文" not in html
    results = tmp_path / "results.json"
    results.write_text(json.dumps(data), encoding="utf-8")
    refused = CliRunner().invoke(main, ["report", str(results), "--format", "markdown", "--lang", "zh"])
    assert refused.exit_code == ExitCode.USAGE
    assert "--lang: zh: not a language of this run, or repeated (the run has en)" in refused.output
    shown = CliRunner().invoke(main, ["show", "B1", "--lang", "zh", "--project", str(project)])
    assert shown.exit_code == ExitCode.USAGE
    assert "--lang: zh: not in tool.mutcheck.languages (en)" in shown.output


def test_a_target_the_tests_import_from_another_copy_is_named_with_that_copy(tmp_path):
    """Another checkout first on the path (an editable install of it, a conftest's sys.path): the
    run says which file the tests took the target's module from."""
    project = make_engine_project(tmp_path / "project")
    other = tmp_path / "other-checkout"
    other.mkdir()
    (other / "tiny.py").write_text((project / "src" / "tiny.py").read_text())
    (project / "tests" / "conftest.py").write_text(f"import sys\n\nsys.path.insert(0, {str(other)!r})\n")
    code, output, _ = run(project, "--only", "UNREACHED")
    assert code == ExitCode.EXPECTATION_FAILED
    said = " ".join(output.split())
    assert f"warning: the tests import src/tiny.py's module from {other / 'tiny.py'}, not from this project" in said
