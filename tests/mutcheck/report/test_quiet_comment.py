"""The review comment when every expectation is met (quiet: verdict and families, the rest collapsed),
and its footer when the tested tree was not the head commit."""

import copy
import json
from pathlib import Path

from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.report.html import render_html
from mutcheck.report.markdown import render_markdown
from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.hostile.markdown_checks import CHINESE_SECTION, assert_inert, tokens
from tests.mutcheck.paths import GOLDEN
from tests.mutcheck.results_docs import document, summary_of, typed

RESULTS = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))

UNCOMMITTED = {
    "en": "with uncommitted changes to tracked files",
    "zh": "已跟踪的文件有未提交的改动",
}


def green_results() -> dict:
    """The golden run with its three unmet mutants' expectations met (as a fixed catalog would have it)."""
    results = copy.deepcopy(RESULTS)
    for mutant in results["mutants"]:
        if not mutant["expectation_met"]:
            mutant.update(
                expectation_met=True,
                problems=[],
                killed_by=[],
                survives={"en": "catalogued as a known gap", "zh": "按目录为已知缺口"},
            )
    results["summary"] = summary_of(results, baseline_ok=True)
    assert results["summary"]["exit_code"] == ExitCode.OK
    return results


def _visible(markdown: str) -> str:
    """What a reader sees without expanding anything: the text outside every <details>."""
    depth, kept = 0, []
    for line in markdown.splitlines():
        depth += line.count("<details>")
        if depth == 0:
            kept.append(line)
        depth -= line.count("</details>")
    return "\n".join(kept)


def test_a_green_comment_shows_the_verdict_and_families_and_collapses_the_rest():
    results = green_results()
    body = render_markdown(typed(results))
    assert_inert(body, results, ("en", "zh"))
    english, chinese = body.split(CHINESE_SECTION)
    visible = _visible(english)
    assert "**All 9 guard mutants behave as catalogued." in visible
    assert "#### By family" in visible and "| boundary conditions | 9 |" in visible
    for collapsed in ("#### Kill matrix", "| SWAP |", "#### Run", "Baseline: 7 tests"):
        assert collapsed not in visible and collapsed in english, collapsed
    assert "<summary>Kill matrix and run details (9 mutants)</summary>" in english
    # The matrix appears once: e-mail notifications show collapsed sections expanded.
    assert body.count("| SWAP |") == 1
    assert "击杀矩阵见本评论的第一部分。" in chinese and "#### 击杀矩阵" not in chinese
    assert "<summary>击杀矩阵与运行详情（9 个变异体）</summary>" in chinese and "#### 运行信息" in chinese


def test_a_comment_with_findings_shows_them_first_as_a_table_and_folds_their_details_and_the_matrix():
    body = render_markdown(typed(RESULTS))
    english, chinese = body.split(CHINESE_SECTION)
    visible = _visible(english)
    assert visible.index("#### Findings (3)") < visible.index("#### By family")
    findings = [mutant for mutant in RESULTS["mutants"] if not mutant["expectation_met"]]
    for mutant in findings:  # each a row of the visible table, its diff folded below it, once in the comment
        assert f"| **{mutant['id']}** |" in visible
        diff_line = next(line for line in mutant["diff"].splitlines() if line.startswith("+") and line[1:2] != "+")
        assert body.count(diff_line) == 1 and diff_line not in visible and diff_line not in chinese
    assert "#### Kill matrix" not in visible and "<summary>Kill matrix and run details (9 mutants)</summary>" in english
    assert body.count("| SWAP |") == 1 and "#### 击杀矩阵" not in chinese
    assert "#### 发现的问题 (3)" in _visible(chinese)


def test_the_quiet_comment_of_the_repository_run_is_short(repository_results):
    """This repository's green run of both targets: the full comment has both languages' matrices."""
    quiet = render_markdown(typed(repository_results))
    loud = copy.deepcopy(repository_results)
    loud["mutants"][0]["expectation_met"] = False  # the same run with one finding: not quiet
    loud["summary"] = summary_of(loud, baseline_ok=True)
    assert len(quiet) < len(render_markdown(typed(loud)))
    english = quiet.split(CHINESE_SECTION)[0]
    families = len({(mutant.get("target"), mutant["family"]) for mutant in repository_results["mutants"]})
    assert len(_visible(english).splitlines()) <= 12 + families  # title, verdict, the family table


def _run(project: Path, tmp_path: Path, name: str) -> dict:
    path = tmp_path / f"{name}.json"
    outcome = CliRunner().invoke(main, ["run", "--project", str(project), "--only", "SWAP", "--json", str(path)])
    assert outcome.exit_code == ExitCode.OK, outcome.output
    return document(path)


def _footer(results: dict, languages: tuple[str, ...] | None = None) -> str:
    return [token.content for token in tokens(render_markdown(typed(results), languages)) if token.type == "inline"][-1]


def test_the_footer_says_when_tracked_files_had_uncommitted_changes(tmp_path):
    project = make_engine_project(tmp_path / "project", git=True)
    (project / "notes.txt").write_text("untracked, as CI's own files are\n", encoding="utf-8")
    clean = _run(project, tmp_path, "clean")
    assert clean["run"]["uncommitted_changes"] is False
    assert UNCOMMITTED["en"] not in _footer(clean)

    source = project / "src" / "tiny.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited, not committed\n", encoding="utf-8")
    edited = _run(project, tmp_path, "edited")
    assert edited["run"]["uncommitted_changes"] is True
    body = render_markdown(typed(edited))
    version, sha = edited["run"]["mutcheck_version"], edited["run"]["head_sha"]
    assert _footer(edited) == f"<sub>mutcheck {version} · run at {sha}, {UNCOMMITTED['en']}</sub>"
    assert _footer(edited, ("zh", "en")) == f"<sub>mutcheck {version} · 运行于 {sha}，{UNCOMMITTED['zh']}</sub>"
    assert "- Tracked files had uncommitted changes: the run tested code that no commit holds." in body
    page = render_html(typed(edited))
    assert "Tracked files had uncommitted changes" in page and "已跟踪的文件有未提交的改动" in page
    assert "uncommitted changes" not in render_html(typed(clean))


def test_outside_git_the_run_says_nothing_about_changes(tmp_path):
    results = _run(make_engine_project(tmp_path / "project"), tmp_path, "plain")
    assert results["run"]["uncommitted_changes"] is None and results["run"]["head_sha"] is None
    assert "uncommitted" not in _footer(results)
