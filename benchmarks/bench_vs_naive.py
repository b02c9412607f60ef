"""mutcheck vs naive mutation testing on the reference catalog, full matrix, measured in one run.

Naive: for every mutant, a scratch copy with the mutated file written and one fresh
`python -m pytest` process over the whole suite, the matrix read back from --junitxml; as many
such processes at once as mutcheck has workers. Both sides use the same hypothesis settings.
Prints both wall times and the ratio.
"""

import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import REPOSITORY, cleanup, run_mutcheck, scratch_repository

from mutcheck.catalog import load_catalog
from mutcheck.config import load_config
from mutcheck.mutate import apply_mutant


def naive_one(project: Path, applied, work: Path) -> int:
    copy = work / applied.mutant.id
    shutil.copytree(project, copy)
    (copy / applied.mutant.file).write_text(applied.mutated, encoding="utf-8")
    report = copy / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/consolidation", f"--junitxml={report}"],
        cwd=copy,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MUTCHECK_RUNNING": "1"},
        check=False,
    )
    failures = sum(
        case.find("failure") is not None or case.find("error") is not None
        for case in ElementTree.parse(report).iter("testcase")
    )
    shutil.rmtree(copy)
    return failures


def main() -> None:
    project = scratch_repository()
    jobs = os.cpu_count() or 1
    catalog = load_catalog(project / "mutants", project, load_config(project).languages)
    applied = [apply_mutant(mutant, project) for mutant in catalog.mutants]

    mutcheck_seconds, results = run_mutcheck(project, "--jobs", str(jobs))
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        killed = list(pool.map(lambda a: naive_one(project, a, project.parent), applied))
    naive_seconds = time.perf_counter() - start
    cleanup(project)

    agree = sum(
        (failures > 0) == (entry["verdict"] == "killed")
        for failures, entry in zip(killed, results["mutants"], strict=True)
    )
    print(f"mutants: {len(applied)}, tests: {len(results['tests'])}, workers: {jobs}")
    print(f"mutcheck run (whole command, full matrix): {mutcheck_seconds:.1f} s")
    print(f"naive pytest per mutant (full suite each):  {naive_seconds:.1f} s")
    print(f"speed-up: {naive_seconds / mutcheck_seconds:.1f}x")
    print(f"killed/not-killed agreement: {agree}/{len(applied)}")


if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))
    main()
