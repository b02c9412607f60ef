"""`mutcheck list` and `mutcheck show` on the repository's catalog and on fixture projects."""

import json
import subprocess
from pathlib import Path

from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.engine_project import entry, make_engine_project, make_project

REPOSITORY = Path(__file__).resolve().parents[2]


def invoke(*args: str):
    return CliRunner().invoke(main, [*args, "--project", str(REPOSITORY)])


def test_list_shows_id_family_location_and_expectation():
    result = invoke("list")
    assert result.exit_code == ExitCode.OK
    line = next(line for line in result.output.splitlines() if line.startswith("G1 "))
    assert "episode-split" in line
    assert "src/consolidation/episodes.py::EpisodeTracker.add_thought" in line
    assert "killed by 1" in line
    assert "equivalent" in next(line for line in result.output.splitlines() if line.startswith("EQ1 "))


def test_list_filters_by_family():
    result = invoke("list", "--family", "retry-gate")
    rows = [line.split()[0] for line in result.output.splitlines()[1:] if line.strip()]
    assert rows == ["R1", "R2", "R3", "EQ8", "R5", "R6", "R7"]


def test_show_prints_diff_why_and_killers_in_either_language():
    killer = "tests/consolidation/test_episodes.py::test_e2_back_to_back_episodes_split"
    diff = ('-        if self.has_open and text != "" and len(self.open_text) > 0', "+        if False:")
    english = invoke("show", "000-M1")
    assert english.exit_code == ExitCode.OK, english.output
    lines = english.output.splitlines()
    assert lines[0].startswith("G1 episode-split condition deleted  (episode-split; ")
    assert all(any(line.startswith(change) for line in lines) for change in diff)
    assert "Back-to-back episodes with no tool call between them merge into one block" in english.output
    assert f"expected to be killed by: {killer}" in lines
    chinese = invoke("show", "G1", "--lang", "zh")
    assert chinese.exit_code == ExitCode.OK, chinese.output
    lines = chinese.output.splitlines()
    assert lines[0].startswith("G1 删除片段切分条件  (episode-split; ")
    assert all(any(line.startswith(change) for line in lines) for change in diff)
    assert "两个相邻且中间没有工具调用的片段会合并为一个块" in chinese.output
    assert "Back-to-back episodes" not in chinese.output
    assert f"应由以下测试击杀：{killer}" in lines


def test_show_equivalent_prints_its_proof():
    result = invoke("show", "EQ2")
    assert "equivalent: list.insert clamps" in result.output


def test_show_unknown_id_is_a_usage_error():
    result = invoke("show", "G999")
    assert result.exit_code == ExitCode.USAGE
    assert "mutants: G999: id: no mutant with this id or alias" in result.output


def test_list_and_show_a_known_gap(tmp_path):
    reason = '{ en = "nothing checks the low bound yet", zh = "尚无测试检查下界" }'
    project = make_project(tmp_path, entry(killed_by=None, survives=reason, tracked='"#12"'))
    listed = CliRunner().invoke(main, ["list", "--project", str(project)])
    assert listed.exit_code == ExitCode.OK, listed.output
    assert next(line for line in listed.output.splitlines() if line.startswith("B1 ")).rstrip().endswith("known gap")
    shown = CliRunner().invoke(main, ["show", "B1", "--project", str(project)])
    assert shown.exit_code == ExitCode.OK, shown.output
    assert "known gap: nothing checks the low bound yet\ntracked: #12\n" in shown.output
    assert "killed by" not in shown.output
    chinese = CliRunner().invoke(main, ["show", "B1", "--lang", "zh", "--project", str(project)])
    assert "已知缺口：尚无测试检查下界\n跟踪：#12\n" in chinese.output
    assert "known gap" not in chinese.output


def test_show_speaks_the_chosen_language_in_every_label():
    equivalent = invoke("show", "EQ2", "--lang", "zh").output.splitlines()
    assert any(line.startswith("等价：") for line in equivalent)
    killed = invoke("show", "G1", "--lang", "zh").output.splitlines()
    assert "应由以下测试击杀：tests/consolidation/test_episodes.py::test_e2_back_to_back_episodes_split" in killed
    assert any(line.startswith("建议添加的测试：") for line in killed)
    english_labels = ("equivalent:", "known gap:", "expected to be killed by:", "test to add:", "tracked:")
    assert not [line for line in equivalent + killed if line.startswith(english_labels)]


def test_list_with_an_unknown_family_names_it_and_the_known_ones():
    result = invoke("list", "--family", "retry-gate", "--family", "no-such-family")
    assert result.exit_code == ExitCode.USAGE
    line = result.output.strip()
    assert line.startswith("error: --family: no-such-family: no such family (known: ")
    assert "episode-split" in line and "retry-gate" in line and "\n" not in line


def test_list_json_gives_each_mutant_with_its_location_and_expectation():
    result = invoke("list", "--json", "--only", "G1", "--only", "EQ2")
    assert result.exit_code == ExitCode.OK, result.output
    first, second = json.loads(result.output)
    assert first["id"] == "G1" and "000-M1" in first["aliases"] and first["family"] == "episode-split"
    assert (first["file"], first["scope"]) == ("src/consolidation/episodes.py", "EpisodeTracker.add_thought")
    source = (REPOSITORY / first["file"]).read_text(encoding="utf-8").splitlines()
    assert 'if self.has_open and text != "" and len(self.open_text) > 0' in source[first["line"] - 1]
    assert first["expectation"] == "killed_by" and first["equivalent"] is None and first["survives"] is None
    assert first["killed_by"] == ["tests/consolidation/test_episodes.py::test_e2_back_to_back_episodes_split"]
    assert second["id"] == "EQ2" and second["expectation"] == "equivalent" and second["killed_by"] == []
    assert set(second["equivalent"]) == {"en", "zh"}


def _listed(project: Path, *args: str) -> list[str]:
    result = CliRunner().invoke(main, ["list", "--json", *args, "--project", str(project)])
    assert result.exit_code == ExitCode.OK, result.output
    return [mutant["id"] for mutant in json.loads(result.output)]


def _run(project: Path, results: Path, *args: str) -> list[str]:
    CliRunner().invoke(main, ["run", *args, "--json", str(results), "--project", str(project)])
    return [mutant["id"] for mutant in json.loads(results.read_text())["mutants"]]


def test_list_selects_exactly_what_run_runs_with_only_shard_and_diff(tmp_path):
    project = make_engine_project(tmp_path / "project", git=True)
    subset = ["--only", "SWAP", "--only", "SURVIVOR", "--only", "EQUAL", "--only", "LOOP", "--shard", "1/2"]
    sharded = _listed(project, *subset)
    assert 0 < len(sharded) < 4
    assert sharded == _run(project, tmp_path / "sharded.json", *subset)
    source = project / "src/tiny.py"
    source.write_text(source.read_text().replace("    if value > high:\n", "    if value > high:  # the upper bound\n"))
    assert _listed(project, "--diff", "main") == ["SURVIVOR"]
    assert _run(project, tmp_path / "diff.json", "--diff", "main") == ["SURVIVOR"]
    subprocess.run(["git", "checkout", "-q", "--", "src/tiny.py"], cwd=project, check=True)
    assert _listed(project, "--diff", "main") == []


def test_list_lists_a_catalog_whose_entry_does_not_apply_and_json_names_it(tmp_path):
    """Listing needs no edit applied; the line in --json (and --diff) does, and then a bad entry is an error."""
    broken = entry(id='"BROKEN"', match='"value < nowhere"', replace='"value > nowhere"')
    project = make_engine_project(tmp_path / "project", catalog=entry() + "\n" + broken)
    listed = CliRunner().invoke(main, ["list", "--project", str(project)])
    assert listed.exit_code == ExitCode.OK, listed.output
    assert "BROKEN" in listed.output
    as_json = CliRunner().invoke(main, ["list", "--json", "--project", str(project)])
    assert as_json.exit_code == ExitCode.USAGE
    assert "BROKEN" in as_json.output and "match" in as_json.output
