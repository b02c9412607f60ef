"""The change since BASE's merge base, file by file: each target file's text on both sides, and git's hunks."""

import os
from dataclasses import dataclass
from pathlib import Path

from unidiff import Hunk, PatchSet

from mutcheck.core import git
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.source_text import decode_source, read_source

OPTION = "--revert"


@dataclass(frozen=True)
class FileChange:
    """One changed target file: its text in the working tree and at the merge base (None where it
    does not exist), and git's hunks between them (none when git cannot give them one by one)."""

    path: str
    head: str | None
    base: str | None
    hunks: tuple[Hunk, ...]
    base_link: str | None = None  # where the file led at the merge base, when it was a symbolic link there


def _git(root: Path, base: str, *args: str, option: str = OPTION) -> bytes:
    return git.run(root, base, *args, option=option)


def _read(root: Path, path: str) -> str:
    try:
        return read_source(root / path)[0]
    except (OSError, SyntaxError, UnicodeDecodeError) as error:
        raise InputError([Problem(path, "", OPTION, f"cannot be read as Python source: {error}")]) from error


def merge_base(root: Path, base: str, option: str = OPTION) -> str:
    return _git(root, base, "merge-base", base, "HEAD", option=option).decode().strip()


def text_at(root: Path, commit: str, path: str, option: str) -> str | None:
    """A Python file's text at `commit` (its path relative to the project), or None where it does not
    exist there or cannot be read as Python source."""
    listed = _git(root, commit, "ls-tree", "--name-only", commit, "--", f"./{path}", option=option)
    if not listed.strip():
        return None
    try:
        return decode_source(_git(root, commit, "show", f"{commit}:./{path}", option=option))[0]
    except (SyntaxError, UnicodeDecodeError):
        return None


def _link_at(root: Path, base: str, commit: str, path: str) -> str | None:
    """Where `path` leads at `commit`, when it is a symbolic link there (git's mode 120000)."""
    listed = _git(root, base, "ls-tree", "-z", commit, "--", f"./{path}")
    if not listed.startswith(b"120000 "):
        return None
    return os.fsdecode(_git(root, base, "show", f"{commit}:./{path}"))


def changed_files(
    root: Path, base: str, parted: str, targets: tuple[str, ...], left_out: tuple[str, ...]
) -> list[FileChange]:
    """The Python files under `targets` (but not under `left_out`, the tests) that differ between
    the merge base `parted` and the working tree, untracked ones included, sorted by path."""
    specs = ("--", *targets, *(f":(exclude){path}" for path in left_out))
    diff = _git(root, base, "diff", *git.DIFF_OPTIONS, parted, *specs).decode(errors="surrogateescape")
    patched = {}
    for file in PatchSet(diff):
        path = git.patched_path(file)
        if path.endswith(".py") and not file.is_binary_file:
            # A file turned into a symlink (or the reverse) is two patches of one path: taken whole.
            patched[path] = None if path in patched else file
    untracked = _git(root, base, "ls-files", "-z", "--others", "--exclude-standard", *specs).decode(
        errors="surrogateescape"
    )
    paths = sorted({*patched, *(name for name in untracked.split("\0") if name.endswith(".py"))})
    changes = []
    for path in paths:
        head = _read(root, path) if (root / path).is_file() else None
        in_base = path in patched and not (patched[path] is not None and patched[path].is_added_file)
        # "./": the path is the project's (`--relative`), which may be a folder of the repository.
        base_link = _link_at(root, base, parted, path) if in_base else None
        if base_link is not None:  # the text is where the link led, as the tests read it there
            led_to = os.path.normpath(os.path.join(os.path.dirname(path), base_link))
            base_text = (text_at(root, parted, led_to, OPTION) if not led_to.startswith("..") else None) or ""
        else:
            base_text = decode_source(_git(root, base, "show", f"{parted}:./{path}"))[0] if in_base else None
        if head == base_text and base_link is None:
            continue
        file = patched.get(path)
        modified = file is not None and not (file.is_added_file or file.is_removed_file) and base_link is None
        changes.append(FileChange(path, head, base_text, tuple(file) if modified else (), base_link))
    return changes
