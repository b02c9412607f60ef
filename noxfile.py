"""The engine under each supported pytest and Python, and the oldest supported mutmut and PyGithub: what CI runs
(`nox`)."""

import os
import re
import tomllib
from pathlib import Path

import nox

# uv builds the cells' environments in seconds where pip takes a minute; it never downloads a Python
nox.options.default_venv_backend = "uv"
os.environ["UV_PYTHON_DOWNLOADS"] = "never"
nox.options.error_on_missing_interpreters = True  # a missing interpreter fails the matrix, never shrinks it

# Every supported Python and pytest series exercised, each in one cell (CI's time is the sum of the
# cells'): the oldest pytest on the newest Python, the newest pytest between (8.4, the last of the 8
# series) on the oldest Python, the newest pytest on the middle one. The newest pytest on the oldest
# Python is the README's test command itself (python3 with `.[dev]`).
CELLS = [
    ("3.11", "8.4"),
    ("3.12", "9"),
    ("3.13", "8.0"),
]
ENGINE_TESTS = [
    "tests/mutcheck/engine/test_engine.py",
    "tests/mutcheck/engine/test_load.py",
    "tests/mutcheck/engine/test_order_dependent.py",
    "tests/mutcheck/host/test_pytest_compat.py",
    "tests/mutcheck/host/test_reach.py",
    "tests/mutcheck/engine/test_selection_threads.py",
    "tests/mutcheck/engine/test_subtests.py",
    "tests/mutcheck/host/test_plugins.py",
    "tests/mutcheck/engine/test_timings.py",
    "tests/mutcheck/host/test_clock.py",
    "tests/mutcheck/hostile/test_processes.py",
    "tests/mutcheck/hostile/test_interrupts.py",
    "tests/mutcheck/sandbox/test_self_isolation.py",
    "tests/mutcheck/mutation/test_real_shapes.py",
    "tests/mutcheck/catalog/test_project_options.py",
    "tests/mutcheck/decisions/test_swap.py",
    "tests/mutcheck/decisions/test_scopes.py",
    "tests/mutcheck/decisions/test_edit_code.py",
    "tests/mutcheck/decisions/test_class_cell.py",
    "tests/mutcheck/host/test_fallback_collection.py",
    "tests/mutcheck/host/test_replaced_source.py",
    "tests/mutcheck/host/test_fork_server.py",
    "tests/mutcheck/host/test_forked_fallback.py",
    "tests/mutcheck/mutation/test_outside.py",
    "tests/mutcheck/engine/test_shared_fixtures.py",
    "tests/mutcheck/engine/test_forked_processes.py",
]
HARDEN_FLOW = (
    "tests/mutcheck/harden/test_harden_command.py"
    "::test_harden_writes_proven_tests_refuses_the_rest_and_updates_the_catalog"
)
# the tests in pytest-xdist's workers, one per core (at most 4), as the README's test command runs them
WORKERS = ["-n", "auto", "--maxprocesses", "4"]
EXTRAS = tomllib.loads(Path("pyproject.toml").read_text())["project"]["optional-dependencies"]


def lowest(extra: str, package: str) -> str:
    """The lowest version of `package` that the extra allows (its `>=` bound)."""
    requirement = next(line for line in EXTRAS[extra] if line.startswith(package))
    return re.search(r">=([0-9.]+)", requirement).group(1)


# The lowest mutmut of the `generic` extra's range and PyGithub of the `github` extra; the newest come with `.[dev]`.
OLDEST_MUTMUT = lowest("generic", "mutmut")
OLDEST_PYGITHUB = lowest("github", "PyGithub")


@nox.session
@nox.parametrize(("python", "pytest"), CELLS, ids=[f"{python}-pytest{pytest}" for python, pytest in CELLS])
def engine(session: nox.Session, pytest: str) -> None:
    """The engine tests (the self-isolation test among them) and `mutcheck run` on the embedded catalog,
    with the newest release of one pytest series (mutcheck's own catalog runs in the README's test
    command's environment: `.ci/run`)."""
    # the plugins fixture's plugins, each in its newest release that works with this pytest
    plugins = ["anyio", "pytest-mock", "pytest-rerunfailures", "pytest-timeout"]
    session.install("-e", ".[test]", f"pytest=={pytest}.*", "pytest-xdist", *plugins)
    # reuse watches what tests run under a mutant with sys.monitoring from 3.12 on (with settrace before),
    # and hooks pytest's fixtures: the README's test command checks settrace under the newest pytest,
    # this cell sys.monitoring under the oldest; harden's pytest plugins too (the README's test
    # command runs them on the oldest Python with the newest pytest)
    opposite_corner = (session.python, pytest) == ("3.13", "8.0")
    reuse = ["tests/mutcheck/reuse", "tests/mutcheck/host/test_observe.py"] if opposite_corner else []
    harden = ["tests/mutcheck/harden"] if opposite_corner else []
    # harden's whole-flow test (a fifth of this cell's time) runs in the README's test command only;
    # here its other tests drive the same child plugin, recording and proof runs
    whole_flow = ["--deselect", HARDEN_FLOW] if opposite_corner else []
    session.run("python", "-m", "pytest", "-q", *WORKERS, *ENGINE_TESTS, *reuse, *harden, *whole_flow)
    session.run("mutcheck", "run")


@nox.session(python="3.11")
def generic_oldest(session: nox.Session) -> None:
    """The generic operator tests with the oldest mutmut mutcheck supports. The test that compares
    with `mutmut run` needs a pytest before 9 there: mutmut 3.8.0's own runner fails under 9."""
    session.install("-e", ".[test]", f"mutmut=={OLDEST_MUTMUT}", "pytest==8.4.*")
    session.run("python", "-m", "pytest", "-q", "tests/mutcheck/mutation/test_generic.py")


@nox.session(python="3.12")
def plugins(session: nox.Session) -> None:
    """The plugin zoo: twenty-odd of the most used pytest plugins loaded at once, every verdict
    compared with a plain pytest run (tests/mutcheck/host/test_plugin_zoo.py), with the newest pytest."""
    session.install("-e", ".[test]", "-r", "tests/mutcheck/plugin_zoo_requirements.txt")
    session.env["MUTCHECK_REQUIRE_PLUGINS"] = "1"
    session.run("python", "-m", "pytest", "-q", *WORKERS, "tests/mutcheck/host/test_plugin_zoo.py")


# The tests that talk to the fake GitHub.
GITHUB_TESTS = [
    "tests/mutcheck/publish/test_github.py",
    "tests/mutcheck/publish/test_github_contract.py",
    "tests/mutcheck/publish/test_inline_findings.py",
    "tests/mutcheck/publish/test_github_permissions.py",
    "tests/mutcheck/publish/test_github_rate_limits.py",
    "tests/mutcheck/results/test_not_run.py",
    "tests/mutcheck/hostile/test_github_failures.py",
    "tests/mutcheck/hostile/test_artifacts.py",
    "tests/mutcheck/hostile/test_untrusted_text.py",
]


@nox.session(python="3.11")
def github_oldest(session: nox.Session) -> None:
    """The GitHub tests with the oldest PyGithub mutcheck supports (`.[dev]` brings the fake's contract check)."""
    session.install("-e", ".[dev]", f"PyGithub=={OLDEST_PYGITHUB}")
    session.run("python", "-m", "pytest", "-q", *WORKERS, *GITHUB_TESTS)
