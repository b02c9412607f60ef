"""core.atomic_write: a file replaced whole or not at all."""

import os
import stat
from pathlib import Path

import pytest

from mutcheck.core.atomic_write import write_atomically


def test_the_file_holds_the_new_bytes_and_nothing_else_is_left_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "store.json"
    path.write_bytes(b"old")
    write_atomically(path, b"new")
    assert path.read_bytes() == b"new"
    assert sorted(os.listdir(tmp_path)) == ["store.json"]


def test_the_permission_bits_are_taken_from_the_file_named(tmp_path: Path) -> None:
    path = tmp_path / "script.py"
    path.write_text("old")
    path.chmod(0o751)
    write_atomically(path, b"new", mode_of=path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o751


def test_a_write_that_fails_midway_leaves_the_old_bytes_and_no_partial_file(tmp_path: Path) -> None:
    path = tmp_path / "kept.txt"
    path.write_bytes(b"old")
    with pytest.raises(FileNotFoundError):
        write_atomically(path, b"new", mode_of=tmp_path / "missing")  # fails after the bytes are written
    assert path.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["kept.txt"]
