"""Which of the project's files a collected suite stands on: each test's file, and the project's
Python modules imported by the end of collection (conftests, test modules, the code they import), and
whether a fixture is the project's own."""

import inspect
import os
import sys
from pathlib import Path, PurePath
from typing import Any

import pytest

_INSTALLED = {"site-packages", "dist-packages"}  # a virtual environment kept inside the project


def relative_path(path: str, project: str) -> str | None:
    """`path` relative to the project's folder (resolved), or None for a file outside it or an installed one."""
    if not os.path.isabs(path):  # "<frozen abc>", "<string>": code with no file
        return None
    real = os.path.realpath(path)
    if not real.startswith(project + os.sep):
        return None
    relative = real[len(project) + 1 :]
    return None if _INSTALLED & set(Path(relative).parts) else relative


def defined_in(function: Any, project: str) -> str | None:
    """The project file that defines `function` (through its decorators' wrappers), or None for one
    of pytest's, a plugin's or an installed package's."""
    code = getattr(inspect.unwrap(function), "__code__", None)
    return relative_path(code.co_filename, project) if code is not None else None


def has_teardown(fixturedef: Any) -> bool:
    """Whether a fixture can run code of its own when torn down: it yields, or it can add finalizers."""
    function = inspect.unwrap(fixturedef.func)
    yields = inspect.isgeneratorfunction(function) or inspect.isasyncgenfunction(function)
    return yields or "request" in fixturedef.argnames


_UNCHANGING = (type(None), bool, int, float, complex, str, bytes, range)
_NESTED_LIMIT = 3  # deeper tuples are taken as changeable


def can_change(fixturedef: Any) -> bool:
    """Whether the value a fixture's setup made can be changed by a test that uses it: anything but
    None, a number, a string, bytes, a path, and tuples and frozensets of these."""
    made = fixturedef.cached_result
    return made is not None and made[2] is None and not _unchanging(made[0], 0)


def _unchanging(value: Any, depth: int) -> bool:
    if type(value) in _UNCHANGING or isinstance(value, PurePath):
        return True
    if type(value) in (tuple, frozenset) and depth < _NESTED_LIMIT:
        return all(_unchanging(item, depth + 1) for item in value)
    return False


def test_files(items: list[pytest.Item], project: str) -> list[str]:
    """Per test, its file relative to the project ("" for one outside it)."""
    root = os.path.realpath(project)
    return [relative_path(str(item.path), root) or "" for item in items]


def imported_modules(project: str) -> dict[str, str]:
    """The project's Python files imported so far, each with its module's name, sorted by file."""
    root = os.path.realpath(project)
    found = {}
    for name, module in list(sys.modules.items()):
        filename = getattr(module, "__file__", None)
        if filename and filename.endswith(".py") and (relative := relative_path(filename, root)):
            found[relative] = name
    return dict(sorted(found.items()))


def imported_elsewhere(project: str, targets: list[str]) -> dict[str, str]:
    """The target files (absolute, in the project) whose module the suite imported from another file
    (an installed copy, another checkout's editable install), each by its path relative to the
    project, with that file: no test can run their mutants. A module counts by a name its file
    could have (`src/pkg/core.py`: `src.pkg.core`, `pkg.core`; its bare name `core` only where its
    folder is on the path; a package's, `src/pkg/__init__.py`: `pkg`) when its file ends as that
    name's would (`pkg/core.py`), so that a module of another package with the same short name
    (`src/pkg/types.py` beside the standard library's `types`) does not."""
    root = os.path.realpath(project)
    imported = {
        os.path.realpath(filename)
        for module in list(sys.modules.values())
        if isinstance(filename := getattr(module, "__file__", None), str)
    }
    search_path = {os.path.realpath(entry or os.curdir) for entry in sys.path}
    found = {}
    for target in targets:
        if os.path.realpath(target) in imported:
            continue
        relative = Path(os.path.relpath(os.path.realpath(target), root))
        parts = list(relative.with_suffix("").parts)
        package = parts[-1] == "__init__"
        on_path = os.path.dirname(os.path.realpath(target)) in search_path
        for start in range(len(parts) - package):
            if start == len(parts) - 1 and not on_path:
                break  # a module's bare name (`types`) is another package's unless its folder is on the path
            tail = Path(*parts[start:]).with_suffix(".py")
            name = ".".join(parts[start:]).removesuffix(".__init__")
            filename = getattr(sys.modules.get(name), "__file__", None)
            if isinstance(filename, str) and Path(filename).as_posix().endswith("/" + tail.as_posix()):
                found[relative.as_posix()] = os.path.abspath(filename)
                break
    return found
