"""Which code an import loads in a run: the project's modules from the scratch copy, however the
project is installed, and mutcheck's own machinery from where mutcheck is installed.

An editable install (`pip install -e .`, `uv sync`, `poetry install`) points into the user's
checkout: a `.pth` path entry (the project's root or `src`), setuptools' editable finder (a map
from package names to checkout folders), a link tree of symlinks, or a PYTHONPATH entry. Tests
would then import the checkout, never the mutated copy. Every such route is redirected to the same
relative place in the copy: path entries and PYTHONPATH are rewritten, and a meta-path finder in
front moves any module spec that still resolves into the checkout.

The host loads its machinery from where the running mutcheck is installed, never from the copy,
then forgets its own modules and any other it loaded from the project, so that when the project is
mutcheck itself (its repository, another checkout of it, or a vendored copy) the tests import
fresh ones, from the copy. The machinery keeps the module objects it already holds, so a mutant, swapped
into the tests' modules or written into a fallback copy, never reaches the code running the tests.
"""

import importlib.util
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import IO

from mutcheck.sandbox.process import SESSION_TAG, new_session_tag


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + os.sep)


class Relocation:
    """Paths inside any of `roots` (the checkout, or a copy this copy was made from) moved to the
    same relative path inside `scratch`, when that exists there."""

    def __init__(self, roots: Sequence[Path], scratch: Path) -> None:
        self.scratch = str(scratch.resolve())
        # As given and resolved: a path entry may spell a root either way.
        self.roots = sorted({str(spelling) for root in roots for spelling in (root.absolute(), root.resolve())})
        self._real_folders: dict[str, str] = {}

    def _real(self, absolute: str) -> str:
        """os.path.realpath, with each folder resolved once: it runs for every module imported."""
        if os.path.islink(absolute):
            return os.path.realpath(absolute)
        folder, name = os.path.split(absolute)
        if folder not in self._real_folders:
            self._real_folders[folder] = os.path.realpath(folder)
        return os.path.join(self._real_folders[folder], name)

    def path(self, path: str) -> str:
        """`path` (a file or folder) in the copy, or unchanged if it is outside the roots or missing there.

        A symlink is followed first: an editable link tree's files link to the checkout's (or,
        in the copy, to the copy's) real files, and the real file is the one mutated.
        """
        if not path:
            return path
        absolute = os.path.abspath(path)
        real = self._real(absolute)
        if _inside(real, self.scratch):
            return real
        for candidate in (real, absolute):
            for root in self.roots:
                if _inside(candidate, root) and os.path.exists(moved := self.scratch + candidate[len(root) :]):
                    return moved
        return path

    def originals(self, folder: str) -> list[str]:
        """The folders of the roots that `folder` (inside the copy) was copied from."""
        real = self._real(os.path.abspath(folder))
        if not _inside(real, self.scratch):
            return []
        relative = real[len(self.scratch) :]
        found = [root + relative for root in self.roots if os.path.isdir(root + relative)]
        return list(dict.fromkeys(os.path.realpath(folder) for folder in found))

    def environment(self, environment: Mapping[str, str]) -> dict[str, str]:
        """A copy of `environment` whose PYTHONPATH entries point into the copy."""
        moved = dict(environment)
        if environment.get("PYTHONPATH"):
            entries = environment["PYTHONPATH"].split(os.pathsep)
            moved["PYTHONPATH"] = os.pathsep.join(self.path(entry) for entry in entries)
        return moved


class ScratchFinder:
    """First on `sys.meta_path`: asks the finders behind it, and moves a spec whose file (or a
    symlink's target) lies in the checkout to the copy's file; a module the copy removed (a
    reverted new file) is not found, though a package's path still leads to the checkout's."""

    def __init__(self, relocation: Relocation, removed: frozenset[str] = frozenset()) -> None:
        self.relocation = relocation
        self.removed = removed  # real paths, in every root

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: object = None) -> ModuleSpec | None:
        behind = sys.meta_path[sys.meta_path.index(self) + 1 :]  # those in front have already declined
        for finder in behind:
            if not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                return self._moved(spec)
        return None

    def _moved(self, spec: ModuleSpec) -> ModuleSpec:
        if not (spec.has_location and spec.origin):
            return spec
        if os.path.realpath(spec.origin) in self.removed:
            raise ModuleNotFoundError(f"No module named {spec.name!r}", name=spec.name)
        origin = self.relocation.path(spec.origin)
        package = None
        if spec.submodule_search_locations is not None:
            # A package's submodules are found beside its `__init__` in the copy, through its
            # `__path__`; what the copy leaves out (a git-ignored `_version.py`, an extension
            # built in place) still loads from the checkout, after it.
            folder = os.path.dirname(origin)
            package = list(dict.fromkeys([folder, *self.relocation.originals(folder)]))
        if origin == spec.origin:
            if package is not None:
                spec.submodule_search_locations[:] = list(dict.fromkeys([*package, *spec.submodule_search_locations]))
            return spec
        return importlib.util.spec_from_file_location(spec.name, origin, submodule_search_locations=package) or spec


_PACKAGE = __name__.partition(".")[0]
_INSTALLED = str(Path(__file__).resolve().parents[2])  # the folder this mutcheck package is imported from
# Only the package itself is found in that folder (sys.path is left alone, so pytest and every other
# import resolve as they would); the working directory comes first on sys.path as `python -m` has
# it, absolute, so a test that changes directory still imports the project.
_BOOT = """
import importlib.machinery, importlib.util, os, sys
if sys.path and sys.path[0] == "":
    sys.path[0] = os.getcwd()
spec = importlib.machinery.PathFinder.find_spec("{package}", [sys.argv.pop(1)])
sys.modules["{package}"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sys.modules["{package}"])
from {module} import main
main()
"""


def machinery_command(module: str, spec_path: Path) -> list[str]:
    """The command line of a child running `module.main()` of mutcheck's machinery, imported from
    where this mutcheck is installed, whatever the copy it runs in (its working directory and
    PYTHONPATH) holds."""
    boot = _BOOT.format(package=_PACKAGE, module=f"{_PACKAGE}.{module}")
    return [sys.executable, "-c", boot, _INSTALLED, str(spec_path)]


def host_command(spec_path: Path) -> list[str]:
    """The command line of a pytest host (see `machinery_command`)."""
    return machinery_command("host.host", spec_path)


class Host(subprocess.Popen):
    """A pytest host, and the tag its environment (so every process it starts) carries."""

    session_tag: str


def start_host(
    spec_path: Path, cwd: Path, events_fd: int, environment: Mapping[str, str], log: IO[str], answers: bool
) -> Host:
    """A pytest host in a session of its own (its processes are found by its session and its tag;
    Ctrl-C reaches only the caller), writing events to `events_fd` and its output to `log`; with
    `answers`, its stdin is a pipe the caller writes to."""
    tag = new_session_tag()
    host = Host(
        host_command(spec_path),
        cwd=cwd,
        pass_fds=[events_fd],
        stdin=subprocess.PIPE if answers else subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        env={**environment, SESSION_TAG: tag},
    )
    host.session_tag = tag
    return host


def _forget_project_modules(relocation: Relocation) -> None:
    """Drop mutcheck's own modules, and any other loaded so far whose file the copy also holds:
    a test that imports one gets its own, from wherever the tests' imports lead (the copy)."""
    for name, module in list(sys.modules.items()):
        origin = getattr(module, "__file__", None)
        ours = name == _PACKAGE or name.startswith(_PACKAGE + ".")
        if ours or (origin and _inside(relocation.path(origin), relocation.scratch)):
            del sys.modules[name]


def redirect_imports(roots: Sequence[Path], scratch: Path, removed: Sequence[str] = ()) -> None:
    """From now on in this process, the project's modules import from `scratch`, not from `roots`,
    and the files `removed` from the copy (relative paths) import from nowhere; those already
    imported (mutcheck's own, when the project is mutcheck) are imported afresh."""
    relocation = Relocation(roots, scratch)
    sys.path[:] = [relocation.path(entry) for entry in sys.path]
    gone = frozenset(os.path.realpath(root / path) for root in roots for path in removed)
    sys.meta_path.insert(0, ScratchFinder(relocation, gone))
    _forget_project_modules(relocation)
