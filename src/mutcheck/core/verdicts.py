"""The verdict names, the kinds of unmet expectation (and one such problem), and how a catalog test id names a test."""

from dataclasses import dataclass

KILLED = "killed"
SURVIVED = "survived"
TIMEOUT = "timeout"
NO_COVERAGE = "no-coverage"
BROKEN = "broken"
EQUIVALENT = "equivalent"
VERDICTS = (KILLED, SURVIVED, TIMEOUT, NO_COVERAGE, BROKEN, EQUIVALENT)

UNMET_KINDS = (
    "unexpected-survivor",
    "killer-passed",
    "killer-unreached",
    "equivalent-killed",
    "gap-killed",
    "no-coverage",
    "broken",
    "compile-equivalent",
    "unguarded-change",
    "unreviewed-gap",
)


@dataclass(frozen=True)
class Unmet:
    """One way a mutant missed its catalogued expectation; renderers word it per language."""

    kind: str  # one of UNMET_KINDS
    test: str | None = None
    detail: str | None = None


def names_node(test_id: str, node_id: str) -> bool:
    """A catalog test id names a node, or every parametrization of a test function."""
    return node_id == test_id or node_id.startswith(test_id + "[")
