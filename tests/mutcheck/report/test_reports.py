"""Reports: the bilingual review comment (golden file, escaping, size cap), Stryker JSON, the CLI."""

import copy
import json
import os
import re
from dataclasses import asdict
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core import texts
from mutcheck.core.escape import MARKER
from mutcheck.core.verdicts import Unmet
from mutcheck.report.html import diff_lines, render_html
from mutcheck.report.markdown import COMMENT_LIMIT, render_markdown
from mutcheck.report.render import render
from mutcheck.report.stryker import render_stryker
from mutcheck.results.results import load_results
from tests.mutcheck.hostile.markdown_checks import split_languages
from tests.mutcheck.npm_packages import stryker_schema
from tests.mutcheck.paths import TESTS
from tests.mutcheck.results_docs import document, summary_of, typed

HERE = TESTS
GOLDEN = HERE / "golden"
RESULTS = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))


def outside_fences(body: str) -> str:
    """The comment with fenced code blocks removed (their content is shown literally)."""
    kept, fence = [], None
    for line in body.splitlines():
        if fence is None and (match := re.match(r"^(`{3,})", line)):
            fence = match.group(1)
        elif fence is not None and line.startswith(fence) and line.strip() == fence:
            fence = None
        elif fence is None:
            kept.append(line)
    return "\n".join(kept)


def test_golden_comment():
    body = render_markdown(typed(RESULTS))
    golden = GOLDEN / "comment.md"
    if os.environ.get("MUTCHECK_UPDATE_GOLDEN"):  # never compared with itself: review the diff, then run again
        golden.write_text(body, encoding="utf-8")
        pytest.skip(f"{golden} regenerated")
    assert body == golden.read_text(encoding="utf-8")


def test_comment_layout():
    body = render_markdown(typed(RESULTS))
    assert body.startswith(MARKER + "\n")
    english, chinese = split_languages(body)
    assert "3 of 9 guard mutants do not behave as catalogued" in english
    assert english.index("#### Findings (3)") < english.index("#### By family") < english.index("#### Kill matrix")
    assert "#### Kill matrix" not in chinese and "#### 发现的问题 (3)" in chinese  # the matrix is said once
    assert "9 个守护变异体中有 3 个与目录不符" in chinese
    assert chinese.rstrip().endswith("run at 0123456789abcdef0123456789abcdef01234567</sub>")
    # the footer's SHA is the one commit reference we mean to link; everywhere else a SHA is broken
    assert "Head commit: 012345\u200b6789ab\u200bcdef01\u200b234567\u200b89abcd\u200bef0123\u200b4567" in english


def test_every_string_has_both_languages():
    assert texts.known_languages() == ("en", "zh")
    for group, entries in texts.strings().items():
        for key, text in entries.items():
            assert set(text) == {"en", "zh"}, f"{group}.{key}"
            assert text["en"].strip() and text["zh"].strip(), f"{group}.{key}"
            assert text["en"] != text["zh"], f"{group}.{key} is not translated"


def test_every_verdict_renders_in_both_languages():
    english, chinese = split_languages(render_markdown(typed(RESULTS)))
    html = render_html(typed(RESULTS))
    verdicts = {mutant["verdict"] for mutant in RESULTS["mutants"]}
    assert verdicts == {"killed", "survived", "timeout", "no-coverage", "broken", "equivalent"}
    for verdict in verdicts:
        assert texts.say("en", "verdict", verdict) in english
        assert texts.say("zh", "verdict", verdict) in chinese
    shown = [m for m in RESULTS["mutants"] if not m["expectation_met"] or m["equivalent"]]
    assert {m["id"] for m in shown} == {"UNREACHED", "BREAKS", "EQUAL", "SURVIVOR"}
    for mutant in shown:
        assert mutant["title"]["en"] in english and mutant["title"]["en"] not in chinese, mutant["id"]
        assert mutant["title"]["zh"] in chinese and mutant["title"]["zh"] not in english, mutant["id"]
    for mutant in RESULTS["mutants"]:
        for field in ("title", "why"):
            assert mutant[field]["en"] in html and mutant[field]["zh"] in html, mutant["id"]


def test_a_missing_translation_fails_the_render(monkeypatch):
    broken = copy.deepcopy(texts.strings())
    del broken["verdict"]["survived"]["zh"]
    monkeypatch.setattr(texts, "strings", lambda: broken)
    with pytest.raises(KeyError, match="'zh'"):
        render_markdown(typed(RESULTS))


HOSTILE = [
    "@someone please look",
    "<!-- mutcheck -->",
    "--> end of comment",
    "</details></details>",
    "<script>alert(1)</script>",
    "```` fence ` break",
    "a | b | c",
    "[link](javascript:alert(1))",
    "**bold** _under_ ~~strike~~",
]


def hostile_results() -> dict:
    results = copy.deepcopy(RESULTS)
    results["tests"] = [f"tests/x.py::test_{i}[{text}]" for i, text in enumerate(HOSTILE)] + results["tests"][
        len(HOSTILE) :
    ]
    for mutant in results["mutants"]:
        mutant["title"] = {"en": " ".join(HOSTILE), "zh": "标题 " + " ".join(HOSTILE)}
        mutant["why"] = {"en": HOSTILE[3], "zh": HOSTILE[4]}
        mutant["witnesses"] = {index: HOSTILE[int(index) % len(HOSTILE)] for index in mutant["outcomes"]}
        mutant["diff"] += "\n+ ```` </details> <!-- @someone -->\n"
        mutant["killers"] = [results["tests"][0], results["tests"][4]]
        mutant["killed_by"] = [results["tests"][1]]
    results["mutants"][0]["expectation_met"] = False
    results["mutants"][0]["problems"] = [{"kind": "killer-passed", "test": results["tests"][2], "detail": "passed"}]
    return results


def live(text: str, markup: str) -> int:
    """How often `markup` appears without the backslash that makes Markdown show it as text."""
    return len(re.findall(r"(?<!\\)" + re.escape(markup), text))


def test_untrusted_text_cannot_break_out_of_the_comment():
    body = render_markdown(typed(hostile_results()))
    assert body.startswith(MARKER + "\n")
    text = outside_fences(body)
    assert text.count(MARKER) == 1  # only ours, at the top
    assert live(text, "<!--") == 1 and live(text.replace(MARKER, ""), "-->") == 0
    assert live(text, "<script") == 0 and "\\<script\\>" in text  # a Markdown escape, not an entity
    assert "&lt;" not in text and "&#" not in text
    # ours: the Chinese text, and in each language the findings' details, the matrix and the equivalents
    assert text.count("<details>") == text.count("</details>") == 7
    assert "@someone" not in text and "@\u200bsomeone" in text
    assert "[link](" not in text and "\\[link\\]" in text
    assert "**bold**" not in text
    for table in re.findall(r"(?:^\|.*\n?)+", text, flags=re.M):
        pipes = {len(re.findall(r"(?<!\\)\|", line)) for line in table.splitlines()}
        assert len(pipes) == 1, table  # every row has the header's cells: no pipe split a cell


def test_fences_outlast_any_backticks_inside():
    body = render_markdown(typed(hostile_results()))
    blocks = re.findall(r"^(`{3,})diff\n(.*?)\n\1$", body, flags=re.S | re.M)
    assert blocks
    for block in blocks:
        fence, content = block
        assert not re.search(f"`{{{len(fence)},}}", content)


def test_untrusted_text_is_escaped_in_html():
    results = hostile_results()
    html = render_html(typed(results))
    assert html.count("<script>") == 1  # ours
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<!-- mutcheck -->" not in html
    # the grid's data cannot end its script block, and reads back as it was
    data = re.search(r'<script type="application/json" id="grid-data">(.*?)</script>', html, flags=re.S)
    assert html.count("</script>") == 2 and "<" not in data[1]
    assert json.loads(data[1])["tests"] == results["tests"]
    assert [mutant["witnesses"] for mutant in json.loads(data[1])["mutants"]] == [
        {str(index): witness for index, witness in mutant["witnesses"].items()} for mutant in results["mutants"]
    ]


def test_untrusted_source_is_escaped_in_the_html_source_view():
    results = hostile_results()
    hostile = "\n".join(HOSTILE) + "\n</pre></details><script>alert(2)</script>\n"
    results["sources"]["src/tiny.py"] += hostile
    html = render_html(typed(results))
    assert html.count("<script>") == 1 and html.count("</script>") == 2  # ours, and the grid's data
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html and "&lt;/pre&gt;&lt;/details&gt;" in html
    assert "<!-- mutcheck -->" not in html


def test_diff_lines_are_told_apart_by_their_place_in_the_diff():
    diff = "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n keep\n---x\n+++x\n"
    assert diff_lines(diff) == [
        ("file", "--- a/f.py\n"),
        ("file", "+++ b/f.py\n"),
        ("hunk", "@@ -1,2 +1,2 @@\n"),
        ("context", " keep\n"),
        ("removed", "---x\n"),  # inside a hunk, a removed line that starts with "--" is code, not a file name
        ("added", "+++x\n"),
    ]


def test_comment_is_capped_at_row_boundaries():
    results = copy.deepcopy(RESULTS)
    template = results["mutants"][0]
    results["mutants"] = []
    for number in range(5000):  # the matrix, said once, still does not fit
        mutant = copy.deepcopy(template)
        mutant["id"] = f"M{number:04}"
        mutant["title"] = {"en": f"mutant number {number} " + "x" * 60, "zh": f"第 {number} 个变异体 " + "字" * 60}
        results["mutants"].append(mutant)
    body = render_markdown(typed(results))
    assert len(body) <= COMMENT_LIMIT
    assert "more rows are not shown here" in body and "击杀矩阵见本评论的第一部分。" in body  # one matrix
    text = outside_fences(body)
    assert text.count("<details>") == text.count("</details>")
    table_lines = [line for line in text.splitlines() if line.startswith("|")]
    assert all(line.endswith("|") for line in table_lines)
    assert body.rstrip().endswith("</sub>")


def test_stryker_report_validates_against_the_official_schema():
    report = render_stryker(typed(RESULTS))
    jsonschema.Draft7Validator(stryker_schema()).validate(report)
    mutants = {m["id"]: m for file in report["files"].values() for m in file["mutants"]}
    assert {m["status"] for m in mutants.values()} == {
        "Killed",
        "Survived",
        "Timeout",
        "NoCoverage",
        "RuntimeError",
        "Ignored",
    }
    assert mutants["EQUAL"]["statusReason"].startswith("equivalent: returns low either way")
    assert mutants["SWAP"]["killedBy"] == [
        "tests/test_tiny.py::test_clamp_low",
        "tests/test_tiny.py::test_clamp_high",
        "tests/test_tiny.py::test_clamp_inside",
    ]
    assert mutants["SWAP"]["location"] == {"start": {"line": 5, "column": 8}, "end": {"line": 5, "column": 19}}
    assert "tests/test_tiny.py" in report["testFiles"]


@pytest.mark.parametrize(
    ("fmt", "expected"), [("text", "9 mutants:"), ("markdown", MARKER), ("html", "<!DOCTYPE html>")]
)
def test_report_command_writes_each_format(tmp_path, fmt, expected):
    output = tmp_path / f"out.{fmt}"
    result = CliRunner().invoke(main, ["report", str(GOLDEN / "results.json"), "--format", fmt, "-o", str(output)])
    assert result.exit_code == 0, result.output
    assert expected in output.read_text(encoding="utf-8").splitlines()[-1 if fmt == "text" else 0]


def test_report_command_single_language(tmp_path):
    result = CliRunner().invoke(main, ["report", str(GOLDEN / "results.json"), "--format", "markdown", "--lang", "zh"])
    assert "中文说明" not in result.output
    assert "守护变异报告" in result.output and "guard-mutation report" not in result.output


def test_report_command_rejects_a_file_that_is_not_results(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "mutcheck-results", "version": 1, "tests": "nope"}))
    result = CliRunner().invoke(main, ["report", str(path)])
    assert result.exit_code == 2
    assert "does not match the results schema" in result.output


def test_merge_carries_every_shards_baseline():
    from mutcheck.results.merge import merge_results

    first, second = copy.deepcopy(RESULTS), copy.deepcopy(RESULTS)
    first["mutants"], second["mutants"] = RESULTS["mutants"][:4], RESULTS["mutants"][4:]
    first["run"]["shard"], second["run"]["shard"] = "1/2", "2/2"
    failure_x = {"test": "t.py::test_x", "outcome": "failed", "witness": "boom"}
    first["baseline"].update(ok=False, failures=[failure_x], flaky=["t.py::test_f"])

    def shards():
        return [(Path("a.json"), typed(first)), (Path("b.json"), typed(second))]

    merged = merge_results(shards())  # the first shard's failed baseline, though the last one passed
    assert merged.baseline.ok is False
    assert ([asdict(f) for f in merged.baseline.failures], merged.baseline.flaky) == ([failure_x], ["t.py::test_f"])
    assert merged.summary.exit_code == 3
    assert "did not pass reliably" in render_markdown(merged)
    failure_y = {"test": "t.py::test_y", "outcome": "error", "witness": "bang"}
    second["baseline"].update(ok=False, failures=[failure_y], flaky=["t.py::test_e"])
    both = merge_results(shards()).baseline
    assert (both.ok, [asdict(f) for f in both.failures], both.flaky) == (
        False,
        [failure_x, failure_y],
        ["t.py::test_e", "t.py::test_f"],
    )


def test_long_baseline_failure_lists_are_cut():
    results = copy.deepcopy(RESULTS)
    results["baseline"].update(
        ok=False, failures=[{"test": f"t.py::test_{n}", "outcome": "failed", "witness": "x" * 200} for n in range(400)]
    )
    body = render_markdown(typed(results))
    assert len(body) <= COMMENT_LIMIT and "and 380 more" in body


def known_gap_results() -> dict:
    """The golden run with SURVIVOR (survived) and UNREACHED (no coverage) catalogued as known gaps."""
    results = copy.deepcopy(RESULTS)
    for mutant_id, tracked in (("SURVIVOR", "https://tracker.test/issues/12"), ("UNREACHED", "#7")):
        entry = next(mutant for mutant in results["mutants"] if mutant["id"] == mutant_id)
        entry.update(
            killed_by=[],
            survives={"en": f"{mutant_id} is untested on purpose", "zh": f"{mutant_id} 暂未测试"},
            tracked=tracked,
            hint={"en": f"a test that pins {mutant_id}", "zh": f"钉住 {mutant_id} 的测试"},
            problems=[],
            expectation_met=True,
        )
    results["summary"] = summary_of(results, baseline_ok=True)
    return results


def test_known_gaps_have_their_own_count_and_collapsed_section():
    results = known_gap_results()
    assert results["summary"]["known_gaps"] == 2
    english, chinese = split_languages(render_markdown(typed(results)))
    assert "**1 of 9 guard mutants do not behave as catalogued: 1 broken mutant. " in english
    assert "Known gaps (surviving as catalogued): 2.**" in english
    assert "#### Findings (1)" in english
    section = english.split("<summary>Known gaps (2)</summary>")[1].split("</details>")[0]
    assert "- **UNREACHED** · UNREACHED title · no coverage · src/tiny.py:" in section
    assert "  - Known gap: why it survives: SURVIVOR is untested on purpose\n" in section
    # From the pull request's own catalog, so shown, not linked: it must not reference an issue.
    assert "  - Tracked in: https:\u200b//tracker.test/issues/12\n" in section
    assert "  - Tracked in: #\u200b7\n" in section
    assert "  - Test to add: a test that pins SURVIVOR\n" in section
    assert "已知缺口（按目录预期存活）：2 个。**" in chinese
    section = chinese.split("<summary>已知缺口 (2)</summary>")[1].split("</details>")[0]
    assert (
        "  - 已知缺口：为何存活: SURVIVOR 暂未测试\n" in section
        and "  - 建议添加的测试: 钉住 UNREACHED 的测试" in section
    )


def test_a_tracked_address_is_shown_and_links_nothing():
    results = known_gap_results()
    survivor = next(mutant for mutant in results["mutants"] if mutant["id"] == "SURVIVOR")
    survivor["tracked"] = "https://x.test/a)](javascript:alert(1)) @someone <!-- x -->"
    body = render_markdown(typed(results))
    assert "](" not in body.split("Tracked in: ", 1)[1].splitlines()[0]
    assert "https://" not in body and "@someone" not in body and live(body, "<!--") == 1


def test_known_gaps_in_the_html_page_stryker_json_and_terminal():
    results = known_gap_results()
    html = render_html(typed(results))
    assert "<h2>Known gaps (2)</h2>" in html and "<h2>已知缺口 (2)</h2>" in html
    assert '<a href="https://tracker.test/issues/12">https://tracker.test/issues/12</a>' in html
    assert "<b>Known gap: why it survives:</b> SURVIVOR is untested on purpose" in html
    report = render_stryker(typed(results))
    mutants = {m["id"]: m for file in report["files"].values() for m in file["mutants"]}
    assert mutants["SURVIVOR"]["status"] == "Survived"
    assert mutants["SURVIVOR"]["statusReason"] == (
        "known gap: SURVIVOR is untested on purpose (tracked: https://tracker.test/issues/12)"
    )
    assert (mutants["UNREACHED"]["status"], mutants["UNREACHED"]["statusReason"]) == (
        "NoCoverage",
        "known gap: UNREACHED is untested on purpose (tracked: #7)",
    )
    text = render(typed(results), "text", ("en",))
    assert "known gap SURVIVOR [survived] SURVIVOR title: SURVIVOR is untested on purpose (tracked: https://" in text
    assert "known gap UNREACHED [no coverage] UNREACHED title: UNREACHED is untested on purpose (tracked: #7)" in text
    assert "9 mutants: 4 killed, 1 survived, 1 timeout, 1 no coverage, 1 broken, 1 equivalent; 2 known gaps; " in text
    jsonschema.Draft7Validator(stryker_schema()).validate(report)  # last: it skips where npm is missing


def test_a_killed_known_gap_is_worded_in_both_languages():
    problem = Unmet("gap-killed", "t.py::test_a", "failed")
    assert texts.describe(problem, "en") == "known gap now killed by t.py::test_a (failed): move it to killed_by"
    assert texts.describe(problem, "zh") == "已知缺口现已被 t.py::test_a 击杀（失败）：请把它移到 killed_by"


def in_languages(results: dict, languages: list[str]) -> dict:
    """The results as a run with `languages = languages` would have written them."""
    results = copy.deepcopy(results)
    results["run"]["languages"] = languages

    def keep(text):
        return {lang: text[lang] for lang in languages} if text else text

    for mutant in results["mutants"]:
        for field in ("title", "why", "hint", "equivalent", "survives"):
            mutant[field] = keep(mutant[field])
    results["families"] = {family: keep(title) for family, title in results["families"].items()}
    return results


def test_a_run_in_one_language_reports_in_that_language_alone(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(in_languages(RESULTS, ["en"])), encoding="utf-8")
    results = document(path)  # its texts, English alone, match the schema
    body = render_markdown(typed(results))
    assert "中文" not in body and "守护" not in body
    assert body.count("<details>") == 3 and "<summary>Equivalent mutants and their proofs (1)</summary>" in body
    html = render_html(typed(results))
    assert 'class="zh"' not in html and 'id="language"' not in html and "中文" not in html
    assert '<html lang="en">' in html and 'var languages = ["en"];' in html
    for lang in ("zh", "en+zh"):
        refused = CliRunner().invoke(main, ["report", str(path), "--format", "markdown", "--lang", lang])
        assert refused.exit_code == 2, lang
        assert f"error: --lang: {lang}: not a language of this run, or repeated (the run has en)" in refused.output
    accepted = CliRunner().invoke(main, ["report", str(path), "--format", "markdown", "--lang", "en"])
    assert accepted.exit_code == 0 and accepted.output == body


def test_the_first_language_leads_and_each_other_is_collapsed_under_its_name():
    body = render_markdown(typed(in_languages(RESULTS, ["zh", "en"])))
    chinese, english = body.split("<details>\n<summary>English</summary>")
    assert "守护变异报告" in chinese and "guard-mutation report" not in chinese
    assert "guard-mutation report" in english and "中文说明" not in body
    html = render_html(typed(in_languages(RESULTS, ["zh", "en"])))
    assert '<html lang="zh">' in html and '<body data-lang="zh">' in html


def test_a_results_file_written_before_the_later_fields_still_renders(tmp_path):
    older = copy.deepcopy(RESULTS)
    for key in ("languages", "strict_generic"):
        del older["run"][key]
    del older["summary"]["known_gaps"]
    for mutant in older["mutants"]:
        del mutant["survives"], mutant["tracked"]
    path = tmp_path / "older.json"
    path.write_text(json.dumps(older), encoding="utf-8")
    loaded = load_results(path)
    assert loaded == load_results(GOLDEN / "results.json")
    assert render_markdown(loaded) == (GOLDEN / "comment.md").read_text(encoding="utf-8")
