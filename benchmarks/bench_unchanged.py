"""An unchanged re-run against a fresh one: the embedded targets (both), in a scratch copy with a
cache folder of its own. Three fresh runs (--fresh), then three unchanged ones (taken whole from the
reuse store, no pytest started), then one after a test was added to a test file (pytest starts; the
new test runs under the mutants it reaches, every other test keeps its outcomes). Prints each median
and the ratio, measured in one run.
"""

import os
import shutil
import statistics
import tempfile

from common import cleanup, run_mutcheck, scratch_repository

ROUNDS = 3
EDITED = "tests/bridge/test_leak.py"  # one test file of the bridge target


def main() -> None:
    cache = tempfile.mkdtemp(prefix="mutcheck-bench-cache-")
    os.environ["XDG_CACHE_HOME"] = cache  # the runs inherit it
    project = scratch_repository()
    try:
        fresh = [run_mutcheck(project, "--fresh") for _ in range(ROUNDS)]
        unchanged = [run_mutcheck(project) for _ in range(ROUNDS)]
        path = project / EDITED
        path.write_text(path.read_text(encoding="utf-8") + "\n\ndef test_added():\n    assert True\n", encoding="utf-8")
        edited_seconds, edited = run_mutcheck(project)
    finally:
        cleanup(project)
        shutil.rmtree(cache, ignore_errors=True)
    for label, runs in (("fresh", fresh), ("unchanged", unchanged)):
        summary = runs[-1][1]["summary"]
        print(
            f"{label:>10}: median {statistics.median(s for s, _ in runs):6.2f} s of {[round(s, 2) for s, _ in runs]}"
            f"  ({summary['mutants']} mutants, {summary['reused_tests']} of {summary['reuse_considered']} "
            "test outcomes reused)"
        )
    verdicts = [
        {m["id"]: (m["verdict"], m["killers"]) for m in data["mutants"]} for _, data in (fresh[-1], unchanged[-1])
    ]
    print(f"   verdicts and killing sets equal: {verdicts[0] == verdicts[1]}")
    ratio = statistics.median(s for s, _ in fresh) / statistics.median(s for s, _ in unchanged)
    print(f"unchanged re-run: {ratio:.1f}x faster than a fresh run")
    summary = edited["summary"]
    print(
        f"after adding a test to {EDITED}: {edited_seconds:.2f} s, {summary['reused_tests']} of "
        f"{summary['reuse_considered']} test outcomes reused, "
        f"{statistics.median(s for s, _ in fresh) / edited_seconds:.1f}x faster than fresh"
    )


if __name__ == "__main__":
    main()
