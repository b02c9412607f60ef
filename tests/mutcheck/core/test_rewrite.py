"""A person's file rewritten in place: line endings, symlinks and permissions kept, nothing half-written."""

import os
import stat

import pytest

from mutcheck.core.rewrite import in_its_line_endings, read_as_kept, rewrite


def test_new_lines_end_as_every_line_of_the_file_did() -> None:
    assert in_its_line_endings("a\r\nb\nc\n", "a\r\nb\r\n") == "a\r\nb\r\nc\r\n"
    assert in_its_line_endings("a\nb\n", "a\nb\r\n") == "a\nb\n"  # mixed: left as it is
    assert in_its_line_endings("a\nb\n", None) == "a\nb\n"  # a new file
    assert in_its_line_endings("a\nb\n", "a\n") == "a\nb\n"


def test_a_symlinked_file_is_replaced_where_it_lives_with_its_permissions(tmp_path) -> None:
    real = tmp_path / "kept" / "catalog.toml"
    real.parent.mkdir()
    real.write_bytes(b"x = 1\r\n")
    real.chmod(0o640)
    link = tmp_path / "catalog.toml"
    link.symlink_to(os.path.relpath(real, tmp_path))
    assert read_as_kept(link) == "x = 1\r\n"
    rewrite(link, "x = 1\ny = 2\n")
    assert link.is_symlink() and real.read_bytes() == b"x = 1\r\ny = 2\r\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(path.name for path in tmp_path.rglob("*")) == ["catalog.toml", "catalog.toml", "kept"]


def test_a_write_that_fails_leaves_the_file_as_it_was(tmp_path) -> None:
    path = tmp_path / "catalog.toml"
    path.write_bytes(b"x = 1\n")
    with pytest.raises(UnicodeEncodeError):
        rewrite(path, "x = '\ud800'\n")  # a lone surrogate: no UTF-8 for it
    assert path.read_bytes() == b"x = 1\n" and [p.name for p in tmp_path.iterdir()] == ["catalog.toml"]
