"""A git repository whose head commit changes two guards of a history-merging function: one with
a new test that fails on the base, one with no test; plus a comment-only hunk."""

import subprocess
from pathlib import Path

from tests.mutcheck.engine_project import families, pyproject

BASE_SOURCE = '''\
"""Merges a model turn's parts."""


def merge_parts(parts):
    merged = []
    for part in parts:
        if merged and part["kind"] == "thought":
            merged[-1]["text"] += part["text"]
        else:
            merged.append(dict(part))
    return merged


def keep_call(call):
    return call.get("name") is not None
'''

HEAD_SOURCE = '''\
"""Merges a model turn's parts."""


def merge_parts(parts):
    merged = []  # in stream order
    for part in parts:
        if merged and part["kind"] == "thought" and not part.get("signature"):
            merged[-1]["text"] += part["text"]
        else:
            merged.append(dict(part))
    return merged


def keep_call(call):
    return call.get("name") is not None and call.get("id") is not None
'''

BASE_TESTS = """\
from merging import keep_call, merge_parts


def test_text_parts_are_kept():
    assert merge_parts([{"kind": "text", "text": "a"}]) == [{"kind": "text", "text": "a"}]


def test_a_named_call_is_kept():
    assert keep_call({"name": "read", "id": "c1"})
"""

HEAD_TESTS = (
    BASE_TESTS
    + '''

def test_signed_thought_starts_its_own_episode():
    """A signed thought after another thought keeps its own signature."""
    parts = [
        {"kind": "thought", "text": "A", "signature": "sA"},
        {"kind": "thought", "text": "B", "signature": "sB"},
    ]
    assert [part["signature"] for part in merge_parts(parts)] == ["sA", "sB"]
'''
)

GUARDED_HUNK = "revert:src/merging.py:2"  # the signature guard
UNGUARDED_HUNK = "revert:src/merging.py:3"  # the call-id guard, which no test checks
COMMENT_HUNK = "revert:src/merging.py:1"  # a comment added on the line before
NEW_TEST = "tests/test_merging.py::test_signed_thought_starts_its_own_episode"


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def make_history(root: Path, base_files: dict[str, str], head_files: dict[str, str], commit_head: bool = True) -> str:
    """A fixture project whose base commit holds `base_files`, with `head_files` written over them
    (committed as the head unless `commit_head` is false); returns the base commit's SHA."""
    (root / "mutants").mkdir(parents=True)
    (root / "pyproject.toml").write_text(pyproject("revert-fixture", timeout_constant=2.0), encoding="utf-8")
    (root / "mutants" / "families.toml").write_text(families("merge", "merging", "合并"), encoding="utf-8")
    (root / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n", encoding="utf-8")
    identity = ("-c", "user.name=t", "-c", "user.email=t@example.com")
    for files in (base_files, head_files):
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        if files is base_files:
            git(root, "init", "-q", "-b", "main")
            git(root, "add", ".")
            git(root, *identity, "commit", "-q", "-m", "base")
            base = git(root, "rev-parse", "HEAD").strip()
    if commit_head:
        git(root, "add", ".")
        git(root, *identity, "commit", "-q", "-m", "head")
    return base


def make_revert_project(root: Path) -> str:
    """The repository at its head commit; returns the base commit's SHA."""
    return make_history(
        root,
        {"src/merging.py": BASE_SOURCE, "tests/test_merging.py": BASE_TESTS},
        {"src/merging.py": HEAD_SOURCE, "tests/test_merging.py": HEAD_TESTS},
    )
