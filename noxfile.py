"""The engine under each supported pytest and Python: the matrix CI runs (`nox`)."""

import nox

nox.options.default_venv_backend = "venv"
nox.options.error_on_missing_interpreters = True  # a missing interpreter fails the matrix, never shrinks it

# The oldest and newest pytest series on the oldest and newest Python, and the newest pytest between.
CELLS = [
    ("3.11", "8.0"),
    ("3.11", "8.4"),
    ("3.11", "9"),
    ("3.12", "9"),
    ("3.13", "8.0"),
    ("3.13", "8.4"),
    ("3.13", "9"),
]
ENGINE_TESTS = [
    "tests/mutcheck/test_engine.py",
    "tests/mutcheck/test_load.py",
    "tests/mutcheck/test_order_dependent.py",
    "tests/mutcheck/test_pytest_compat.py",
    "tests/mutcheck/test_reach.py",
    "tests/mutcheck/test_selection_threads.py",
    "tests/mutcheck/test_subtests.py",
    "tests/mutcheck/test_timings.py",
    "tests/mutcheck/test_clock.py",
    "tests/mutcheck/hostile/test_processes.py",
    "tests/mutcheck/hostile/test_interrupts.py",
]


@nox.session
@nox.parametrize(("python", "pytest"), CELLS, ids=[f"{python}-pytest{pytest}" for python, pytest in CELLS])
def engine(session: nox.Session, pytest: str) -> None:
    """The engine tests and `mutcheck run` on this repository, with the newest release of one pytest series."""
    session.install("-e", ".[test]", f"pytest=={pytest}.*")
    session.run("python", "-m", "pytest", "-q", *ENGINE_TESTS)
    session.run("mutcheck", "run")
