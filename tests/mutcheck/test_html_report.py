"""The HTML report in a real headless Chromium: the grid, the filters, the language switch."""

import json
from html.parser import HTMLParser
from pathlib import Path

from mutcheck.report.html import render_html
from tests.mutcheck.browser import chromium

RESULTS = json.loads((Path(__file__).parent / "golden" / "results.json").read_text(encoding="utf-8"))
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts"


class _Dom(HTMLParser):
    """Rows and cells of the rendered grid, and what the page says it shows."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str | None]] = []
        self.cells = 0
        self.body_lang = None
        self.in_shown = False
        self.shown = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "body":
            self.body_lang = attributes.get("data-lang")
        if tag == "tr" and "mutant" in classes:
            self.rows.append(attributes)
        if tag == "td" and "cell" in classes:
            self.cells += 1
        self.in_shown = attributes.get("id") == "shown"

    def handle_endtag(self, tag: str) -> None:
        self.in_shown = False

    def handle_data(self, data: str) -> None:
        if self.in_shown:
            self.shown += data


def rendered(tmp_path: Path, fragment: str) -> _Dom:
    page = tmp_path / "report.html"
    page.write_text(render_html(RESULTS), encoding="utf-8")
    dom = _Dom()
    dom.feed(chromium(tmp_path, f"{page.as_uri()}#{fragment}", "--dump-dom"))
    return dom


def test_grid_has_a_cell_per_mutant_and_test(tmp_path):
    dom = rendered(tmp_path, "")
    assert len(dom.rows) == len(RESULTS["mutants"]) == 9
    assert dom.cells == len(RESULTS["mutants"]) * len(RESULTS["tests"])
    assert dom.shown == "9 / 9"


def test_verdict_filter_hides_the_other_rows(tmp_path):
    dom = rendered(tmp_path, "verdict=killed")
    visible = [row for row in dom.rows if "hidden" not in row]
    assert {row["data-verdict"] for row in visible} == {"killed"}
    assert len(visible) == sum(m["verdict"] == "killed" for m in RESULTS["mutants"]) == 4
    assert dom.shown == "4 / 9"


def test_family_filter_and_language_switch(tmp_path):
    dom = rendered(tmp_path, "family=boundary&verdict=survived&lang=zh")
    assert dom.body_lang == "zh"
    assert [row["data-family"] for row in dom.rows if "hidden" not in row] == ["boundary"]
    assert dom.shown == "1 / 9"


def test_page_makes_no_network_request_and_screenshot(tmp_path):
    page = render_html(RESULTS)
    assert "http://" not in page and "https://" not in page
    assert "default-src 'none'" in page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (tmp_path / "report.html").write_text(page, encoding="utf-8")
    screenshot = ARTIFACTS / "report.png"
    chromium(tmp_path, (tmp_path / "report.html").as_uri(), f"--screenshot={screenshot}", "--window-size=1280,900")
    assert screenshot.stat().st_size > 10_000
