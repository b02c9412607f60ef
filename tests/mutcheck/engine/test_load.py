"""A loaded machine does not change the matrix: time limits are charged in a test's own time."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mutcheck.engine_project import make_engine_project

# About a third of a second of CPU before the assertion that the SWAP mutant breaks.
SLOW_TEST = """

def test_slow_then_clamp():
    total = 0
    for number in range(3_000_000):
        total += number
    assert clamp(5, 0, 10) == 5
"""
HOGS = 6  # busy processes sharing the run's one CPU: the test takes ~7x longer by the wall clock


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")
def test_load_that_starts_after_the_baseline_does_not_turn_a_failure_into_a_timeout(tmp_path):
    project = make_engine_project(tmp_path / "project")
    tests = project / "tests/test_tiny.py"
    tests.write_text(tests.read_text() + SLOW_TEST)
    results = tmp_path / "results.json"
    cpu = min(os.sched_getaffinity(0))
    command = [sys.executable, "-m", "mutcheck", "run", "--project", str(project), "--only", "SWAP"]
    command += ["--jobs", "1", "--timeout-factor", "1.5", "--timeout-constant", "0.2", "--json", str(results)]
    run = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    hogs: list[subprocess.Popen] = []
    output = []
    try:
        for line in run.stdout:
            output.append(line)
            if line.startswith("running ") and not hogs:  # the baseline is done; load the CPU now
                hogs = [
                    subprocess.Popen(
                        [sys.executable, "-c", "while True: pass"],
                        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
                    )
                    for _ in range(HOGS)
                ]
        run.wait()
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert hogs, "".join(output)
    data = json.loads(Path(results).read_text())
    index = data["tests"].index("tests/test_tiny.py::test_slow_then_clamp")
    swap = data["mutants"][0]
    assert swap["outcomes"][str(index)] == "failed", "".join(output)
    assert run.returncode == 0, "".join(output)
