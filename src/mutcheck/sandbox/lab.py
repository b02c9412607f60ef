"""Scratch folders: each marked with the process that owns it, and removed once that process is gone.

A run that is killed outright (SIGKILL) cannot remove its folders; the next run finds them by
their mark and removes those whose owner is no longer alive. A process is identified by its pid
and its start time, so a reused pid does not keep a dead run's folder.
"""

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mutcheck.sandbox.interrupt import deferred

PREFIX = "mutcheck-"
_OWNER = ".mutcheck-owner"


def _start_time(pid: int) -> str | None:
    """The process's start time (clock ticks since boot, from /proc), or None if it is gone;
    without /proc, "?" for any live process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes().decode("latin-1")  # a name may be any bytes
    except FileNotFoundError:
        return None
    except OSError:  # no /proc here: fall back on whether the pid exists
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
        return "?"
    return stat.rsplit(")", 1)[1].split()[19]  # field 22, counted after the command name


def make_folder() -> Path:
    """A new scratch folder in the temporary directory, marked as this process's."""
    folder = Path(tempfile.mkdtemp(prefix=PREFIX))
    (folder / _OWNER).write_text(f"{os.getpid()} {_start_time(os.getpid())}\n", encoding="utf-8")
    return folder


@contextmanager
def scratch_folder() -> Iterator[Path]:
    """A marked scratch folder for the duration of the block, removed after it."""
    folder: Path | None = None
    try:
        with deferred():  # not made without being named here, so that it is removed below
            folder = make_folder()
        yield folder
    finally:
        with deferred():
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)


def remove_stale() -> list[Path]:
    """Remove the marked scratch folders whose owning process has ended; the folders removed."""
    removed = []
    for folder in Path(tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            pid, started = (folder / _OWNER).read_text(encoding="utf-8").split()
            alive = _start_time(int(pid))
        except (OSError, ValueError):
            continue  # not ours, or not marked: left alone
        if alive is None or (started not in ("?", "None") and alive != started):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed
