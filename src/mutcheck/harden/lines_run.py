"""The lines of one function (and of the functions inside it) a call runs: what tells a variation
that reached code its recorded call did not."""

import os
import sys
from collections.abc import Callable
from types import CodeType, FrameType
from typing import Any


def lines_run(file: str, qualname: str, call: Callable[[], Any]) -> tuple[Any, set[int]]:
    """`call()`'s value and the line numbers it ran in the frames of `qualname` and its nested
    functions, in the module whose real path is `file`."""
    ran: set[int] = set()
    watched: dict[tuple[str, str], bool] = {}  # by file and name: equal code objects of two files are two

    def in_scope(code: CodeType) -> bool:
        key = (code.co_filename, code.co_qualname)
        if key not in watched:
            nested = key[1] == qualname or key[1].startswith(qualname + ".<locals>.")
            watched[key] = nested and os.path.realpath(code.co_filename) == file
        return watched[key]

    def local(frame: FrameType, event: str, _arg: object) -> Any:
        if event == "line":
            ran.add(frame.f_lineno)
        return local

    def entered(frame: FrameType, _event: str, _arg: object) -> Any:
        return local if in_scope(frame.f_code) else None

    previous = sys.gettrace()
    sys.settrace(entered)
    try:
        return call(), ran
    finally:
        sys.settrace(previous)
