"""The saved state: where the last results of a project's runs are kept, in the user's cache folder, and found."""

import hashlib
import shlex
import stat
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from platformdirs import user_cache_dir

from mutcheck.core.atomic_write import write_atomically
from mutcheck.core.git import head_sha
from mutcheck.core.problems import InputError, Problem
from mutcheck.results.model import Results
from mutcheck.results.results import results_json

KEPT_HEADS = 5  # per project: the last run at each of its five most recently run heads
NO_HEAD = "no-commit"  # the key of a project outside git, or with no commit yet
SHORT_SHA = 12
TIME_FORMAT = "%Y-%m-%d %H:%M"


@dataclass(frozen=True)
class SavedRun:
    path: Path
    head: str | None
    saved_at: datetime


def project_folder(root: Path, profile: str | None = None) -> Path:
    """One folder per project and profile, named by a digest of the project's resolved path and the
    profile's name (a path or name may hold any character)."""
    key = str(root.resolve()) if profile is None else f"{root.resolve()}\0{profile}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return Path(user_cache_dir("mutcheck")) / "runs" / digest


def _file_of(root: Path, head: str | None, profile: str | None) -> Path:
    return project_folder(root, profile) / f"{head or NO_HEAD}.json"


def save_run(root: Path, results: Results, profile: str | None = None) -> Path:
    """Keep `results` as the project's last run at its head, and forget all but the last heads.

    Written whole or not at all, so a reader never sees half a file."""
    target = _file_of(root, results.run.head_sha, profile)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(target, results_json(results).encode("utf-8"))
    for stale in _saved_files(target.parent)[KEPT_HEADS:]:
        stale.unlink(missing_ok=True)
    return target


def _saved_files(folder: Path) -> list[Path]:
    """The project's saved runs, the most recent first."""
    if not folder.is_dir():
        return []
    times = {path: _modified(path) for path in folder.glob("*.json") if not path.name.startswith(".")}
    saved = {path: time for path, time in times.items() if time is not None}
    return sorted(saved, key=saved.__getitem__, reverse=True)


def _modified(path: Path) -> int | None:
    """When a saved run was written (ns), or None for anything but a regular file: a link (dangling
    or not) is not one of mutcheck's, so it is neither read nor pruned."""
    try:
        status = path.lstat()
    except OSError:  # absent, or removed meanwhile
        return None
    return status.st_mtime_ns if stat.S_ISREG(status.st_mode) else None


def _saved(path: Path) -> SavedRun:
    head = None if path.stem == NO_HEAD else path.stem
    return SavedRun(path, head, datetime.fromtimestamp((_modified(path) or 0) / 1e9))


def current_run(root: Path, profile: str | None = None) -> SavedRun | None:
    """The saved run (of `profile`) at the project's head, if there is one."""
    path = _file_of(root, head_sha(root), profile)
    return _saved(path) if _modified(path) is not None else None


def latest_run(root: Path, profile: str | None = None) -> SavedRun | None:
    """The project's most recent saved run (of `profile`), at whatever head."""
    files = _saved_files(project_folder(root, profile))
    return _saved(files[0]) if files else None


def _short(head: str | None) -> str:
    return head[:SHORT_SHA] if head else "no commit"


def saved_run_here(root: Path, profile: str | None = None) -> SavedRun:
    """The saved run at the project's head; when there is none, an error that says where the last one is."""
    saved = current_run(root, profile)
    if saved is not None:
        return saved
    command = "mutcheck run" if profile is None else f"mutcheck run --profile {shlex.quote(profile)}"
    message = f"no saved run at {_short(head_sha(root))}: run `{command}` first"
    latest = latest_run(root, profile)
    if latest is not None:
        when, path = latest.saved_at.strftime(TIME_FORMAT), shlex.quote(str(latest.path))
        message += f", or render the last one, at {_short(latest.head)} ({when}): mutcheck report {path}"
    raise InputError([Problem(str(root), "", "", message)])
