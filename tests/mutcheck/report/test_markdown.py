"""The review comment a reviewer reads: fifteen findings of a real run, in two languages, under
20 KB, each finding once, what to act on first and the details folded; diffs narrowed to the change."""

from pathlib import Path

from mutcheck.report.markdown import narrowed
from tests.mutcheck.cli_runs import mutcheck
from tests.mutcheck.engine_project import families, write_files

FINDINGS = 15
WHY = {
    "en": "a value at the bound must come back unchanged: the clamp keeps history entries within the window",
    "zh": "恰好等于上界的值必须原样返回：截断让历史条目留在窗口之内",
}


def fifteen_findings(root: Path) -> Path:
    """A project whose catalog expects a test to kill each of 15 boundary mutants none kills."""
    source, tests, catalog = [], ["from guards import *\n"], []
    for k in range(FINDINGS):
        bound = k + 10
        source.append(f"def clamp_{k}(value):\n    if value > {bound}:\n        return {bound}\n    return value\n\n\n")
        tests.append(f"\n\ndef test_clamp_{k}():\n    assert clamp_{k}(0) == 0\n")
        catalog.append(
            f'[[mutant]]\nid = "G{k}"\nfamily = "boundary"\nfile = "src/guards.py"\nscope = "clamp_{k}"\n'
            f'match = "value > {bound}"\nreplace = "value >= {bound}"\n'
            f'killed_by = ["tests/test_guards.py::test_clamp_{k}"]\norigin = "fixture"\n'
            f'title = {{ en = "upper bound {k} inclusive", zh = "上界 {k} 包含" }}\n'
            f'why = {{ en = "{WHY["en"]}", zh = "{WHY["zh"]}" }}\n'
            f'hint = {{ en = "assert clamp_{k}({bound}) == {bound}", zh = "断言 clamp_{k}({bound}) == {bound}" }}\n\n'
        )
    files = {
        "pyproject.toml": '[tool.mutcheck]\ntarget = ["src"]\ntests = ["tests"]\n\n'
        '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
        "src/guards.py": "".join(source),
        "tests/test_guards.py": "".join(tests),
        "mutants/guards.toml": "".join(catalog),
        "mutants/families.toml": families("boundary", "boundary conditions", "边界条件"),
    }
    return write_files(root, files)


def test_fifteen_findings_in_two_languages_fit_in_20_kb_each_said_once_details_folded(tmp_path):
    project = fifteen_findings(tmp_path / "project")
    done = mutcheck(project, "run", "--markdown", "comment.md")
    assert done.returncode == 1, done.stdout + done.stderr
    comment = (project / "comment.md").read_text(encoding="utf-8")
    assert len(comment.encode("utf-8")) <= 20_000
    english, chinese = comment.split("<summary>中文说明</summary>")
    table, details = english.split("<summary>How each fails, its diff and what to add (15)</summary>")
    for k in range(FINDINGS):
        assert table.count(f"| **G{k}** | upper bound {k} inclusive | survived | src/guards.py:") == 1
        assert comment.count(f"+    if value >= {k + 10}:") == 1  # its diff once, in the first language
        assert f"assert clamp\\_{k}({k + 10}) == {k + 10}" in details
        assert chinese.count(f"| **G{k}** | 上界 {k} 包含 | 存活 | src/guards.py:") == 1
    assert comment.count(WHY["en"]) == FINDINGS and comment.count(WHY["zh"]) == FINDINGS
    assert table.index("#### Findings (15)") < table.index("<details>")  # what to act on, before any fold
    assert "#### Kill matrix" not in chinese


def test_a_diff_keeps_one_line_around_its_change_and_counts_its_ranges_again():
    diff = (
        "--- a/m.py\n+++ b/m.py\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n"
        "@@ -20,4 +20,5 @@\n x\n-y\n+Y\n+Z\n w\n"
    )
    assert narrowed(diff) == (
        "--- a/m.py\n+++ b/m.py\n@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n@@ -20,3 +20,4 @@\n x\n-y\n+Y\n+Z\n w\n"
    )
