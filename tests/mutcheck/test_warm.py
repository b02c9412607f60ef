"""Plugin caches built once in the host are inherited by every child: nothing is built twice."""

from mutcheck.exit_code import ExitCode
from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.test_engine import mutant, outcome, run

# Passes only where the host built Hypothesis's caches before forking: the test checks them
# before its own first draw would build them.
WARM_TEST = """

from hypothesis import given, strategies
from hypothesis.internal.conjecture import providers

_TEXT = strategies.text(max_size=3)


@given(_TEXT)
def test_clamp_of_text_length_with_warm_caches(text):
    assert providers._sys_modules_len is not None
    assert _TEXT.validate_called
    assert clamp(len(text), 0, 10) == len(text)
"""


def test_hypothesis_caches_are_warm_in_every_child(tmp_path):
    project = make_engine_project(tmp_path / "project")
    tests = project / "tests/test_tiny.py"
    tests.write_text(tests.read_text() + WARM_TEST)
    code, output, data = run(project, "--only", "SURVIVOR")
    assert data["baseline"]["ok"], output
    survivor = mutant(data, "SURVIVOR")
    assert outcome(data, survivor, "test_clamp_of_text_length_with_warm_caches") == "passed", output
    assert code == ExitCode.EXPECTATION_FAILED  # SURVIVOR is the fixture's unexpected survivor
