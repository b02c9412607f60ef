"""Deterministic property tests: the same examples every run, and no example database on disk."""

from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, database=None, deadline=None)
settings.load_profile("deterministic")
