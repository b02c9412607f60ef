"""Modules imported from a mutant's text instead of their files, in a fresh host the fork server
made: the file on disk stays the run's, shared with every other test process.

Every loader of Python source (`SourceFileLoader` and its subclasses, whichever finder found the
module, in whatever order the project's import hooks sit) reads the text in place of the file, and
no bytecode is read or written for it. What a plain run of the mutated file shows of its source
shows the text too: the code objects carry the file's path, `linecache` (tracebacks,
`inspect.getsource`) holds the text under it, and the loader's `get_source` returns it. A loader
that opens the file itself is seen by the fresh host's observer (`observe.DISK_SOURCE`), and the
mutant then runs in a copy.
"""

import io
import linecache
import os
import tokenize
from importlib.machinery import SourceFileLoader


def replace_sources(texts: dict[str, str]) -> None:
    """From now on in this process, each file of `texts` (absolute paths) imports as its text."""
    replaced = {os.path.realpath(path): text for path, text in texts.items()}
    for path, text in texts.items():
        linecache.cache[path] = (
            len(text),
            None,
            text.splitlines(keepends=True),
            path,
        )  # never checked against the file
    get_data, path_stats = SourceFileLoader.get_data, SourceFileLoader.path_stats

    def text_or_data(self: SourceFileLoader, path: str) -> bytes:
        text = replaced.get(os.path.realpath(path))
        if text is None:
            return get_data(self, path)
        # in the encoding its coding line names, as the compiler will read it
        encoding, _ = tokenize.detect_encoding(io.BytesIO(text.encode("utf-8", "replace")).readline)
        return text.encode(encoding)

    def no_stats_for_a_text(self: SourceFileLoader, path: str) -> dict[str, float]:
        if os.path.realpath(path) in replaced:
            raise OSError("no bytecode for a replaced text")  # so none is read, nor written
        return path_stats(self, path)

    SourceFileLoader.get_data = text_or_data
    SourceFileLoader.path_stats = no_stats_for_a_text
