"""Every report rendered in Chinese has no English label left: once the run's own data (ids, test
ids, paths, code, witnesses) is taken out, the only Latin words are names no language translates."""

import copy
import json
import re
from typing import Any

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.texts import say
from mutcheck.report.render import render
from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.paths import GOLDEN
from tests.mutcheck.results_docs import document, summary_of, typed

RESULTS = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))
# Names, not words of a language: the tool, the language, tools and formats, catalog fields.
NAMES = {"mutcheck", "Python", "mutmut", "JSON", "HTML", "JSONL", "git", "killed_by", "survives"}
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z_]+|[A-Za-z]")


def _data(results: dict[str, Any]) -> list[str]:
    """Everything of the run's own that a report may quote, longest first so parts go last."""
    values: set[str] = {results["run"]["mutcheck_version"], results["run"]["python"]}
    head = results["run"]["head_sha"] or ""
    values |= {head, head[:12]}  # reports name a commit in full or by its first 12 digits
    for test in results["tests"]:
        values |= {test, test.rsplit("::", 1)[-1], test.split("::")[0]}
    for family, title in results["families"].items():
        values.add(family)
        values |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", title["zh"]))  # a family's Chinese title may name code
    values |= set(results["run"].get("targets", []))  # a target's name, like a family's id, is the catalog's word
    for mutant in results["mutants"]:
        values |= {mutant["id"], mutant["file"], mutant["origin"], mutant["scope"], *mutant["aliases"]}
        values |= set(mutant["diff"].splitlines()) | set(mutant["witnesses"].values())
        values |= {problem["detail"] or "" for problem in mutant["problems"] if problem["kind"] == "broken"}
        values |= {
            mutant["tracked"] or "",
            *mutant["killed_by"],
            *(problem["test"] or "" for problem in mutant["problems"]),
        }
        for field in ("title", "why", "hint", "equivalent", "survives"):
            if mutant[field]:  # the catalog's Chinese text may name code
                values |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_.()\[\]'\"=<>:-]*", mutant[field]["zh"]))
    values |= {failure["witness"] or "" for failure in results["baseline"]["failures"]}
    for source in results["sources"].values():
        values |= set(source.splitlines())
    return sorted((value for value in values if value.strip()), key=len, reverse=True)


def _plain(markdown: str) -> str:
    """The comment as read: escapes undone, link breaks and our own tags and fence names gone."""
    # Markdown escapes only punctuation: a "\\n" in quoted code stays as written
    markdown = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown.replace("\u200b", ""))
    return re.sub(r"</?(details|summary|sub|br)>|^`{3,}diff$", " ", markdown, flags=re.M)


def english_left(text: str, results: dict[str, Any]) -> set[str]:
    for value in _data(results):
        text = text.replace(value, " ")
        for line in value.splitlines() if "\n" in value else ():  # a diff shown narrowed: its lines are data
            text = text.replace(line, " ") if len(line) > 3 else text
    return {word for word in LATIN_WORD.findall(text) if word not in NAMES}


def _known_gaps(results: dict[str, Any]) -> dict[str, Any]:
    results = copy.deepcopy(results)
    for mutant in results["mutants"]:
        if mutant["verdict"] in ("survived", "no-coverage"):
            mutant.update(
                killed_by=[],
                problems=[],
                expectation_met=True,
                survives={"en": "not tested yet", "zh": "尚未测试"},
                tracked="#12",
                hint={"en": "a test of the bound", "zh": "测试边界的用例"},
            )
    results["summary"] = summary_of(results, baseline_ok=True)
    return results


def _baseline_failed(results: dict[str, Any]) -> dict[str, Any]:
    results = copy.deepcopy(results)
    results["baseline"].update(
        ok=False,
        failures=[{"test": results["tests"][0], "outcome": "failed", "witness": "AssertionError"}],
        flaky=[results["tests"][1]],
        order_dependent=[results["tests"][2]],
    )
    results["summary"] = summary_of(results, baseline_ok=False)
    return results


def _outside_git(results: dict[str, Any]) -> dict[str, Any]:
    results = copy.deepcopy(results)
    results["run"]["head_sha"] = None
    return results


RUNS = {
    "findings": lambda: RESULTS,
    "outside git": lambda: _outside_git(RESULTS),
    "known gaps": lambda: _known_gaps(RESULTS),
    "baseline failed": lambda: _baseline_failed(RESULTS),
}


def _read(text: str, fmt: str) -> str:
    """What a reader of the report reads: the comment unescaped, the page's text and tooltips (its
    script draws the grid from words the browser test checks), Stryker's texts."""
    if fmt == "markdown":
        return _plain(text)
    if fmt == "html":
        page = BeautifulSoup(text, "html.parser")
        for hidden in page.select("script, style, .en"):
            hidden.decompose()
        return "\n".join([page.get_text("\n"), *(node["title"] for node in page.select("[title]"))])
    if fmt == "stryker":
        mutants = [mutant for file in json.loads(text)["files"].values() for mutant in file["mutants"]]
        return "\n".join(
            value for mutant in mutants for value in (mutant["description"], mutant.get("statusReason", ""))
        )
    return text


FORMATS = ["text", "markdown", "html", "stryker"]


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_report_in_chinese_has_no_english_label(fmt, run):
    results = RUNS[run]()
    text = render(typed(results), fmt, ("zh",))
    assert english_left(_read(text, fmt), results) == set(), text


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_repository_run_in_chinese_has_no_english_label(fmt, repository_results):
    text = render(typed(repository_results), fmt, ("zh",))
    assert english_left(_read(text, fmt), repository_results) == set()


def test_the_check_finds_an_english_label():
    """The check itself: the same report in English is full of words it does not know."""
    assert {"Findings", "unexpected", "survivor"} <= english_left(render(typed(RESULTS), "markdown", ("en",)), RESULTS)


def test_a_run_whose_first_language_is_chinese_logs_in_chinese(tmp_path):
    """Progress lines, the family table, findings and the verdict line of `mutcheck run` itself."""
    project = make_engine_project(tmp_path / "project")
    with (project / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write('languages = ["zh", "en"]\n')
    path = tmp_path / "results.json"
    outcome = CliRunner().invoke(main, ["run", "--project", str(project), "--json", str(path)])
    assert outcome.exit_code == ExitCode.EXPECTATION_FAILED, outcome.output
    results = document(path)
    assert "已收集 7 个测试" in outcome.output and "正在运行 8 个变异体" in outcome.output
    assert english_left(outcome.output, results) == set(), outcome.output


def test_show_in_chinese_with_the_saved_verdict_has_no_english_label(tmp_path):
    project = make_engine_project(tmp_path / "project", git=True)
    path = tmp_path / "results.json"
    CliRunner().invoke(main, ["run", "--project", str(project), "--json", str(path)])
    results = document(path)
    for mutant in results["mutants"]:
        shown = CliRunner().invoke(main, ["show", mutant["id"], "--lang", "zh", "--project", str(project)])
        assert shown.exit_code == ExitCode.OK, shown.output
        assert say("zh", "verdict", mutant["verdict"]) in shown.output
        assert english_left(shown.output, results) == set(), shown.output
