"""Every `killed_by` test of the repository's catalog fails under its mutant (scratch copies)."""

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from mutcheck.catalog import load_catalog
from mutcheck.mutate import apply_mutant

REPOSITORY = Path(__file__).resolve().parents[2]
CATALOG = load_catalog(REPOSITORY / "mutants", REPOSITORY)


def _failed_tests(report: Path) -> set[str]:
    failed = set()
    for case in ElementTree.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            module = case.get("classname").replace(".", "/") + ".py"
            failed.add(f"{module}::{case.get('name').split('[')[0]}")
    return failed


@pytest.mark.parametrize("mutant", [m for m in CATALOG.mutants if m.killed_by], ids=lambda m: m.id)
def test_named_tests_kill_the_mutant(mutant, tmp_path):
    for part in ("src", "tests", "pyproject.toml"):
        source = REPOSITORY / part
        copy = shutil.copytree if source.is_dir() else shutil.copy
        copy(source, tmp_path / part)
    (tmp_path / mutant.file).write_text(apply_mutant(mutant, REPOSITORY).mutated, encoding="utf-8")
    report = tmp_path / "report.xml"
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        f"--junitxml={report}",
        *mutant.killed_by,
    ]
    subprocess.run(command, cwd=tmp_path, capture_output=True, check=False)
    assert {test.split("[")[0] for test in mutant.killed_by} <= _failed_tests(report)
