"""The pytest shims, through pytest itself; and what running an item through pytest's own protocol
keeps of a plain run: a re-run item gets fresh fixtures, and `pytest.exit` and Ctrl-C go through."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

CONFTEST = """\
import json

import pytest

from mutcheck.host.protocol import run_item


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    seen = {}
    for item in session.items:
        for run in (1, 2):
            try:
                outcome = run_item(item, None).outcome
            except BaseException as error:
                outcome = "let through: " + type(error).__name__
            seen[f"{item.name} {run}"] = outcome
    seen["setups"] = session.items[0].module.SETUPS
    with open("seen.json", "w") as out:
        json.dump(seen, out)
    return True
"""

TESTS = """\
import pytest

SETUPS = []


@pytest.fixture
def fresh(tmp_path):
    SETUPS.append(str(tmp_path))
    return tmp_path


def test_uses_fixtures(fresh):
    assert fresh.exists()


def test_interrupted():
    raise KeyboardInterrupt


def test_exits():
    pytest.exit("stop here", returncode=0)
"""


def _seen(tmp_path: Path, test: str, *args: str) -> dict:
    for name, text in {"conftest.py": CONFTEST, "test_it.py": TESTS}.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"test_it.py::{test}", *args],
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    return json.loads((tmp_path / "seen.json").read_text(encoding="utf-8"))


def test_an_item_run_twice_gets_fresh_fixtures_each_time(tmp_path):
    seen = _seen(tmp_path, "test_uses_fixtures")
    assert (seen["test_uses_fixtures 1"], seen["test_uses_fixtures 2"]) == ("passed", "passed")
    assert len(set(seen["setups"])) == 2


def test_ctrl_c_is_let_through(tmp_path):
    assert _seen(tmp_path, "test_interrupted")["test_interrupted 1"] == "let through: KeyboardInterrupt"


def test_pytest_exit_is_let_through(tmp_path):
    assert _seen(tmp_path, "test_exits")["test_exits 1"] == "let through: Exit"


REWRITE_CHECK = """\
import sys

import pytest

from mutcheck.host.pytest_compat import rewrite_only_the_suite

rewrite_only_the_suite()
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "test_rewrite.py"]))
"""

REWRITE_TESTS = """\
import hypothesis.core


def test_plugin_packages_are_not_rewritten():
    assert not hasattr(hypothesis.core, "@pytest_ar")


def test_the_suite_still_is():
    assert "@pytest_ar" in globals()
"""


def test_plugin_packages_keep_their_own_asserts_while_the_suite_is_rewritten(tmp_path):
    """Without the shim pytest rewrites all of hypothesis (a plugin's distribution) at import."""
    (tmp_path / "check.py").write_text(REWRITE_CHECK, encoding="utf-8")
    (tmp_path / "test_rewrite.py").write_text(REWRITE_TESTS, encoding="utf-8")
    completed = subprocess.run([sys.executable, "check.py"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    plain = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_rewrite.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "1 failed, 1 passed" in plain.stdout, plain.stdout  # plain pytest does rewrite hypothesis
