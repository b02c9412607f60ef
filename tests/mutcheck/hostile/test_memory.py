"""Memory stays bounded by mutcheck's needs, not by what the suite prints: a test that writes
200 MB under `-s` leaves the run's largest process far below that."""

import subprocess
import sys

from tests.mutcheck.engine_project import make_engine_project

LOUD = """\
import sys


def test_loud():
    chunk = "x" * 1023 + "\\n"
    for _ in range(200 * 1024):
        sys.stdout.write(chunk)
"""

# The largest resident set of any process the run waited for (the engine, its hosts, their tests),
# measured in a fresh interpreter so that no earlier test's processes count.
MEASURE = """\
import resource, subprocess, sys
done = subprocess.run([sys.executable, "-m", "mutcheck", "run", "--only", "SWAP", "--project", sys.argv[1]],
                      capture_output=True)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
"""


def test_a_suite_that_prints_200_mb_under_s_is_run_in_bounded_memory(tmp_path):
    project = make_engine_project(tmp_path / "project")
    (project / "tests" / "test_loud.py").write_text(LOUD, encoding="utf-8")
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace('pythonpath = ["src"]', 'pythonpath = ["src"]\naddopts = "-s"'), encoding="utf-8")
    measured = subprocess.run([sys.executable, "-c", MEASURE, str(project)], capture_output=True, text=True, check=True)
    status, megabytes = map(int, measured.stdout.split())
    assert status == 0
    assert megabytes < 150, f"{megabytes} MB"
