"""Shared pieces of the benchmark scripts: scratch copies, timed mutcheck runs and naive runs."""

import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY / "src"))

from mutcheck.sandbox.scratch import copy_project  # noqa: E402


def end_on_sigterm() -> None:
    """SIGTERM ends the script as Ctrl-C does: its `finally` blocks and temporary folders clean up, and
    the child it waits for in `run_child` is stopped first."""
    signal.signal(signal.SIGTERM, lambda number, _frame: sys.exit(128 + number))


def run_child(command: list[str], **options: object) -> subprocess.CompletedProcess:
    """`subprocess.run`, but a script ended meanwhile asks the child to stop (SIGTERM: `mutcheck run`
    then ends its test processes and removes its scratch folder) and kills it only if it does not."""
    with subprocess.Popen(command, **options) as process:
        try:
            output, errors = process.communicate()
        except BaseException:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            raise
    return subprocess.CompletedProcess(command, process.returncode, output, errors)


def naive_environment() -> dict[str, str]:
    """The environment as it is now, with the hypothesis settings mutcheck's runs get (see
    tests/conftest.py)."""
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MUTCHECK_RUNNING": "1"}


def scratch_repository() -> Path:
    project = Path(tempfile.mkdtemp(prefix="mutcheck-bench-")) / "project"
    copy_project(REPOSITORY, project)
    return project


def run_mutcheck(project: Path, *args: str) -> tuple[float, dict]:
    """Wall seconds of a whole `mutcheck run`, and its results document."""
    results = project.parent / f"results-{time.monotonic_ns()}.json"
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mutcheck", "run", "--project", str(project), "--json", str(results), *args],
        check=False,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    return time.perf_counter() - start, json.loads(results.read_text(encoding="utf-8"))


def _naive_one(project: Path, applied, tests: list[str], work: Path) -> int:
    """A scratch copy with the mutant's files written and one fresh pytest over the whole suite;
    the number of failing tests, read back from --junitxml."""
    copy = work / f"naive-{applied.mutant.id.replace('/', '_')}"
    shutil.copytree(project, copy)
    for edit in applied.files_written():  # a reverted change may add, remove or span files
        if edit.text is None:
            (copy / edit.path).unlink()
        else:
            (copy / edit.path).write_text(edit.text, encoding=edit.encoding)
    report = copy / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests, f"--junitxml={report}"],
        cwd=copy,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=naive_environment(),
        check=False,
    )
    failures = sum(
        case.find("failure") is not None or case.find("error") is not None
        for case in ElementTree.parse(report).iter("testcase")
    )
    shutil.rmtree(copy)
    return failures


def run_naive(project: Path, applied: list, tests: list[str], jobs: int) -> tuple[float, list[int]]:
    """Naive mutation testing, as many pytest processes at once as mutcheck has workers: wall
    seconds, and the failing-test count per mutant."""
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        failures = list(pool.map(lambda one: _naive_one(project, one, tests, project.parent), applied))
    return time.perf_counter() - start, failures


def agreement(failures: list[int], results: dict) -> int:
    """Mutants on which naive (any failing test) and mutcheck (verdict killed) agree."""
    return sum(
        (count > 0) == (entry["verdict"] == "killed") for count, entry in zip(failures, results["mutants"], strict=True)
    )


def print_ratios(pairs: list[tuple[float, float]]) -> None:
    """One line per round (mutcheck, naive), then the median ratio."""
    for number, (mutcheck_seconds, naive_seconds) in enumerate(pairs, start=1):
        print(
            f"round {number}: mutcheck {mutcheck_seconds:.1f} s, naive {naive_seconds:.1f} s: "
            f"{naive_seconds / mutcheck_seconds:.1f}x"
        )
    ratios = [naive / mutcheck for mutcheck, naive in pairs]
    print(f"speed-up, median of {len(pairs)} rounds: {statistics.median(ratios):.1f}x")


def compare_with_naive(
    project: Path, tests: list[str], rounds: int, target: str | None = None
) -> tuple[dict, list[int], int]:
    """`rounds` alternating mutcheck and naive runs of the project's catalog (with `target`, that
    target's of [tool.mutcheck.targets]), each round's ratio and the median printed; the last
    results, the last naive failure counts and the mutant count."""
    from mutcheck.catalog.catalog import load_catalog
    from mutcheck.catalog.config import load_config
    from mutcheck.mutation.mutate import apply_mutant

    jobs = os.cpu_count() or 1
    config = load_config(project)
    chosen = config.chosen_targets((target,)).each_target()[0] if target else config
    catalog = load_catalog(chosen.catalog_dir, project, config.languages)
    applied = [apply_mutant(mutant, project) for mutant in catalog.mutants]
    chosen_target = ["--target", target] if target else []
    pairs = []
    for _ in range(rounds):
        # --fresh: every round runs every mutant, as naive does (none taken from the round before)
        mutcheck_seconds, results = run_mutcheck(project, "--jobs", str(jobs), "--fresh", *chosen_target)
        naive_seconds, failures = run_naive(project, applied, tests, jobs)
        pairs.append((mutcheck_seconds, naive_seconds))
    print(f"mutants: {len(applied)}, tests: {len(results['tests'])}, workers: {jobs}")
    print_ratios(pairs)
    print("mutcheck phases (last round, s):", results["run"]["timings"])
    print(f"killed/not-killed agreement: {agreement(failures, results)}/{len(applied)}")
    return results, failures, len(applied)


def cleanup(project: Path) -> None:
    shutil.rmtree(project.parent, ignore_errors=True)
