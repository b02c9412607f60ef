"""Which of the project's files a collected suite stands on: each test's file, and the project's
Python modules imported by the end of collection (conftests, test modules, the code they import)."""

import os
import sys
from pathlib import Path

import pytest

_INSTALLED = {"site-packages", "dist-packages"}  # a virtual environment kept inside the project


def relative_path(path: str, project: str) -> str | None:
    """`path` relative to the project's folder (resolved), or None for a file outside it or an installed one."""
    real = os.path.realpath(path)
    if not real.startswith(project + os.sep):
        return None
    relative = real[len(project) + 1 :]
    return None if _INSTALLED & set(Path(relative).parts) else relative


def test_files(items: list[pytest.Item], project: str) -> list[str]:
    """Per test, its file relative to the project ("" for one outside it)."""
    root = os.path.realpath(project)
    return [relative_path(str(item.path), root) or "" for item in items]


def imported_modules(project: str) -> list[str]:
    """The project's Python files imported so far, sorted."""
    root = os.path.realpath(project)
    found = set()
    for module in list(sys.modules.values()):
        filename = getattr(module, "__file__", None)
        if filename and filename.endswith(".py") and (relative := relative_path(filename, root)):
            found.add(relative)
    return sorted(found)
