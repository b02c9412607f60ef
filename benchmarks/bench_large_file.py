"""A large file's many edits: `mutcheck run --revert` and `mutcheck suggest` on a small and a large
generated file, and how their time per hunk or per proposal grows with the file.

Each file is N functions of ten lines with loops, conditions and comparisons; the base commit has
`>` where the head has `>=` in each, so the change has N hunks. A test calls the first function
only, so the time is mutcheck's own work with the edits (reverting, applying, comparing) and not
the tests'. Prints each size's seconds and the ratio of the time per hunk (or proposal) at the
large size to that at the small one: 1.0 is linear work per hunk, 8.0 would be quadratic.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import REPOSITORY

SMALL, LARGE = 250, 2000  # functions, hence hunks: the large file has 20,000 lines


def _function(number: int, compare: str) -> str:
    return (
        f"def f{number}(items, limit):\n"
        "    total = 0\n"
        "    for item in items:\n"
        f"        if item is None or item < {number}:\n"
        "            continue\n"
        f"        if total + item {compare} limit and limit >= 0:\n"
        "            break\n"
        "        total += item\n"
        "    return total\n"
        "\n\n"
    )


def _git(project: Path, *args: str) -> str:
    identity = ("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false")
    return subprocess.run(["git", *identity, *args], cwd=project, check=True, capture_output=True, text=True).stdout


def _project(functions: int) -> tuple[Path, str]:
    """A scratch project whose last commit changes `>` to `>=` in each of its functions; and the base."""
    project = Path(tempfile.mkdtemp(prefix="mutcheck-bench-")) / "project"
    (project / "src").mkdir(parents=True)
    (project / "tests").mkdir()
    (project / "mutants").mkdir()
    (project / "pyproject.toml").write_text(
        '[tool.mutcheck]\ntarget = ["src"]\ntests = ["tests"]\n[tool.pytest.ini_options]\npythonpath = ["src"]\n',
        encoding="utf-8",
    )
    (project / "tests/test_big.py").write_text(
        "from big import f0\n\n\ndef test_f0():\n    assert f0([1, 2, None], 10) == 3\n", encoding="utf-8"
    )
    big = project / "src/big.py"
    big.write_text("".join(_function(number, ">") for number in range(functions)), encoding="utf-8")
    _git(project, "init", "-q", "-b", "main")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "base")
    base = _git(project, "rev-parse", "HEAD").strip()
    big.write_text("".join(_function(number, ">=") for number in range(functions)), encoding="utf-8")
    _git(project, "commit", "-q", "-am", "head")
    return project, base


def _timed(project: Path, *args: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mutcheck", *args, "--project", str(project)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"mutcheck {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return seconds


def main() -> None:
    sys.path.insert(0, str(REPOSITORY / "src"))
    rows = []
    for functions in (SMALL, LARGE):
        project, base = _project(functions)
        try:
            reverting = _timed(project, "run", "--revert", base, "--only", "change-guard")
            suggesting = _timed(project, "suggest", "src/big.py")
        finally:
            shutil.rmtree(project.parent)
        rows.append((functions, reverting, suggesting))
        print(f"{functions} functions ({functions * 10} lines, {functions} hunks):", end=" ")
        print(f"run --revert {reverting:.1f} s, suggest {suggesting:.1f} s")
    (small, small_revert, small_suggest), (large, large_revert, large_suggest) = rows
    growth = large / small
    print(f"time per hunk, {large} against {small}: {large_revert / small_revert / growth:.2f}x")
    print(f"time per function suggested, {large} against {small}: {large_suggest / small_suggest / growth:.2f}x")


if __name__ == "__main__":
    main()
