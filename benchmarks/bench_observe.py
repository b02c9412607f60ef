"""What observing costs: a fresh run (`--fresh`) of the embedded targets with this mutcheck, against
the same with mutcheck as it was before its test processes observed what each test reads (BASE,
default 964b033: its runs kept per-mutant evidence, not per-test), in turn, in one run. Both run the
same project: a scratch copy of this repository at this commit, each with a cache folder of its own.

    python benchmarks/bench_observe.py [--base REV] [--rounds N]

BASE's mutcheck is checked out in a temporary git worktree and imported from there (PYTHONPATH), with
this interpreter and its packages. Prints each side's median and the ratio.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import REPOSITORY, cleanup, scratch_repository


def timed(project: Path, source: Path, cache: Path) -> float:
    """Wall seconds of one `mutcheck run --fresh` with mutcheck imported from `source`."""
    environment = {**os.environ, "PYTHONPATH": str(source), "XDG_CACHE_HOME": str(cache)}
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mutcheck", "run", "--project", str(project), "--fresh"],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"mutcheck from {source} exited {done.returncode}: {done.stderr[-2000:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="964b033")
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mutcheck-observe-"))
    base = work / "base"
    subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base), arguments.base], cwd=REPOSITORY, check=True)
    project = scratch_repository()
    sides = {"now": REPOSITORY / "src", "before": base / "src"}
    seconds: dict[str, list[float]] = {side: [] for side in sides}
    try:
        for side, source in sides.items():  # a warm-up each
            timed(project, source, work / f"cache-{side}")
        for _ in range(arguments.rounds):
            for side, source in sides.items():
                seconds[side].append(timed(project, source, work / f"cache-{side}"))
    finally:
        cleanup(project)
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=REPOSITORY, check=False)
        shutil.rmtree(work, ignore_errors=True)
    for side, found in seconds.items():
        print(f"{side:>7}: median {statistics.median(found):6.2f} s of {[round(value, 2) for value in found]}")
    ratio = statistics.median(seconds["now"]) / statistics.median(seconds["before"])
    print(f"a fresh run observing each test: {ratio:.2f}x the time of one before it ({arguments.base})")


if __name__ == "__main__":
    main()
