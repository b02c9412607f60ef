"""What `harden` and its child say to each other, one definition for both sides: the child's spec (a
file named on its command line) and its answer (a file it writes at its end), each written as JSON
and read back whole. A recorded call and what a replay saw stay data: trees of values (`values.py`),
which variations edit and the written test spells."""

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

Call = dict[str, Any]  # a recorded call: receiver, arguments and class as trees, their imports, what it did
Observed = dict[str, Any]  # one replay of a call: its result or error as trees, the arguments after, lines run

RECORD, REPLAY, PYTEST = "record", "replay", "pytest"
# the kinds of function, as the tests call them
FUNCTION, METHOD, STATIC, CLASS, CONSTRUCTOR = "function", "method", "static", "class", "constructor"
PROPERTY = "property"  # its getter: a test reads the attribute
COROUTINE, GENERATOR, ASYNC_GENERATOR = "coroutine", "generator", "async-generator"
# how the project's tests run a coroutine: pytest-asyncio's mark, anyio's, or asyncio.run in a plain test
ASYNCIO_MARK, ANYIO_MARK, ASYNCIO_RUN = "asyncio", "anyio", "run"
# a call's arguments as source, at most: larger ones make a test no one reads, and replays that crawl
MAX_CALL_SIZE = 20_000
TOO_LARGE = f"its arguments are too large for a test to write (over {MAX_CALL_SIZE} characters)"


@dataclass(frozen=True)
class Located:
    """The function as the recording child found it: where it is, what kind, how its tests call it."""

    module: str
    kind: str  # FUNCTION, METHOD, STATIC, CLASS, CONSTRUCTOR or PROPERTY
    qualname: str
    parameters: list[str]
    flavour: str = ""  # COROUTINE, GENERATOR or ASYNC_GENERATOR; "" for a plain function
    async_style: str = ASYNCIO_RUN  # the project's tests' way of running a coroutine
    file: str = ""  # resolved: the replay checks it imports the same file
    sys_path: list[str] = field(default_factory=list)  # as pytest and the conftests left it


@dataclass(frozen=True)
class ChildSpec:
    """One task for the child; `project` to `pytest_args` are the lab's, filled in by `run_child`."""

    mode: str  # RECORD, REPLAY or PYTEST
    tests: list[str]
    file: str = ""  # RECORD: the function's file, its qualified name, the mutant's line (picks a getter)
    qualname: str = ""
    line: int | None = None
    located: Located | None = None  # REPLAY: the function, the calls, each made `rounds` times
    calls: list[Call] = field(default_factory=list)
    rounds: int = 1
    call_limit: float = 0.0  # seconds per call
    trace: bool = False  # the lines each call's first replay ran
    project: str = ""
    roots: list[str] = field(default_factory=list)
    scratch: str = ""
    parent: int = 0
    answer: str = ""
    pytest_args: list[str] = field(default_factory=list)

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self)), encoding="utf-8")

    @classmethod
    def read(cls, path: Path) -> "ChildSpec":
        data = json.loads(path.read_text(encoding="utf-8"))
        located = data.pop("located")
        return cls(**data, located=Located(**located) if located is not None else None)


@dataclass(frozen=True)
class RecordAnswer:
    exit: int
    refused: str | None  # why the function cannot be recorded; None when it was
    located: Located | None
    calls: list[Call]
    skipped: dict[str, int]  # calls not kept, by reason
    entries: dict[str, int]  # the module's functions through which the tests reached it, with how often


@dataclass(frozen=True)
class ReplayAnswer:
    refused: str | None  # why nothing was replayed; None when every call was
    observed: list[list[Observed]]  # per call, per round


@dataclass(frozen=True)
class PytestAnswer:
    exit: int
    outcomes: dict[str, str]  # per node id, its worst phase's
    messages: dict[str, str]  # a failed test's: the first line of what it raised


Answer = RecordAnswer | ReplayAnswer | PytestAnswer
AnswerKind = TypeVar("AnswerKind", RecordAnswer, ReplayAnswer, PytestAnswer)


def write_answer(answer: Answer, path: Path) -> None:
    path.write_text(json.dumps(asdict(answer)), encoding="utf-8")


def read_answer(kind: type[AnswerKind], path: Path) -> AnswerKind:
    """The answer the child wrote at `path`, as the mode the caller asked for answers (`kind`)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if kind is RecordAnswer and data["located"] is not None:
        data["located"] = Located(**data["located"])
    return kind(**data)
