"""The HTML report in a real headless Chromium: the grid, the filters, the languages, the source view, screenshots."""

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag

from mutcheck.core import texts
from mutcheck.report.html import render_html
from mutcheck.report.html_source import source_files
from tests.mutcheck.browser import chromium, page_requests
from tests.mutcheck.paths import GOLDEN, REPOSITORY
from tests.mutcheck.results_docs import typed

RESULTS = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))
ARTIFACTS = REPOSITORY / "build" / "test-artifacts"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WINDOW = (1400, 2400)


def rendered(tmp_path: Path, fragment: str, results: dict = RESULTS) -> BeautifulSoup:
    """The page's DOM once its script has run, opened at `#fragment`."""
    page = tmp_path / "report.html"
    page.write_text(render_html(typed(results)), encoding="utf-8")
    return BeautifulSoup(chromium(tmp_path, f"{page.as_uri()}#{fragment}", "--dump-dom"), "html.parser")


def visible_rows(dom: BeautifulSoup) -> list[Tag]:
    return [row for row in dom.select("#matrix tr.mutant") if not row.has_attr("hidden")]


def columns(dom: BeautifulSoup) -> list[str]:
    return [header["title"] for header in dom.select("#matrix th.test")]


def cells(dom: BeautifulSoup, mutant_id: str) -> dict[str, Tag]:
    """A mutant's row: test id → its cell."""
    row = next(row for row in dom.select("#matrix tr.mutant") if row.select_one("td.id a").text == mutant_id)
    return dict(zip(columns(dom), row.select("td.cell"), strict=True))


def test_grid_has_a_cell_per_mutant_and_test(tmp_path):
    dom = rendered(tmp_path, "")
    assert len(dom.select("#matrix tr.mutant")) == len(RESULTS["mutants"]) == 9
    assert len(dom.select("#matrix td.cell")) == len(RESULTS["mutants"]) * len(RESULTS["tests"])
    assert dom.select_one("#shown").text == "9 / 9"


def test_verdict_filter_hides_the_other_rows(tmp_path):
    dom = rendered(tmp_path, "verdict=killed")
    visible = visible_rows(dom)
    assert {row["data-verdict"] for row in visible} == {"killed"}
    assert len(visible) == sum(m["verdict"] == "killed" for m in RESULTS["mutants"]) == 4
    assert dom.select_one("#shown").text == "4 / 9"


def test_family_filter_and_language_switch(tmp_path):
    dom = rendered(tmp_path, "family=boundary&verdict=survived&lang=zh")
    assert dom.body["data-lang"] == "zh"
    assert [row["data-family"] for row in visible_rows(dom)] == ["boundary"]
    assert dom.select_one("#shown").text == "1 / 9"


def test_a_filter_shows_only_the_tests_its_mutants_selected(tmp_path):
    tests = RESULTS["tests"]
    survivor = rendered(tmp_path, "verdict=survived")  # SURVIVOR selected the three clamp tests
    assert columns(survivor) == tests[:3]
    assert all(len(row.select("td.cell")) == 3 for row in visible_rows(survivor))
    # UNREACHED selected none: its column is the expected killer it never reaches
    unreached = rendered(tmp_path, "verdict=no-coverage")
    assert columns(unreached) == ["tests/test_tiny.py::test_clamp_low"]


def test_tests_are_grouped_by_file_under_readable_names(tmp_path):
    results = copy.deepcopy(RESULTS)
    long_name = "tests/test_other.py::TestThing::test_" + "long_" * 12 + "name[case-7]"
    results["tests"] += ["tests/test_other.py::TestThing::test_case[a-b]", long_name]
    swap = results["mutants"][0]
    swap["selected"] += [7, 8]
    swap["outcomes"].update({"7": "passed", "8": "passed"})
    dom = rendered(tmp_path, "", results)
    groups = [(group.text.strip("\u200e"), group["colspan"], group["title"]) for group in dom.select("th.group")]
    assert groups == [
        ("tests/test_tiny.py", "7", "tests/test_tiny.py"),
        ("tests/test_other.py", "2", "tests/test_other.py"),
    ]
    headers = dom.select("#matrix th.test")
    assert [header["title"] for header in headers] == results["tests"]
    assert all(header["tabindex"] == "0" for header in headers)  # keyboard focus shows the full id too
    assert [header.text for header in headers] == [str(number) for number in range(1, 10)]
    key = [item.text for item in dom.select("#test-key li")]  # each column's whole id, in order
    assert key == results["tests"] and len(set(key)) == len(key)


def test_expected_killers_are_marked_apart_from_other_killers(tmp_path):
    dom = rendered(tmp_path, "")
    swap = cells(dom, "SWAP")  # expects test_clamp_low and test_clamp_inside; test_clamp_high kills it too
    assert [test.rsplit("::", 1)[1] for test, cell in swap.items() if "expected" in cell["class"]] == [
        "test_clamp_low",
        "test_clamp_inside",
    ]
    assert "o-failed" in swap["tests/test_tiny.py::test_clamp_high"]["class"]
    assert "expected" not in swap["tests/test_tiny.py::test_clamp_high"]["class"]
    missed = {
        mutant: [test.rsplit("::", 1)[1] for test, cell in cells(dom, mutant).items() if "missed" in cell["class"]]
        for mutant in ("SURVIVOR", "BREAKS", "UNREACHED", "SWAP")
    }
    assert missed == {
        "SURVIVOR": ["test_clamp_high"],
        "BREAKS": ["test_tick"],
        "UNREACHED": ["test_clamp_low"],
        "SWAP": [],
    }
    assert "o-none" in cells(dom, "UNREACHED")["tests/test_tiny.py::test_clamp_low"]["class"]  # never selected
    assert dom.select(".legend .swatch.expected") and dom.select(".legend .swatch.missed")


def test_every_cell_says_its_outcome_and_witness(tmp_path):
    english = rendered(tmp_path, "")
    for mutant in RESULTS["mutants"]:
        row = cells(english, mutant["id"])
        assert list(row) == RESULTS["tests"], mutant["id"]
        for index, test in enumerate(RESULTS["tests"]):
            outcome = mutant["outcomes"].get(str(index))
            said = texts.say("en", "outcome", outcome) if outcome else texts.say("en", "text", "not_selected")
            title = row[test]["title"]
            assert title.startswith(f"{mutant['id']} × {test} → {said}"), title
            if witness := mutant["witnesses"].get(str(index)):
                assert title.endswith(f"\n{witness}"), title
            else:
                assert "\n" not in title, title
    swap = cells(english, "SWAP")
    assert swap["tests/test_tiny.py::test_clamp_low"]["title"] == (
        "SWAP × tests/test_tiny.py::test_clamp_low → failed · expected killer\nAssertionError: assert -1 == 0"
    )
    assert swap["tests/test_tiny.py::test_tick"]["title"] == "SWAP × tests/test_tiny.py::test_tick → not selected"
    assert cells(english, "SURVIVOR")["tests/test_tiny.py::test_clamp_high"]["title"] == (
        "SURVIVOR × tests/test_tiny.py::test_clamp_high → passed · expected killer that did not fail"
    )
    chinese = rendered(tmp_path, "lang=zh")
    assert cells(chinese, "SWAP")["tests/test_tiny.py::test_clamp_low"]["title"] == (
        "SWAP × tests/test_tiny.py::test_clamp_low → 失败 · 预期击杀测试\nAssertionError: assert -1 == 0"
    )


def test_diffs_are_coloured_by_line(tmp_path):
    dom = rendered(tmp_path, "")
    diff = dom.select_one("section.mutant-detail pre.diff")  # SWAP's
    kinds = [(span["class"][0], span.text) for span in diff.select("span")]
    assert "".join(text for _, text in kinds) == RESULTS["mutants"][0]["diff"]
    assert kinds[:3] == [
        ("d-file", "--- a/src/tiny.py\n"),
        ("d-file", "+++ b/src/tiny.py\n"),
        ("d-hunk", "@@ -2,7 +2,7 @@\n"),
    ]
    assert ("d-removed", "-    if value < low:\n") in kinds and ("d-added", "+    if value > low:\n") in kinds


def _marked_lines(dom: BeautifulSoup, number: int) -> list[tuple[int, str]]:
    """Where the source view marks mutant `number`: each line with its mark, a chip or a bar."""
    return [
        (int(row["id"].rsplit("-", 1)[1]), "bar" if "bar" in mark["class"] else "chip")
        for row in dom.select("table.source tr")
        for mark in row.select(f'a.mark[href="#m-{number}"]')
    ]


def test_the_source_view_marks_each_mutant_on_its_lines(tmp_path):
    dom = rendered(tmp_path, "verdict=killed")
    source = RESULTS["sources"]["src/tiny.py"].splitlines()
    rows = dom.select("table.source tr")
    assert [row.select_one("td.code").text for row in rows] == source
    assert [row["id"] for row in rows] == [f"s-1-{number}" for number in range(1, len(source) + 1)]
    for number, mutant in enumerate(RESULTS["mutants"], 1):
        span = mutant["span"]
        lines = range(span["start_line"], span["end_line"] + 1)
        expected = [(line, "chip" if line == span["start_line"] else "bar") for line in lines]
        assert _marked_lines(dom, number) == expected, mutant["id"]
        chip = dom.select_one(f'#s-1-{span["start_line"]} a.mark:not(.bar)[href="#m-{number}"]')
        assert chip.code.text == mutant["id"]  # its name, shown on hover and focus
        back = dom.select_one(f"section#m-{number} a[href^='#s-']")  # and the details link back to the line
        assert back["href"] == f"#s-1-{span['start_line']}" and back.text == f"src/tiny.py:{span['start_line']}"
        hidden = all(mark.has_attr("hidden") for mark in dom.select(f'a.mark[href="#m-{number}"]'))
        assert hidden == (mutant["verdict"] != "killed"), mutant["id"]  # the filter hides the others' marks


def test_a_span_ending_where_a_line_starts_does_not_mark_that_line():
    """A reverted hunk's span holds its lines with their line breaks: it ends at the next line's start."""
    results = copy.deepcopy(RESULTS)
    results["mutants"][0]["span"] = {"start_line": 5, "start_column": 0, "end_line": 7, "end_column": 0}
    dom = BeautifulSoup(render_html(typed(results)), "html.parser")
    assert _marked_lines(dom, 1) == [(5, "chip"), (6, "bar")]


# Ids as `mutcheck suggest` writes them, 40 characters and more, six of them starting on one line.
SUGGESTED = [f"S-ClampSettings.clamp_between_bounds-force-condition-{n}f3a2c1" for n in range(6)]
CROWDED_LINE = 9  # "    return value", where no golden mutant starts
WHOLE_FILE_MUTANT = len(RESULTS["mutants"]) + len(SUGGESTED) + 1  # its number among the catalogued


def crowded_results() -> dict:
    """The golden results, six suggested mutants starting on one line (killed ones and unexpected
    survivors in turn), and the whole change reverted, its span the whole file as `--revert` has it."""
    results = copy.deepcopy(RESULTS)
    swap, survivor = (next(m for m in results["mutants"] if m["id"] == name) for name in ("SWAP", "SURVIVOR"))
    for number, mutant_id in enumerate(SUGGESTED):
        suggested = copy.deepcopy(survivor if number % 2 else swap)
        suggested.update(
            id=mutant_id,
            span={"start_line": CROWDED_LINE, "start_column": 4, "end_line": CROWDED_LINE, "end_column": 16},
        )
        results["mutants"].append(suggested)
    whole_file = {
        "start_line": 1,
        "start_column": 0,
        "end_line": results["sources"]["src/tiny.py"].count("\n") + 1,
        "end_column": 0,
    }
    results["mutants"].append({**copy.deepcopy(swap), "id": "revert:all", "revert": True, "span": whole_file})
    return results


def test_a_whole_file_mutant_is_marked_beside_the_files_name_and_on_no_line():
    dom = BeautifulSoup(render_html(typed(crowded_results())), "html.parser")
    header = dom.select_one("details#s-1 > summary")
    assert [(mark["href"], mark.code.text) for mark in header.select("a.mark")] == [
        (f"#m-{WHOLE_FILE_MUTANT}", "revert:all")
    ]
    assert _marked_lines(dom, WHOLE_FILE_MUTANT) == []
    assert dom.select_one(f"section#m-{WHOLE_FILE_MUTANT} a[href^='#s-']")["href"] == "#s-1"  # its details link back


def probed(tmp_path: Path, results: dict, fragment: str, probe: str) -> dict[str, Any]:
    """What the JavaScript expression `probe` (an object) finds on the page once its script has run,
    laid out in a WINDOW-sized window (Chromium computes accessible names with ComputedAccessibilityInfo),
    and whether the window had the focus all along ("focused")."""
    page = tmp_path / "report.html"
    watched = (
        "(function () { var before = document.hasFocus(); "
        f"var seen = {probe}; seen.focused = before && document.hasFocus(); return seen; }})()"
    )
    script = f"<script>document.body.dataset.probe = JSON.stringify({watched});</script>"
    page.write_text(render_html(typed(results)).replace("</body>", script + "</body>"), encoding="utf-8")
    window = f"--window-size={WINDOW[0]},{WINDOW[1]}"
    names = "--enable-blink-features=ComputedAccessibilityInfo"
    dom = chromium(tmp_path, f"{page.as_uri()}#{fragment}", window, names, "--dump-dom")
    return json.loads(BeautifulSoup(dom, "html.parser").body["data-probe"])


BOX = "function box(node) { var rect = node.getBoundingClientRect(); return [rect.left, rect.right]; }"

# The crowded line's code text, and the lines whose code is highlighted.
LAYOUT = f"""(function () {{
  {BOX}
  var code = document.createRange();
  code.selectNodeContents(document.querySelector("#s-1-{CROWDED_LINE} td.code"));
  var highlighted = Array.from(document.querySelectorAll("table.source tr")).filter(function (line) {{
    return getComputedStyle(line.querySelector("td.code")).backgroundColor !== "rgba(0, 0, 0, 0)";
  }}).map(function (line) {{ return Number(line.id.split("-")[2]); }});
  return {{viewport: window.innerWidth, code: box(code), highlighted: highlighted}};
}})()"""


def test_many_long_ids_on_one_line_leave_its_code_in_view_and_no_line_marked_for_the_whole_file(tmp_path):
    results = crowded_results()
    assert all(len(mutant_id) >= 40 for mutant_id in SUGGESTED)
    seen = probed(tmp_path, results, "", LAYOUT)
    assert seen["viewport"] == WINDOW[0]
    left, right = seen["code"]
    assert 0 < left < 300 and right < WINDOW[0], seen["code"]  # the crowded line's code is on screen
    spans = [m["span"] for m in results["mutants"] if m["id"] != "revert:all"]
    reached = {line for span in spans for line in range(span["start_line"], span["end_line"] + 1)}
    assert seen["highlighted"] == sorted(reached)  # the whole file's mutant highlights no line


# What keyboard focus shows: the crowded line's count chip and its list, then FALLBACK's chip.
FOCUS = f"""(function () {{
  {BOX}
  var count = document.querySelector("#s-1-{CROWDED_LINE} .counted button");
  var list = count.parentNode.querySelector(".list");
  var marks = Array.from(list.querySelectorAll("a.mark"));
  var listBeforeFocus = getComputedStyle(list).display;
  count.focus();
  var listOnFocus = getComputedStyle(list).display;
  var names = marks.map(function (mark) {{ return mark.computedName; }});
  var boxes = marks.map(box);
  marks[marks.length - 1].focus();
  var listOnItsLastMark = getComputedStyle(list).display;
  var chip = document.querySelector("#s-1-13 a.mark:not(.bar)");
  var labelBeforeFocus = box(chip.querySelector(".label"));
  chip.focus();
  return {{
    count: count.computedName, names: names, boxes: boxes,
    list: [listBeforeFocus, listOnFocus, listOnItsLastMark],
    chip: [chip.computedName, labelBeforeFocus, box(chip.querySelector(".label"))]
  }};
}})()"""
# The count's words, the verdicts and an unmet expectation, as each language says them.
WORDS = {
    "en": ("mutants start on this line", "killed", "survived", "not as catalogued"),
    "zh": ("个变异体从这一行开始", "已击杀", "存活", "与目录不符"),
}
FOCUS_ATTEMPTS = 5


def probed_with_focus(tmp_path: Path, results: dict, fragment: str, probe: str) -> dict[str, Any]:
    """`probed` in a window that had the focus: headless Chromium opens some of its windows without
    it (about one run in seven), and there no element matches :focus, whatever the page does."""
    for _ in range(FOCUS_ATTEMPTS):
        if (seen := probed(tmp_path, results, fragment, probe))["focused"]:
            return seen
    pytest.fail(f"headless Chromium gave none of {FOCUS_ATTEMPTS} windows the focus")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_keyboard_focus_reaches_and_shows_each_id_of_a_crowded_line(tmp_path, lang):
    results = crowded_results()
    seen = probed_with_focus(tmp_path, results, f"lang={lang}", FOCUS)
    starts, killed, survived, unmet = WORDS[lang]
    assert seen["count"] == f"6 {starts}"
    assert seen["list"] == ["none", "block", "block"]  # focus shows the list, which stays while focus is in it
    crowded = [m for m in results["mutants"] if m["span"]["start_line"] == CROWDED_LINE]
    assert seen["names"] == [
        f"{m['id']} · {killed}" if m["expectation_met"] else f"{m['id']} · {survived} · {unmet}" for m in crowded
    ]
    assert all(0 < left < right < WINDOW[0] for left, right in seen["boxes"]), seen["boxes"]
    name, hidden, focused = seen["chip"]
    assert name == f"FALLBACK · {killed}"
    assert hidden[1] - hidden[0] <= 1 and focused[1] - focused[0] > 50  # its label shows on focus


def test_a_count_chip_counts_the_mutants_the_filters_show(tmp_path):
    results = crowded_results()
    assert rendered(tmp_path, "", results).select_one(f"#s-1-{CROWDED_LINE} .counted .tally").text == "6"
    survivors = rendered(tmp_path, "verdict=survived", results).select_one(f"#s-1-{CROWDED_LINE} .counted")
    assert survivors.select_one(".tally").text == "3" and not survivors.has_attr("hidden")
    assert rendered(tmp_path, "verdict=timeout", results).select_one(f"#s-1-{CROWDED_LINE} .counted").has_attr("hidden")


def _visible_texts(dom: BeautifulSoup, hidden_language: str) -> set[str]:
    """Each text of the page a reader sees: not the hidden language's, not the page's data or code."""
    return {
        text.strip()
        for text in dom.body.find_all(string=True)
        if text.strip()
        and not any(hidden_language in parent.get("class", []) for parent in text.parents)
        and not text.find_parent(["script", "code", "pre"])
    }


def test_the_chinese_page_has_no_english_label(tmp_path):
    dom = rendered(tmp_path, "lang=zh")
    verdicts = [option.text for option in dom.select("#verdict option")]
    assert verdicts == ["全部", "已击杀", "存活", "超时", "无覆盖", "损坏", "等价"]
    assert [option.text for option in dom.select("#family option")] == ["全部", "边界条件"]
    assert [option["value"] for option in dom.select("#verdict option")][1:3] == ["killed", "survived"]
    assert dom.select_one("#matrix th.id").text == "变异体"
    assert {row.select_one("td.id span").text for row in visible_rows(dom)} == {
        texts.say("zh", "verdict", m["verdict"]) for m in RESULTS["mutants"]
    }
    shown = _visible_texts(dom, "en")
    assert "变异体详情" in shown and "变异体数" in shown  # the section heading is not the count column's header
    english = {text["en"] for group in ("text", "verdict", "outcome") for text in texts.strings()[group].values()}
    assert shown & english == {texts.say("zh", "text", "language")}  # the switch names English in English
    assert "Mutants" in _visible_texts(rendered(tmp_path, "lang=en"), "zh")


def test_the_green_run_shows_each_selected_test_once(tmp_path, repository_results):
    dom = rendered(tmp_path, "", repository_results)
    tests = repository_results["tests"]
    selected = {tests[index] for mutant in repository_results["mutants"] for index in mutant["selected"]}
    assert sorted(columns(dom)) == sorted(selected)
    assert len(visible_rows(dom)) == len(repository_results["mutants"])
    assert not dom.select("#matrix td.missed")


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and data[12:16] == b"IHDR", path
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("run", ["failing", "green"])
def test_page_makes_no_network_request_and_screenshot(tmp_path, request, run, lang):
    results = RESULTS if run == "failing" else request.getfixturevalue("repository_results")
    page = render_html(typed(results))
    assert "default-src 'none'" in page
    (tmp_path / "report.html").write_text(page, encoding="utf-8")
    assert page_requests(tmp_path / "loading", tmp_path / "report.html") == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    screenshot = ARTIFACTS / f"report-{run}-{lang}.png"
    screenshot.unlink(missing_ok=True)
    url = f"{(tmp_path / 'report.html').as_uri()}#lang={lang}"
    chromium(tmp_path, url, f"--screenshot={screenshot}", f"--window-size={WINDOW[0]},{WINDOW[1]}")
    assert _png_size(screenshot) == WINDOW
    assert screenshot.stat().st_size > 100_000  # a page's worth of text and grid, not a blank


def test_the_source_view_numbers_lines_as_spans_do():
    """A form feed or U+2028 inside a line does not start a new one (str.splitlines would say it does)."""
    results = copy.deepcopy(RESULTS)
    results["sources"]["src/tiny.py"] = "\f# page one\u2028still line one\n" + results["sources"]["src/tiny.py"]
    for mutant in results["mutants"]:
        for end in ("start_line", "end_line"):
            mutant["span"][end] += 1
    (tiny,), _ = source_files(typed(results))
    assert len(tiny.lines) == len(RESULTS["sources"]["src/tiny.py"].splitlines()) + 1
    swap = next(m for m in results["mutants"] if m["id"] == "SWAP")
    marked = next(line for line in tiny.lines if any(mark.id == "SWAP" for mark in line.starts))
    assert marked.number == swap["span"]["start_line"] and "value < low" in marked.text


def test_a_focused_test_header_shows_its_full_id(tmp_path):
    """Keyboard readers: tabbing onto a column header shows the whole test id, as hovering does."""
    page = tmp_path / "report.html"
    focus = "<script>document.querySelectorAll('#matrix th.test')[2].focus();</script>"
    page.write_text(render_html(typed(RESULTS)).replace("</body>", focus + "</body>"), encoding="utf-8")
    dom = BeautifulSoup(chromium(tmp_path, page.as_uri(), "--dump-dom"), "html.parser")
    header = dom.select("#matrix th.test")[2]
    assert header["tabindex"] == "0" and header["title"].startswith("tests/test_tiny.py::")
    assert dom.select_one("#test-info").text == header["title"]


@pytest.mark.parametrize("fragment", ["m-3", "s-1-5"])
def test_a_link_to_a_mutant_or_a_source_line_survives_the_page_load(tmp_path, fragment):
    page = tmp_path / "report.html"
    record = "<script>document.body.dataset.hash = location.hash;</script>"
    page.write_text(render_html(typed(RESULTS)).replace("</body>", record + "</body>"), encoding="utf-8")
    dom = BeautifulSoup(chromium(tmp_path, f"{page.as_uri()}#{fragment}", "--dump-dom"), "html.parser")
    assert dom.body["data-hash"] == f"#{fragment}"
    assert dom.select_one(f"#{fragment}") is not None  # the anchor it names exists


def test_the_network_check_sees_a_page_that_asks_for_something(tmp_path):
    """The check above can fail: a page with one remote image is seen asking for it."""
    page = tmp_path / "remote.html"
    page.write_text('<html><body><img src="http://127.0.0.1:9/x.png"></body></html>', encoding="utf-8")
    assert page_requests(tmp_path, page) == ["http://127.0.0.1:9/x.png"]
