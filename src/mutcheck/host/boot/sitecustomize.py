"""Started by every Python process a test starts (this folder leads PYTHONPATH in a run): the project
imports from the run's copy there too, and in the baseline the target code the process runs is
recorded for the test that started it. Then the `sitecustomize` this one hides, if any, runs.

`MUTCHECK_SUBPROCESS` names the host's subprocess spec (see `mutcheck.host.subprocesses`); without it, this
does nothing but hand over. A process started with `-I`, `-E` or `-S`, or with an environment that
drops PYTHONPATH, is beyond reach.
"""

import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _start() -> None:
    spec_path = os.environ.get("MUTCHECK_SUBPROCESS")
    if not spec_path or not os.path.isfile(spec_path):
        return
    # this folder is mutcheck/host/boot: mutcheck is imported from the folder that holds mutcheck/
    installed = os.path.dirname(os.path.dirname(os.path.dirname(_HERE)))
    spec = importlib.machinery.PathFinder.find_spec("mutcheck", [installed])
    if spec is None or spec.loader is None:
        return
    package = importlib.util.module_from_spec(spec)
    sys.modules["mutcheck"] = package
    spec.loader.exec_module(package)
    from mutcheck.host.subprocesses import start_in_subprocess

    start_in_subprocess(spec_path)


def _hand_over() -> None:
    """Run the `sitecustomize` that this one hides (a distribution's, a virtual environment's)."""
    sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or ".") != _HERE]
    del sys.modules["sitecustomize"]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", sys.path)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = module
        spec.loader.exec_module(module)


_start()
_hand_over()
