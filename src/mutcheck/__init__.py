"""mutcheck: guard-mutation testing for history-consolidation code."""

from importlib.metadata import version

__version__ = version("mutcheck")
