"""The project's code a test could run, found by name where it was not watched (Python 3.11, where a
trace of every call in a mutant's run would cost more than the run): from the code it was seen to
run unmutated and the mutated function, every function or method whose name that code refers to,
then theirs, and so on; a class named brings its special methods (`__init__`, `__eq__`, …, which
Python calls without the name), and pytest's hooks come in whole (pytest calls them). Code that
reaches names it does not spell (`getattr` with a computed name, `globals()`) reaches everything.
"""

from collections.abc import Iterable
from functools import cached_property

from mutcheck.reuse.module_code import DYNAMIC
from mutcheck.reuse.project_code import ProjectCode


def _special(qualname: str) -> bool:
    name = qualname.rpartition(".")[2]
    return name.startswith("__") and name.endswith("__")


class Reachable:
    """The project's functions by name, over the modules given (relative paths)."""

    def __init__(self, code: ProjectCode, paths: Iterable[str]) -> None:
        self.code = code
        self.paths = sorted(paths)

    @cached_property
    def _index(self) -> tuple[dict[str, set[str]], set[str], set[str]]:
        """Functions by their own name (as "PATH::QUALNAME"), every function, and the hooks and special methods."""
        by_name: dict[str, set[str]] = {}
        every: set[str] = set()
        always: set[str] = set()
        for path in self.paths:
            module = self.code.module(path)
            if module is None:
                continue
            for qualname in module.functions:
                label = f"{path}::{qualname}"
                own = qualname.rpartition(".")[2]
                by_name.setdefault(own, set()).add(label)
                every.add(label)
                if own.startswith("pytest_") and "." not in qualname:
                    always.add(label)
            for qualname, methods in module.methods.items():
                own = qualname.rpartition(".")[2]
                by_name.setdefault(own, set()).update(f"{path}::{method}" for method in methods if _special(method))
        return by_name, every, always

    def hooks(self) -> set[str]:
        return set(self._index[2])

    def closure(self, labels: Iterable[str], names: Iterable[str] = ()) -> set[str]:
        """Every function reachable by name from `labels` ("PATH::QUALNAME") and `names`."""
        by_name, every, _ = self._index
        found = set(labels)
        pending = set(names)
        for label in found:
            path, _, qualname = label.partition("::")
            pending |= self.code.names(path, qualname)
        seen_names: set[str] = set()
        while pending:
            name = pending.pop()
            if name in seen_names:
                continue
            seen_names.add(name)
            if name == DYNAMIC:
                return found | every
            for label in by_name.get(name, ()):
                if label not in found:
                    found.add(label)
                    path, _, qualname = label.partition("::")
                    pending |= self.code.names(path, qualname) - seen_names
        return found
