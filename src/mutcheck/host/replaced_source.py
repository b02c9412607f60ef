"""A module imported from a mutant's text instead of its file, in a fresh host the fork server made:
the file on disk stays the run's, shared with every other test process.

What a plain run of the mutated file shows of its source shows the text too: the code objects carry
the file's path, `linecache` (tracebacks, `inspect.getsource`) holds the text under that path, and
the loader's `get_source` returns it. No bytecode is read or written for it.
"""

import importlib.machinery
import io
import linecache
import os
import sys
import tokenize
from collections.abc import Sequence
from importlib.machinery import ModuleSpec


class ReplacedSource:
    """First on `sys.meta_path`: asks the finders behind it, and gives a module found at one of the
    replaced files a loader that reads the text instead."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = {os.path.realpath(path): text for path, text in texts.items()}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: object = None) -> ModuleSpec | None:
        behind = sys.meta_path[sys.meta_path.index(self) + 1 :]
        for finder in behind:
            if not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is None:
                continue
            text = self.texts.get(os.path.realpath(spec.origin)) if spec.has_location and spec.origin else None
            if text is not None:
                spec.loader = TextLoader(fullname, spec.origin, text)
                spec.cached = None
                lines = text.splitlines(keepends=True)
                linecache.cache[spec.origin] = (len(text), None, lines, spec.origin)  # never checked against the file
            return spec
        return None


class TextLoader(importlib.machinery.SourceFileLoader):
    """A source file's loader whose source is the given text."""

    def __init__(self, fullname: str, path: str, text: str) -> None:
        super().__init__(fullname, path)
        self.text = text

    def get_data(self, path: str) -> bytes:
        if path == self.path:  # in the encoding its coding line names, as the compiler will read it
            encoding, _ = tokenize.detect_encoding(io.BytesIO(self.text.encode("utf-8", "replace")).readline)
            return self.text.encode(encoding)
        return super().get_data(path)

    def path_stats(self, path: str) -> dict[str, float]:
        raise OSError("no bytecode for a replaced text")  # so none is read, nor written
