"""Where the repository, this test package and its recorded results are, for tests at any depth."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent  # tests/mutcheck
REPOSITORY = TESTS.parents[1]
GOLDEN = TESTS / "golden"
