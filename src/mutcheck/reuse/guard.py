"""The reuse store as the tests found it: whatever in its folder changed while the project's code ran
(a test that writes there, or a process it left behind) is removed, so that a hostile test can only
make the next run run more, never make it reuse what it wrote."""

import os
import shutil
from pathlib import Path

from platformdirs import user_cache_dir

# inode, size and status-change time (ns): any write, replacement or `utime` changes one; no user can set it back
Stamp = tuple[int, int, int]


def store_folder() -> Path:
    return Path(user_cache_dir("mutcheck")) / "reuse"


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


def undo_changes(folder: Path, before: dict[str, Stamp]) -> list[str]:
    """Remove every entry that is new or changed since `before` (a changed folder, too); their names."""
    removed = []
    for name, stamp in stamps(folder).items():
        if before.get(name) != stamp:
            path = folder / name
            try:
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink()
            except OSError:
                continue
            removed.append(name)
    return sorted(removed)
