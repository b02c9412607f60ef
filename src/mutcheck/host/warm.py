"""Caches that test plugins build on first use, built once in the host so every child inherits them.

Each forked child starts from the host's memory: whatever a plugin computes lazily at its first
use is otherwise computed again in every child, for every mutant. Only caches whose content
does not depend on the test that triggers them belong here, so that building them early
changes no outcome.
"""

import sys
from collections.abc import Iterable
from typing import Any


def _hypothesis_local_constants() -> None:
    """Hypothesis scans the source of every local module for constants at its first draw (tens
    of milliseconds). The scan reads the files on disk, which a code-swapped child shares with
    the host, and extends itself when a module is imported later. Private API, hence optional:
    `hypothesis.internal.conjecture.providers._get_local_constants` (6.131 and later)."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:
        return
    scan = getattr(providers, "_get_local_constants", None)
    if callable(scan):
        scan()


def _hypothesis_strategies(tests: Iterable[Any]) -> None:
    """A `@given` test validates its strategies at its first run, which also builds what they
    share (the Unicode tables behind `text()`, recursive strategies' emptiness): per strategy
    object, and the same whichever test runs first. `validate()` is the strategies' own method;
    `_given_kwargs` on the test's `hypothesis` handle is private and optional. A strategy that
    does not validate is left for its test to report."""
    for test in tests:
        given = getattr(getattr(test, "hypothesis", None), "_given_kwargs", None)
        for strategy in given.values() if isinstance(given, dict) else ():
            try:
                strategy.validate()
            except Exception:  # the test reports it when it runs
                continue


def warm_caches(tests: Iterable[Any]) -> None:
    """`tests`: the collected items' test functions."""
    if "hypothesis" in sys.modules:
        _hypothesis_local_constants()
        _hypothesis_strategies(tests)
