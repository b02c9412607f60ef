"""Plugin caches built once in the host are inherited by every child: nothing is built twice."""

import pytest
from hypothesis.internal.conjecture import providers

from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.cli_runs import mutant, outcome, run
from tests.mutcheck.engine_project import make_engine_project

# Passes only where the host built Hypothesis's caches before forking: the fixture looks at
# them at setup, before the test's first draw would build them.
WARM_TEST = """

import pytest
from hypothesis import HealthCheck, given, settings, strategies
from hypothesis.internal.conjecture import providers

_TEXT = strategies.text(max_size=3)
_AT_SETUP = {}


@pytest.fixture
def caches_at_setup():
    _AT_SETUP.setdefault("constants", providers._sys_modules_len is not None)
    _AT_SETUP.setdefault("validated", bool(_TEXT.validate_called))
    return _AT_SETUP


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_TEXT)
def test_clamp_of_text_length_with_warm_caches(caches_at_setup, text):
    assert caches_at_setup == {"constants": True, "validated": True}
    assert clamp(len(text), 0, 10) == len(text)
"""


@pytest.mark.skipif(
    not hasattr(providers, "_get_local_constants"), reason="Hypothesis before 6.131 builds no such cache"
)
def test_hypothesis_caches_are_warm_in_every_child(tmp_path):
    project = make_engine_project(tmp_path / "project")
    tests = project / "tests/test_tiny.py"
    tests.write_text(tests.read_text() + WARM_TEST)
    code, output, data = run(project, "--only", "SURVIVOR")
    assert data["baseline"]["ok"], output
    survivor = mutant(data, "SURVIVOR")
    assert outcome(data, survivor, "test_clamp_of_text_length_with_warm_caches") == "passed", output
    assert code == ExitCode.EXPECTATION_FAILED  # SURVIVOR is the fixture's unexpected survivor
