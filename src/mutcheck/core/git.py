"""git, run one way by every caller: neither the user's settings nor the change's attributes reshape
what mutcheck reads."""

import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from mutcheck.core.problems import InputError, Problem

if TYPE_CHECKING:  # rendering a results file needs git's helpers, not unidiff
    from unidiff import PatchedFile

# File names as they are (not octal escapes), whatever the user's configuration says.
_GIT = ("git", "-c", "core.quotePath=false")
# The user's settings, or attributes the change itself adds (`*.py -diff`, a textconv driver),
# would change the hunks or their paths: colour, an external tool, a text conversion, a file
# shown as "binary", rename detection, prefixes other than a/ and b/, hunks merged across lines.
DIFF_OPTIONS = (
    "--relative",
    "--unified=0",
    "--inter-hunk-context=0",
    "--text",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
)
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
_ESCAPE = re.compile(r'\\([0-7]{3}|[abtnvfr"\\])')


def run(root: Path, base: str, *args: str, option: str) -> bytes:
    """git's output, or one line naming `option` and what git said."""
    completed = subprocess.run([*_GIT, *args], cwd=root, capture_output=True, check=False)
    if completed.returncode != 0:
        # merge-base fails without a word when the histories share no commit.
        reason = completed.stderr.decode(errors="replace").strip() or "no common ancestor with HEAD"
        shallow = subprocess.run([*_GIT, "rev-parse", "--is-shallow-repository"], cwd=root, capture_output=True)
        if shallow.stdout.strip() == b"true":
            reason += " (the clone is shallow: fetch its history, e.g. actions/checkout with fetch-depth: 0)"
        raise InputError([Problem(option, "", "", f"git {args[0]} {base} failed: {reason}")])
    return completed.stdout


def output(root: Path, *args: str) -> bytes | None:
    """git's output where git may rightly fail (no repository, no commit yet): None then."""
    completed = subprocess.run([*_GIT, *args], cwd=root, capture_output=True, check=False)
    return completed.stdout if completed.returncode == 0 else None


def head_sha(root: Path) -> str | None:
    head = output(root, "rev-parse", "HEAD")
    return head.decode().strip() if head is not None else None


def uncommitted_changes(root: Path) -> bool | None:
    """Whether tracked files differ from the head commit (None outside git): the run then tested
    code no commit holds. Untracked files do not count: CI writes its own (results, installs)."""
    status = output(root, "status", "--porcelain", "--untracked-files=no")
    return bool(status.strip()) if status is not None else None


def unquoted(name: str) -> str:
    """A file name as git wrote it in a diff header, without the C-style quotes git puts around
    a name holding a quote, a backslash or a control character."""
    if not (len(name) >= 2 and name[0] == name[-1] == '"'):
        return name
    raw = bytearray()
    position = 0
    body = name[1:-1]
    for escape in _ESCAPE.finditer(body):
        raw += body[position : escape.start()].encode(errors="surrogateescape")
        code = escape.group(1)
        raw.append(int(code, 8) if len(code) == 3 else _ESCAPES[code])
        position = escape.end()
    raw += body[position:].encode(errors="surrogateescape")
    return raw.decode("utf-8", errors="surrogateescape")


def patched_path(file: "PatchedFile") -> str:
    """The file's path relative to the diff's root (`--relative`), quoted names unquoted."""
    side = file.target_file if file.target_file != "/dev/null" else file.source_file
    name = unquoted(side)
    return name[2:] if name[:2] in ("a/", "b/") else name
