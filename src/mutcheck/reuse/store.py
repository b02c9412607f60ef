"""The reuse store: for each mutant, the outcome each test had under it and the evidence that outcome
stood on (labels and their values, see `labels`), the project's modules as they were (see
`project_code`), and the last whole run's results. One file per project, profile and target in the
user's cache folder (restored and saved by `actions/cache` in CI); every write takes the folder's
lock, adds the entries of runs made meanwhile, and replaces the file whole, so that runs at the same
time, of one project or several, never lose or break each other's entries.

The store is data a run checks, never trusts: anything in it that is not exactly what `save` writes
(truncated, nested too deep, a field of the wrong type) makes it no store at all, with one warning.
"""

import base64
import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

from mutcheck.core.atomic_write import write_atomically
from mutcheck.core.outcome import ERROR, FAILED, ORDER_DEPENDENT, PASSED, SKIPPED, TIMEOUT
from mutcheck.reuse.guard import folder_lock, record_write
from mutcheck.reuse.module_code import digest
from mutcheck.reuse.today import FileStatus

FORMAT, VERSION = "mutcheck-reuse", 4
# never not-run; a time-out with how long it ran before it was stopped (see `decide`); order-dependent only with
# the evidence of the run in the suite's order that settled it
REUSABLE = frozenset({PASSED, FAILED, ERROR, SKIPPED, TIMEOUT, ORDER_DEPENDENT})


def store_folder() -> Path:
    """The folder of every project's store: the user's cache, where CI's cache step restores it."""
    return Path(user_cache_dir("mutcheck")) / "reuse"


@dataclass(frozen=True)
class TestOutcome:
    """One test's outcome under one mutant, and the evidence set it stood on."""

    outcome: str
    duration: float
    witness: str | None
    evidence: int


@dataclass(frozen=True)
class MutantOutcomes:
    edit: str  # the mutant's edit (see `decide.edit_of`)
    head: str | None  # the commit of the run that ran its tests
    tests: dict[str, TestOutcome]  # by test node id
    # its tests whose outcome only a run in the suite's order settled: run again, they need the tests before them
    in_order: frozenset[str] = frozenset()


@dataclass(frozen=True)
class WholeRun:
    """A whole run's results, taken as they are when nothing it stood on changed."""

    request: str  # the request's digest (see `whole`)
    results: dict[str, Any]  # the results document
    chosen: int  # how many mutants it chose before `--shard`
    mutated: dict[str, str] = field(default_factory=dict)  # each file its mutants edit, by its bytes' digest


@dataclass
class Store:
    key: dict[str, str] = field(default_factory=dict)  # see `key.run_key`
    labels: list[tuple[str, str]] = field(default_factory=list)  # each label and its value then
    sets: list[list[int]] = field(default_factory=list)  # evidence sets: indices of `labels`
    collection: int | None = None  # the set every outcome stands on: what collecting was seen to read
    sources: dict[str, bytes] = field(default_factory=dict)  # the project's modules as they were (see `project_code`)
    modules: dict[str, str] = field(default_factory=dict)  # and their modules' names
    loaded: list[str] = field(default_factory=list)  # the modules loaded when collecting ended
    files: dict[str, tuple[FileStatus, str]] = field(default_factory=dict)  # see `today.FileDigests`
    mutants: dict[str, MutantOutcomes] = field(default_factory=dict)
    whole: WholeRun | None = None
    damaged: str | None = None  # why what was on disk was not used

    def evidence(self, index: int) -> list[tuple[str, str]]:
        return [self.labels[label] for label in self.sets[index]]


class Builder:
    """A store being made: labels and sets, each kept once."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._labels = {pair: index for index, pair in enumerate(store.labels)}
        self._sets = {tuple(found): index for index, found in enumerate(store.sets)}

    def evidence(self, pairs: Iterable[tuple[str, str]]) -> int:
        indices = []
        for pair in set(pairs):
            if pair not in self._labels:
                self._labels[pair] = len(self.store.labels)
                self.store.labels.append(pair)
            indices.append(self._labels[pair])
        key = tuple(sorted(indices))
        if key not in self._sets:
            self._sets[key] = len(self.store.sets)
            self.store.sets.append(list(key))
        return self._sets[key]

    def carry(self, other: Store, mutant: str) -> None:
        """Another run's entry of `mutant`, its evidence taken over (the collection's joined in)."""
        earlier = other.mutants[mutant]
        base = other.evidence(other.collection) if other.collection is not None else []
        tests = {}
        for test, kept in earlier.tests.items():
            evidence = self.evidence([*base, *other.evidence(kept.evidence)])
            tests[test] = TestOutcome(kept.outcome, kept.duration, kept.witness, evidence)
        self.store.mutants[mutant] = MutantOutcomes(earlier.edit, earlier.head, tests, earlier.in_order)


def store_path(root: Path, profile: str | None, target: str | None) -> Path:
    """One file per project (its resolved path), profile and target."""
    key = "\0".join([str(root.resolve()), profile or "", target or ""])
    return store_folder() / f"{digest(key)}.json"


# -- reading, each field checked ----------------------------------------------------------------
def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("a text")
    return value


def _texts(value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ValueError("a table of texts")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError("a number")
    return float(value)


def _index(value: Any, size: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < size:
        raise ValueError("an index")
    return value


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError("a list")
    return value


def _table(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("a table")
    return value


def _fields(value: Any, names: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != names:
        raise ValueError(f"fields {sorted(names)}")
    return value


def _packed(source: bytes) -> str:
    return base64.b64encode(zlib.compress(source)).decode()


def _source(value: Any) -> bytes:
    try:
        return zlib.decompress(base64.b64decode(_text(value), validate=True))
    except (ValueError, zlib.error) as error:
        raise ValueError("a module's bytes") from error


def _status(value: Any) -> tuple[FileStatus, str]:
    status, found = _list(value)[:2] if len(_list(value)) == 2 else (None, None)
    numbers = _list(status)
    if len(numbers) != 5 or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        raise ValueError("a file's status")
    return tuple(numbers), _text(found)  # type: ignore[return-value]


def _mutant(value: Any, sets: int) -> MutantOutcomes:
    data = _fields(value, {"edit", "head", "tests", "in_order"})
    head = data["head"]
    if head is not None:
        _text(head)
    tests = {}
    for test, kept in _table(data["tests"]).items():
        outcome, duration, witness, evidence = _list(kept) if len(_list(kept)) == 4 else (None,) * 4
        if outcome not in REUSABLE or (witness is not None and not isinstance(witness, str)):
            raise ValueError("an outcome")
        tests[test] = TestOutcome(outcome, _number(duration), witness, _index(evidence, sets))
    in_order = frozenset(_text(test) for test in _list(data["in_order"]))
    return MutantOutcomes(_text(data["edit"]), head, tests, in_order)


_PARTS = {"files", "mutants", "whole"}


def _store(data: Any) -> Store:
    data = _fields(
        data, {"format", "version", "key", "labels", "sets", "collection", "sources", "modules", "loaded"} | _PARTS
    )
    if data["format"] != FORMAT or data["version"] != VERSION:
        raise ValueError("not a mutcheck reuse store of this version")
    labels = []
    for pair in _list(data["labels"]):
        if len(_list(pair)) != 2:
            raise ValueError("a label")
        labels.append((_text(pair[0]), _text(pair[1])))
    sets = [[_index(index, len(labels)) for index in _list(found)] for found in _list(data["sets"])]
    collection = None if data["collection"] is None else _index(data["collection"], len(sets))
    whole = None
    if data["whole"] is not None:
        part = _fields(data["whole"], {"request", "results", "chosen", "mutated"})
        chosen = int(_number(part["chosen"]))
        whole = WholeRun(_text(part["request"]), _table(part["results"]), chosen, _texts(part["mutated"]))
    return Store(
        key=_texts(data["key"]),
        labels=labels,
        sets=sets,
        collection=collection,
        sources={_text(path): _source(value) for path, value in _table(data["sources"]).items()},
        modules=_texts(data["modules"]),
        loaded=[_text(name) for name in _list(data["loaded"])],
        files={_text(path): _status(value) for path, value in _table(data["files"]).items()},
        mutants={_text(name): _mutant(value, len(sets)) for name, value in _table(data["mutants"]).items()},
        whole=whole,
    )


def load_store(path: Path) -> Store:
    """The store at `path`; empty when there is none, and empty with `damaged` set when it is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):  # none yet (or no cache folder to keep one in)
        return Store()
    except (OSError, ValueError) as error:
        return Store(damaged=f"{path}: {error}")
    try:
        return _store(json.loads(text))
    except (ValueError, RecursionError, TypeError) as error:
        return Store(damaged=f"{path}: {error or type(error).__name__}")


def _document(store: Store) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "key": store.key,
        "labels": [list(pair) for pair in store.labels],
        "sets": store.sets,
        "collection": store.collection,
        "sources": {
            path: base64.b64encode(zlib.compress(data)).decode() for path, data in sorted(store.sources.items())
        },
        "modules": store.modules,
        "loaded": store.loaded,
        "files": {path: [list(status), found] for path, (status, found) in sorted(store.files.items())},
        "mutants": {
            name: {
                "edit": entry.edit,
                "head": entry.head,
                "tests": {
                    test: [kept.outcome, kept.duration, kept.witness, kept.evidence]
                    for test, kept in sorted(entry.tests.items())
                },
                "in_order": sorted(entry.in_order),
            }
            for name, entry in sorted(store.mutants.items())
        },
        "whole": None if store.whole is None else vars(store.whole),
    }


def save_store(path: Path, store: Store, carry: bool = True) -> None:
    """Write `store` at `path` under the folder's lock; with `carry`, the entries of mutants it does
    not hold are taken from the store there (a run made meanwhile, or an `--only` run's others)
    when both have the same key. Written under a temporary name and renamed: no reader sees half a
    file; the write is recorded for the tamper guard (see `guard`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with folder_lock(path.parent):
        if carry:
            there = load_store(path)
            if not there.damaged and there.key == store.key:
                builder = Builder(store)
                for name in there.mutants.keys() - store.mutants.keys():
                    builder.carry(there, name)
                store.files = {**there.files, **store.files}
        text = json.dumps(_document(store), separators=(",", ":"))
        write_atomically(path, text.encode())
        record_write(path, text.encode())
