"""The reuse store's folder as the tests found it: whatever in it changed while the project's code ran
(a test that writes there, or a process it left behind) is removed, unless a mutcheck run wrote it
(another run's store, saved meanwhile): so a hostile test can only make the next run run more, never
make it reuse what the test wrote.

Every store write takes the folder's lock and records what it wrote (the file's name and its bytes'
digest) in the folder's ledger; the guard, under the same lock, keeps a changed file only when the
ledger has its bytes.
"""

import fcntl
import hashlib
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mutcheck.core.atomic_write import write_atomically

LOCK, LEDGER = ".lock", ".ledger"
_KEPT_PER_NAME = 8  # ledger lines kept per file: a few earlier writes, for runs that read before them
# inode, size and status-change time (ns): any write, replacement or `utime` changes one; no user can set it back
Stamp = tuple[int, int, int]


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """The folder's lock, held by one mutcheck process at a time (released if the process dies)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _ledger(folder: Path) -> list[tuple[str, str]]:
    try:
        lines = (folder / LEDGER).read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError):
        return []
    return [(name, found) for line in lines if len(parts := line.split(" ")) == 2 for name, found in [parts]]


def record_write(path: Path, data: bytes) -> None:
    """Under the folder's lock: `path` now holds `data`, written by a mutcheck run."""
    folder = path.parent
    entries = [*_ledger(folder), (path.name, _digest(data))]
    kept: dict[str, list[str]] = {}
    for name, found in entries:
        if (folder / name).exists():
            kept.setdefault(name, []).append(found)
    text = "".join(f"{name} {found}\n" for name, digests in kept.items() for found in digests[-_KEPT_PER_NAME:])
    write_atomically(folder / LEDGER, text.encode("utf-8"))


def stamps(folder: Path) -> dict[str, Stamp]:
    """Each entry of the folder and its stamp (the folder is flat: mutcheck writes only files there)."""
    found = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        try:
            status = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        found[entry.name] = (status.st_ino, status.st_size, status.st_ctime_ns)
    return found


def _written_by_a_run(path: Path, ledger: set[tuple[str, str]]) -> bool:
    if path.is_symlink() or not path.is_file():
        return False
    try:
        return (path.name, _digest(path.read_bytes())) in ledger
    except OSError:
        return False


def undo_changes(folder: Path, before: dict[str, Stamp]) -> list[str]:
    """Remove every entry new or changed since `before` (a changed folder too) that no mutcheck run
    wrote; the lock, the ledger and runs' files being written are left. Their names."""
    if not folder.is_dir():
        return []
    removed = []
    with folder_lock(folder):
        ledger = set(_ledger(folder))
        for name, stamp in stamps(folder).items():
            if before.get(name) == stamp or name in (LOCK, LEDGER) or name.startswith(".saving-"):
                continue
            path = folder / name
            if _written_by_a_run(path, ledger):
                continue
            try:
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink()
            except OSError:
                continue
            removed.append(name)
    return sorted(removed)
