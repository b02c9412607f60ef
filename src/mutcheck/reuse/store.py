"""The reuse store: each mutant's last outcomes by test, with the evidence they stood on, kept per
project, profile and target in the user's cache folder (restored and saved by `actions/cache` in CI).

The store is data a run checks, never trusts: it is read before any of the project's code runs, and
anything in it that is not exactly what `save_store` writes makes every mutant run again.
"""

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mutcheck.core.outcome import ERROR, FAILED, NOT_RUN, PASSED, SKIPPED
from mutcheck.reuse.digests import digest
from mutcheck.reuse.guard import store_folder

FORMAT, VERSION = "mutcheck-reuse", 1
REUSABLE = frozenset({PASSED, FAILED, ERROR, SKIPPED, NOT_RUN})  # never a time-out or an order-dependent one


@dataclass(frozen=True)
class Entry:
    """One mutant's outcomes, by test node id, and the evidence they stood on."""

    head: str | None  # the commit of the run that ran it
    evidence: dict[str, str]
    outcomes: dict[str, str]
    durations: dict[str, float]
    witnesses: dict[str, str]
    reached: list[str] | None  # None: not watched (the target files were checked whole)


@dataclass
class Store:
    environment: dict[str, str] = field(default_factory=dict)
    mutants: dict[str, Entry] = field(default_factory=dict)
    damaged: str | None = None  # why what was on disk was not used


def store_path(root: Path, profile: str | None, target: str | None) -> Path:
    """One file per project (its resolved path), profile and target."""
    key = "\0".join([str(root.resolve()), profile or "", target or ""])
    return store_folder() / f"{digest(key)}.json"


def _strings(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def _entry(data: Any) -> Entry:
    """An entry exactly as `save_store` writes it, or ValueError."""
    if not isinstance(data, dict) or set(data) != {f for f in Entry.__dataclass_fields__}:
        raise ValueError("an entry's fields")
    head, evidence, outcomes, durations = data["head"], data["evidence"], data["outcomes"], data["durations"]
    if not (head is None or isinstance(head, str)) or not _strings(evidence) or not _strings(outcomes):
        raise ValueError("an entry's head, evidence or outcomes")
    if not set(outcomes.values()) <= REUSABLE or not _strings(data["witnesses"]):
        raise ValueError("an entry's outcomes or witnesses")
    if not isinstance(durations, dict) or set(durations) != set(outcomes):
        raise ValueError("an entry's durations")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and v >= 0 for v in durations.values()):
        raise ValueError("an entry's durations")
    reached = data["reached"]
    if reached is not None and not (isinstance(reached, list) and all(isinstance(name, str) for name in reached)):
        raise ValueError("an entry's reached functions")
    return Entry(
        head, evidence, outcomes, {k: float(v) for k, v in durations.items()}, data["witnesses"], data["reached"]
    )


def load_store(path: Path) -> Store:
    """The store at `path`; empty when there is none, and empty with `damaged` set when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, NotADirectoryError):  # none yet (or no cache folder to keep one in)
        return Store()
    except (OSError, ValueError) as error:
        return Store(damaged=f"{path}: {error}")
    try:
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
            raise ValueError("not a mutcheck reuse store of this version")
        if set(data) != {"format", "version", "environment", "mutants"} or not _strings(data["environment"]):
            raise ValueError("its fields")
        if not isinstance(data["mutants"], dict):
            raise ValueError("its mutants")
        mutants = {str(key): _entry(value) for key, value in data["mutants"].items()}
    except ValueError as error:
        return Store(damaged=f"{path}: {error}")
    return Store(data["environment"], mutants)


def save_store(path: Path, store: Store) -> None:
    """Write `store` under a temporary name and rename it, so no reader sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "format": FORMAT,
        "version": VERSION,
        "environment": store.environment,
        "mutants": {key: asdict(entry) for key, entry in sorted(store.mutants.items())},
    }
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".saving-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(document, file, separators=(",", ":"))
        os.replace(temporary, path)
    finally:
        Path(temporary).unlink(missing_ok=True)
