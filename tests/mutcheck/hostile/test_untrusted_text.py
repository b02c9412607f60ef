"""Text from the run reaches GitHub inert: no link, mention, reference or hidden text, and it always fits."""

import copy
import json
import unicodedata
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.publish import github
from mutcheck.publish.publish import publish
from mutcheck.report.markdown import COMMENT_LIMIT, render_markdown
from tests.mutcheck.fake_github import NAME, NUMBER, OWNER, FakeGitHub
from tests.mutcheck.hostile.markdown_checks import assert_inert, fences
from tests.mutcheck.results_docs import typed

RESULTS = json.loads((Path(__file__).parents[1] / "golden" / "results.json").read_text(encoding="utf-8"))
LANGUAGES = ("en", "zh")
HOSTILE = [
    "https://evil.test/x",
    "HTTP://EVIL.TEST",
    "www.evil.test",
    "_www.evil.test",
    "mail me@evil.test",
    "fixes #123",
    "octo/widgets#45",
    "GH-77 and gh-78",
    "@octocat",
    "octocat@0123456",
    "deadbeefcafe0123456789abcdef0123456789ab",
    "abc1234",
    "$\\huge{big}$",
    "safe\u202eevil\u2066x\u2069\u200b\u200c\u200d\u2060\ufeff\u200e\u00ad\x1b[31m",
]
TEXT = " ".join(HOSTILE)


def hostile_results() -> dict[str, Any]:
    """Every untrusted field carries every hostile text; references between fields stay intact."""
    results = copy.deepcopy(RESULTS)
    renamed = {test: f"tests/x.py::test_{i}[{TEXT}]" for i, test in enumerate(results["tests"])}
    results["tests"] = [renamed[test] for test in results["tests"]]
    results["sources"] = {f"src/{TEXT}.py": text for text in results["sources"].values()}
    results["families"] = {f"{family} {TEXT}": text for family, text in results["families"].items()}
    for failure in results["baseline"]["failures"]:
        failure["test"] = renamed[failure["test"]]
    for mutant in results["mutants"]:
        mutant["id"] = f"{mutant['id']} {TEXT}"
        mutant["file"] = f"src/{TEXT}.py"
        mutant["family"] = f"{mutant['family']} {TEXT}"
        mutant["title"] = {lang: TEXT for lang in mutant["title"]}
        mutant["why"] = {lang: TEXT for lang in mutant["why"]}
        mutant["diff"] += f"+ {TEXT}\n+ ```` </details> <!-- @someone -->\n"
        mutant["killers"] = [renamed[test] for test in mutant["killers"]]
        mutant["killed_by"] = [renamed[test] for test in mutant["killed_by"]]
        mutant["witnesses"] = {index: TEXT for index in mutant["outcomes"]}
        for problem in mutant["problems"]:
            problem["test"] = renamed.get(problem["test"], problem["test"])
    return results


def test_nothing_from_the_run_links_mentions_references_or_hides():
    results = hostile_results()
    body = render_markdown(typed(results))
    assert_inert(body, results, LANGUAGES)
    assert "safe\\<U+202E\\>evil\\<U+2066\\>x\\<U+2069\\>\\<U+200B\\>" in body  # spelled out
    assert "fixes #\u200b123" in body and "GH-\u200b77" in body and "@\u200boctocat" in body
    assert "https:\u200b//evil.test" in body and "www\u200b.evil.test" in body
    assert "\\$\\\\huge{big}\\$" in body


def test_the_run_s_own_head_sha_links_in_the_footer():
    body = render_markdown(typed(hostile_results()))
    assert body.rstrip().endswith(f"run at {RESULTS['run']['head_sha']}</sub>")


def test_code_blocks_show_invisible_characters_and_cannot_be_left():
    results = hostile_results()
    blocks = fences(render_markdown(typed(results)))
    assert blocks and all("+ ```` </details> <!-- @someone -->" in block for block in blocks)
    assert all("safe<U+202E>evil<U+2066>x<U+2069><U+200B><U+200C><U+200D><U+2060><U+FEFF>" in b for b in blocks)
    assert all("<U+001B>[31m" in block for block in blocks)


def huge_test_id_results() -> dict[str, Any]:
    results = copy.deepcopy(RESULTS)
    long_id = "tests/x.py::test_" + "x" * 100_000
    old = results["tests"][1]
    results["tests"][1] = long_id
    for mutant in results["mutants"]:
        mutant["killers"] = [long_id if test == old else test for test in mutant["killers"]]
        mutant["killed_by"] = [long_id if test == old else test for test in mutant["killed_by"]]
        for problem in mutant["problems"]:
            problem["test"] = long_id if problem["test"] == old else problem["test"]
    return results


def post(fake: FakeGitHub, results: dict[str, Any]) -> str:
    client = github.connect("token", fake.base, retries=1, backoff=0.01, throttle=False)
    return publish(typed(results), f"{OWNER}/{NAME}", NUMBER, "token", fake.base, None, None, False, client=client)


def test_a_100000_character_test_id_is_capped_and_the_comment_is_posted(fake):
    results = huge_test_id_results()
    assert post(fake, results) == "comment created"
    body = fake.comments[0]["body"]
    assert len(body) <= COMMENT_LIMIT and "x" * 400 not in body and "x" * 250 + "…" in body
    assert_inert(body, results, LANGUAGES)


def test_when_no_row_can_make_it_fit_each_language_keeps_its_verdict_and_it_is_posted(fake):
    results = copy.deepcopy(RESULTS)
    template = results["mutants"][0]
    results["families"] = {f"family {n}": {"en": "F" * 400, "zh": "族" * 400} for n in range(400)}
    results["mutants"] = [dict(copy.deepcopy(template), id=f"M{n}", family=f"family {n}") for n in range(400)]
    assert post(fake, results) == "comment created"
    body = fake.comments[0]["body"]
    assert len(body) <= COMMENT_LIMIT
    english, chinese = body.split("<summary>中文说明</summary>")
    assert "**All 400 guard mutants behave as catalogued.**" in english and "The full report is too long" in english
    assert "**全部 400 个守护变异体的表现与目录一致。**" in chinese and "完整报告太长" in chinese
    assert_inert(body, results, LANGUAGES)


def test_report_as_text_spells_out_every_control_sequence_of_a_results_file(tmp_path):
    """Clear screen, a colour, the window's title and a bell: in a text report they are visible
    escapes, so a results file from anywhere cannot drive the reader's terminal."""
    controls = "\x1b[2J\x1b[31m\x1b]0;pwned\x07\x9b1m\r"
    results = hostile_results()
    for mutant in results["mutants"]:
        mutant["title"] = {lang: f"title {controls}" for lang in mutant["title"]}
        mutant["diff"] += f"+ {controls}\n"
        mutant["witnesses"] = {index: f"witness {controls}" for index in mutant["outcomes"]}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results), encoding="utf-8")
    result = CliRunner().invoke(main, ["report", str(path), "--format", "text", "--project", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert not [c for c in result.output if unicodedata.category(c) == "Cc" and c not in "\n\t"]
    assert "<U+001B>[2J<U+001B>[31m<U+001B>]0;pwned<U+0007><U+009B>1m<U+000D>" in result.output
