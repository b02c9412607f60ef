"""A module imported from a replaced text, whichever finder finds it: its code, its source as
tracebacks and `inspect` read it, its encoding, and no bytecode read or written."""

import importlib
import inspect
import linecache
import sys
import traceback
from importlib.machinery import PathFinder, SourceFileLoader

import pytest

from mutcheck.host.replaced_source import replace_sources

ORIGINAL = 'def greet(name):\n    return "hello " + name\n'
REPLACED = 'def greet(name):\n    raise ValueError("mutated " + name)\n'


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    for name in ("get_data", "path_stats"):  # restored after the test: replacing patches the class
        monkeypatch.setattr(SourceFileLoader, name, getattr(SourceFileLoader, name))
    yield tmp_path
    for name in ("greeting", "other", "latin"):
        sys.modules.pop(name, None)
        linecache.cache.pop(str(tmp_path / f"{name}.py"), None)


def test_the_replaced_file_imports_from_the_text_and_shows_it(folder):
    (folder / "greeting.py").write_text(ORIGINAL)
    importlib.import_module("greeting")  # a cached bytecode of the original, left for the next import
    del sys.modules["greeting"]
    replace_sources({str(folder / "greeting.py"): REPLACED})
    greeting = importlib.import_module("greeting")
    with pytest.raises(ValueError, match="mutated ada") as raised:
        greeting.greet("ada")
    assert 'raise ValueError("mutated " + name)' in "".join(traceback.format_tb(raised.tb))
    assert inspect.getsource(greeting.greet) == REPLACED
    assert greeting.__loader__.get_source("greeting") == REPLACED
    assert (folder / "greeting.py").read_text() == ORIGINAL


def test_other_modules_import_as_before(folder):
    (folder / "greeting.py").write_text(ORIGINAL)
    (folder / "other.py").write_text("VALUE = 1\n")
    replace_sources({str(folder / "greeting.py"): REPLACED})
    other = importlib.import_module("other")
    assert other.VALUE == 1
    assert type(other.__loader__).__name__ == "SourceFileLoader"


def test_no_bytecode_is_written_for_the_text(folder):
    (folder / "greeting.py").write_text(ORIGINAL)
    replace_sources({str(folder / "greeting.py"): REPLACED})
    importlib.import_module("greeting")
    assert not list(folder.rglob("*.pyc"))


def test_a_coding_line_is_honoured(folder):
    text = "# -*- coding: latin-1 -*-\nWORD = 'café'\n"
    (folder / "latin.py").write_bytes(text.replace("é", "e").encode("latin-1"))
    replace_sources({str(folder / "latin.py"): text})
    assert importlib.import_module("latin").WORD == "café"


def test_a_finder_put_first_later_still_loads_the_text(folder):
    """As typeguard's and jaxtyping's import hooks do: first on sys.meta_path, finding through PathFinder."""

    class Instrumenting:
        def find_spec(self, name, path=None, target=None):
            return PathFinder.find_spec(name, path, target) if name == "greeting" else None

    (folder / "greeting.py").write_text(ORIGINAL)
    replace_sources({str(folder / "greeting.py"): REPLACED})
    sys.meta_path.insert(0, Instrumenting())
    with pytest.raises(ValueError, match="mutated"):
        importlib.import_module("greeting").greet("ada")
