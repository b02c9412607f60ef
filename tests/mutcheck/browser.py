"""Headless Chromium for the tests that render a page: a run of it, or the test skipped where it is missing."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REQUIRED = "MUTCHECK_REQUIRE_BROWSER"
# Debian's Chromium; GitHub's runners have Google Chrome.
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium(tmp_path: Path, url: str, *args: str) -> str:
    """Chromium's output for `url` (e.g. with --dump-dom); skips where it is not installed, fails
    instead with MUTCHECK_REQUIRE_BROWSER set."""
    browser = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    if browser is None:
        message = f"no Chromium here (.ci/run installs it and sets {REQUIRED}=1)"
        if os.environ.get(REQUIRED):
            pytest.fail(message)
        pytest.skip(message)
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        *args,
        url,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout


def page_requests(tmp_path: Path, page: Path) -> list[str]:
    """The URLs the page at `page` (a file) asked the network for while Chromium loaded it, from
    Chromium's own network log: requests whose initiator is the file's opaque origin ("null"), not
    the browser's background ones."""
    log = tmp_path / "net-log.json"
    chromium(tmp_path, page.as_uri(), f"--log-net-log={log}", "--dump-dom")
    events = json.loads(log.read_text(encoding="utf-8"))["events"]
    return sorted({e["params"]["url"] for e in events if e.get("params", {}).get("initiator") == "null"})
