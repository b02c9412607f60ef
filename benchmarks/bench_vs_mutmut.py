"""mutmut's own run vs mutcheck --generic on the same mutants of the reference implementation.

mutmut runs in its first-kill mode (`pytest -x` per mutant); mutcheck runs the full matrix
(every selected test under every mutant). Both get the same hypothesis settings. Prints both
wall times, the ratio and how many verdicts agree.
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import REPOSITORY, cleanup, run_mutcheck, scratch_repository

MUTMUT_STATUS = {0: "survived", 1: "killed", 3: "killed", 33: "no-coverage", 5: "no-coverage", 36: "timeout"}
MUTMUT_STATUS.update({code: "timeout" for code in (-24, 24, 152, 255)})


def mutmut_run(project: Path) -> tuple[float, dict[str, str]]:
    copy = project.parent / "for-mutmut"
    shutil.copytree(project, copy)
    shutil.rmtree(copy / "mutants")  # mutmut works in ./mutants, where the catalog lives
    with (copy / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write(
            '\n[tool.mutmut]\nsource_paths = ["src/consolidation"]\n'
            'pytest_add_cli_args_test_selection = ["tests/consolidation"]\n'
        )
    start = time.perf_counter()
    subprocess.run(
        [str(Path(sys.executable).parent / "mutmut"), "run"],
        cwd=copy,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MUTCHECK_RUNNING": "1"},
        check=True,
    )
    seconds = time.perf_counter() - start
    verdicts = {}
    for meta in (copy / "mutants").rglob("*.meta"):
        for key, code in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].items():
            verdicts[key] = MUTMUT_STATUS.get(code, f"other {code}")
    return seconds, verdicts


def main() -> None:
    project = scratch_repository()
    mutmut_seconds, theirs = mutmut_run(project)
    mutcheck_seconds, results = run_mutcheck(project, "--target", "consolidation", "--generic", "--only", "generic")
    cleanup(project)
    ours = {mutant["id"]: mutant["verdict"] for mutant in results["mutants"] if mutant["generic"]}
    agree = sum(ours.get(key) == verdict for key, verdict in theirs.items())
    runs = sum(len(mutant["selected"]) for mutant in results["mutants"])
    print(f"mutants: mutmut {len(theirs)}, mutcheck {len(ours)}; workers: {results['run']['jobs']}")
    print(f"mutmut run (first kill per mutant):            {mutmut_seconds:.1f} s")
    print(f"mutcheck run --generic (full matrix, {runs} test runs): {mutcheck_seconds:.1f} s")
    print(f"ratio mutcheck / mutmut: {mutcheck_seconds / mutmut_seconds:.2f}")
    print(f"verdict agreement: {agree}/{len(theirs)}")
    for key, verdict in sorted(theirs.items()):
        if ours.get(key) != verdict:
            print(f"  differs: {key}: mutmut {verdict}, mutcheck {ours.get(key)}")


if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))
    main()
