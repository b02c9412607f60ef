"""Which target functions run while pytest imports the project (from the first conftest to the end of
collection), before any test: a table built at import, a decorator's own code, a parametrize list.

On 3.12+ `sys.monitoring` reports each code object once, so a `Reach` watches the whole collection
for next to nothing. On 3.11 a trace function would make every Python call of the collection pay
(most of them pytest's and the libraries'): instead each target module is executed from its source
with a counter in every function (the evidence marker of `swap`, one per `def`), and once collection
is over every live function gets its plain code back, so that the tests run the code as written.
"""

import ast
import gc
import itertools
import os
import secrets
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import CodeType, FunctionType, ModuleType
from typing import Any

from mutcheck.core.module_scope import reach_name
from mutcheck.host.project_files import relative_path
from mutcheck.host.reach import Reach
from mutcheck.host.swap import Marker, first_statement


def _counted(
    code: CodeType,
    placeholder: str,
    counters: list[tuple[CodeType, Marker]],
    plain: CodeType,
    pairs: dict[int, tuple[CodeType, CodeType]],
) -> CodeType:
    """`code` (compiled with a marker statement in every `def`) with a counter of its own in each
    marker's place; each counted code object and its plain twin (from the same text, unmarked) kept in
    `pairs` by the counted one's id (held there, so that no other object takes the id)."""
    twins = iter(constant for constant in plain.co_consts if isinstance(constant, CodeType))
    constants = []
    counter = None
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            constant = _counted(constant, placeholder, counters, next(twins), pairs)
        elif constant == placeholder:
            counter = itertools.count()
            constant = counter.__next__
        constants.append(constant)
    counted = code.replace(co_consts=tuple(constants))
    if counter is not None:
        counters.append((code, Marker(counter)))
    pairs[id(counted)] = (counted, plain)
    return counted


class _CountingLoader:
    """A target module's own loader, but its code executed with a counter in every function."""

    def __init__(self, loader: Any, owner: "ImportReach") -> None:
        self._loader, self._owner = loader, owner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self._loader  # the module sees its own loader, as without the counters
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        filename = module.__spec__.origin if module.__spec__ is not None else module.__file__
        source = self._loader.get_source(module.__name__)
        tree = ast.parse(source, filename)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                first_statement(node, self._owner.placeholder)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "'str' object is not callable"
            marked = compile(tree, filename, "exec", dont_inherit=True)
        plain = compile(source, filename, "exec", dont_inherit=True)
        counted = _counted(marked, self._owner.placeholder, self._owner.counters, plain, self._owner.plain)
        exec(counted, module.__dict__)


class ImportReach:
    """What target code runs between `start` and `stop`."""

    def __init__(self, target_files: set[str], project: str) -> None:
        self.target_files = target_files
        self.project = project
        self.reach = Reach(target_files, project=project)
        self.code: list[str] = []  # the project's code that ran, "PATH::NAME" (see `watched`)
        self.watched = False  # whether `code` holds all of the project's code that ran, or the targets' alone
        # one no source holds: a target's own strings (swap.py's marker, in mutcheck's catalog of itself) stay
        self.placeholder = f"\0mutcheck import reach {secrets.token_hex(8)}"
        self.counters: list[tuple[CodeType, Marker]] = []
        self.plain: dict[int, tuple[CodeType, CodeType]] = {}  # a counted code object's id -> it, its plain twin

    def start(self) -> None:
        self.reach.start_test()
        if not self.reach.monitoring:
            self.reach.stop_test()  # no trace: counters instead
            sys.meta_path.insert(0, self)

    def stop(self) -> set[str]:
        if self.reach.monitoring:
            reached = self.reach.stop_test()
            self.code, self.watched = reached.code, True
            return set(reached.covered)
        sys.meta_path.remove(self)
        self._restore()
        ran = [code for code, marker in self.counters if marker.count()]
        self.code = sorted(
            {f"{path}::{code.co_qualname}" for code in ran if (path := relative_path(code.co_filename, self.project))}
        )
        return {reach_name(code.co_filename, code.co_qualname) for code in ran}

    def _restore(self) -> None:
        """The tests run the plain code, as imported without us: in every function, and wherever a
        dict or list holds a counted code object itself (`SAVED = f.__code__` at import)."""
        plain = {key: twin for key, (_counted_code, twin) in self.plain.items()}
        for holder in gc.get_referrers(*(counted for counted, _ in self.plain.values())):
            if type(holder) is FunctionType and id(holder.__code__) in plain:
                holder.__code__ = plain[id(holder.__code__)]
            elif type(holder) is dict:
                for key, value in list(holder.items()):
                    if type(value) is CodeType and id(value) in plain:
                        holder[key] = plain[id(value)]
            elif type(holder) is list:
                holder[:] = [plain.get(id(value), value) if type(value) is CodeType else value for value in holder]

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: object = None) -> ModuleSpec | None:
        """Ask the finders behind; a target module's spec gets the counting loader."""
        for finder in sys.meta_path[sys.meta_path.index(self) + 1 :]:
            spec = finder.find_spec(fullname, path, target) if hasattr(finder, "find_spec") else None
            if spec is None:
                continue
            origin = os.path.realpath(spec.origin) if spec.has_location and spec.origin else None
            if origin in self.target_files and hasattr(spec.loader, "get_source"):
                spec.loader = _CountingLoader(spec.loader, self)
            return spec
        return None
