"""The HTML report shows a catalog text's code spans as code, and nothing of it as markup."""

import copy
import json
from pathlib import Path

from mutcheck.report.html import render_html
from tests.mutcheck.results_docs import typed

RESULTS = json.loads((Path(__file__).parents[1] / "golden" / "results.json").read_text(encoding="utf-8"))


def test_backticks_in_a_title_render_as_code_and_html_in_it_stays_text():
    results = copy.deepcopy(RESULTS)
    results["mutants"][0]["title"] = {"en": "the `deepcopy` of <b>calls</b>", "zh": "`deepcopy` 被删除"}
    page = render_html(typed(results))
    assert "the <code>deepcopy</code> of &lt;b&gt;calls&lt;/b&gt;" in page
    assert "<code>deepcopy</code> 被删除" in page
    assert "`deepcopy`" not in page.split("<script")[0]  # no raw backticks in what the page shows
