"""`mutcheck harden --all-survivors` on a project, and every hardened mutant's test checked by hand:
the mutant written into the source, plain pytest run on its test with and without it.

    python benchmarks/harden_survivors.py [PROJECT --out TESTS_FILE] [--suggest FILE ...]

Without PROJECT: a fresh clone of this repository, `mutcheck suggest` on every file of both
embedded targets (their gaps are the survivors), the tests written to tests/test_mutcheck_guards.py.
With PROJECT: its catalog's gaps as they are (after `suggest` on each `--suggest FILE`), the tests
written to `--out` (relative to PROJECT). Prints each mutant's line, the counts, the share hardened
among survivors whose tests call the mutated function, harden's wall time, and for every hardened
mutant whether its test (two mutants may share one) passes on the original and fails with the
mutant under plain pytest. Exits 1 when one does not.
"""

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPOSITORY / "src"), str(REPOSITORY)]

from mutcheck.catalog.config import load_config  # noqa: E402
from mutcheck.catalog.project_catalog import catalog_of  # noqa: E402
from mutcheck.mutation.mutate import apply_mutant  # noqa: E402

EMBEDDED = ("src/consolidation", "src/bridge")
STATUS = re.compile(r"^(hardened|gave-up|equivalent-in-practice|not-a-survivor): (\S+)")
HARDENED = re.compile(r"^hardened: (\S+)  by (\S+)", re.MULTILINE)


def mutcheck(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mutcheck", *args], cwd=project, capture_output=True, text=True)


def plain_pytest(project: Path, test: str) -> int:
    command = [sys.executable, "-m", "pytest", test, "-q", "-p", "no:cacheprovider"]
    return subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=600).returncode


def verify(project: Path, proven: dict[str, str]) -> list[tuple[str, str, int, int]]:
    """(test, mutant id, exit status on the original, exit status with the mutant) per hardened
    mutant (`proven`: its id and the node id of its test; two mutants may share one)."""
    mutants = {mutant.id: mutant for mutant in catalog_of(load_config(project)).mutants}
    checked = []
    for mutant_id, test in proven.items():
        mutant = mutants[mutant_id]
        applied = apply_mutant(mutant, project)
        path = project / mutant.file
        original = path.read_bytes()
        passed = plain_pytest(project, test)
        path.write_text(applied.mutated, encoding=applied.encoding)
        try:
            failed = plain_pytest(project, test)
        finally:
            path.write_bytes(original)
        checked.append((test, mutant.id, passed, failed))
    return checked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", nargs="?", type=Path)
    parser.add_argument("--out", default="tests/test_mutcheck_guards.py")
    parser.add_argument("--suggest", nargs="*", default=None, help="files to run suggest on first")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mutcheck-harden-") as scratch:
        project = options.project
        suggest = options.suggest or []
        if project is None:
            project = Path(scratch) / "repository"
            subprocess.run(["git", "clone", "-q", str(REPOSITORY), str(project)], check=True)
            files = [path for folder in EMBEDDED for path in sorted((project / folder).glob("*.py"))]
            suggest = [str(path.relative_to(project)) for path in files if path.name != "__init__.py"]
        for file in suggest:
            done = mutcheck(project, "suggest", file)
            print(f"suggest {file}: exit {done.returncode}; {(done.stdout.strip().splitlines() or [''])[-1][:160]}")
        started = time.monotonic()
        done = mutcheck(project, "harden", "--all-survivors", "--out", options.out)
        seconds = time.monotonic() - started
        lines = [line for line in done.stdout.splitlines() if STATUS.match(line) or line.startswith("hardened ")]
        print("\n".join(lines) or done.stdout + done.stderr)
        print(f"harden: exit {done.returncode}, {seconds:.0f} s")
        if not (project / options.out).is_file():
            print("no test written")
            return 0 if done.returncode == 0 else 1
        checked = verify(project, dict(HARDENED.findall(done.stdout)))
        wrong = [row for row in checked if row[2:] != (0, 1)]
        for test, mutant, passed, failed in wrong:
            print(f"NOT PROVEN: {test} ({mutant}): exit {passed} on the original, {failed} with the mutant")
        print(
            f"plain pytest: {len(checked) - len(wrong)} of {len(checked)} hardened mutants' tests pass on the "
            "original and fail with their mutant"
        )
        return 1 if wrong or done.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
