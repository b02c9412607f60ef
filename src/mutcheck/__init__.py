"""mutcheck: guard-mutation testing for history-consolidation code."""

import time

__version__ = "0.1.0"  # the package's version (pyproject.toml reads it from here)
STARTED = time.monotonic()  # when this process first imported mutcheck: the start of its timings
