"""A file replaced whole or not at all: written under a temporary name beside it, then renamed, so a
reader sees the old bytes or the new ones, never half of them."""

import os
import shutil
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: bytes, *, mode_of: Path | None = None) -> None:
    """`path` now holds `data`; with `mode_of`, the permission bits of that file too. The temporary
    file starts with a dot and ends in `.partial`, so a reader listing the folder skips it."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        if mode_of is not None:
            shutil.copymode(mode_of, temporary)
        os.replace(temporary, path)
    finally:
        Path(temporary).unlink(missing_ok=True)
