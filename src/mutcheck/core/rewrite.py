"""A person's file rewritten in place as they keep it: its line endings, the file a symlink names,
its permissions; written whole or not at all."""

import re
from pathlib import Path

from mutcheck.core.atomic_write import write_atomically

_BARE_NEWLINE = re.compile(r"(?<!\r)\n")


def read_as_kept(path: Path) -> str:
    """The file's UTF-8 text with its line endings as they are (no newline translation)."""
    return path.read_bytes().decode("utf-8")


def in_its_line_endings(text: str, before: str | None) -> str:
    """`text` with the line endings of `before`: where every line of it ended in CRLF, the new lines
    do too (an editor or git on Windows keeps a file so); otherwise `text` as it is."""
    if before is None or "\r\n" not in before or _BARE_NEWLINE.search(before):
        return text
    return _BARE_NEWLINE.sub("\r\n", text)


def rewrite(path: Path, text: str) -> None:
    """Replace the file at `path` with `text` in its own line endings; a symlink stays a symlink
    and the file it names is replaced, with its permission bits. Written beside it, then moved."""
    target = path.resolve() if path.is_symlink() else path
    before = read_as_kept(target) if target.is_file() else None
    write_atomically(
        target, in_its_line_endings(text, before).encode("utf-8"), mode_of=target if before is not None else None
    )
