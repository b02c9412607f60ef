"""The evidence a mutant's outcomes stand on, as labelled digests: the run's environment and the
code every test stands on (one set for the whole run), and the mutant's own (its edit, the tests
that reach it, their files, the target functions they ran under it).

A label names what it covers, so that a stored label can be computed again from today's files:
`function:NAME` is NAME's code in every target file, `test:PATH` a test file whole, `module:PATH`
a module's module-level code, `file:PATH` a file whole.
"""

import json
import os
import sys
import tomllib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from mutcheck import __version__
from mutcheck.reuse.digests import SourceDigests, digest, source_digests

INI_FILES = ("pyproject.toml", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg")  # where pytest reads options
MUTANT, TESTS = "mutant", "tests"


@cache
def mutcheck_itself() -> str:
    """mutcheck's version and its own files (an editable install changes without a new version)."""
    package = Path(__file__).resolve().parents[1]
    files = sorted(path for path in package.rglob("*") if path.is_file() and "__pycache__" not in path.parts)
    return digest(
        "\0".join([__version__, *(f"{path.relative_to(package)}:{digest(path.read_bytes())}" for path in files)])
    )


def installed() -> str:
    """The installed distributions and their versions (their metadata folders' names, as
    `name-version.dist-info`) and path files, on every `sys.path` folder, as one digest."""
    names = []
    for folder in sys.path:
        try:
            entries = os.listdir(folder or ".")
        except OSError:
            continue
        names += [f"{folder}/{name}" for name in entries if name.endswith((".dist-info", ".egg-info", ".pth"))]
    return digest("\n".join(sorted(names)))


class Evidence:
    """Today's digests of a project's files, each file read and parsed once."""

    def __init__(
        self,
        root: Path,
        target_files: Iterable[str],
        test_files: Iterable[str],
        modules: Iterable[str] = (),
        import_elsewhere: Iterable[str] | None = None,
    ) -> None:
        self.root = root
        self.target_files = sorted(set(target_files))
        self.test_files = set(test_files)
        self.modules = set(modules)  # the project's Python files the suite imported
        # Where the run watched the project's code (3.12+): what of it ran while pytest imported the
        # project ("PATH::NAME"); a helper module is then evidence function by function, not whole.
        self.import_elsewhere = None if import_elsewhere is None else set(import_elsewhere)
        self._parsed: dict[str, SourceDigests | None] = {}

    def parsed(self, path: str) -> SourceDigests | None:
        """The file's digests; None for a file that is gone or unreadable."""
        if path not in self._parsed:
            try:
                data = (self.root / path).read_bytes()
            except OSError:
                self._parsed[path] = None
            else:
                self._parsed[path] = source_digests(data, tests=path in self.test_files)
        return self._parsed[path]

    def function(self, qualname: str) -> str:
        """`qualname`'s code in every target file (Python's names do not say which file), or in its
        own file for a name of the project's other code ("PATH::NAME")."""
        if "::" in qualname:
            path, _, name = qualname.partition("::")
            parsed = self.parsed(path)
            return parsed.function(name) if parsed else ""
        parts = []
        for path in self.target_files:
            parsed = self.parsed(path)
            parts.append(parsed.function(qualname) if parsed else "")
        return digest("\0".join(parts))

    def label(self, label: str) -> str:
        """Today's digest for a stored label ("" for what no longer exists)."""
        kind, _, name = label.partition(":")
        if kind == "function":
            return self.function(name)
        parsed = self.parsed(name)
        if parsed is None:
            return ""
        return parsed.module_level if kind == "module" else parsed.whole

    def environment(self, settings: dict[str, object], data_files: list[str]) -> dict[str, str]:
        """What every mutant of the run stands on: Python, the installed distributions, mutcheck,
        the run's settings, pytest's ini files, the module-level code of every module the suite
        imported (a test module's is its own tests' evidence), the helpers (see `helpers`: whole,
        or, where the run watched the project's code, the functions of theirs that ran while pytest
        imported the project; those the tests run are each mutant's evidence) and the test folders'
        data files."""
        found = {
            "python": digest(sys.version),
            "packages": installed(),
            "mutcheck": mutcheck_itself(),
            "settings": digest(json.dumps(settings, sort_keys=True, default=str)),
        }
        for name in INI_FILES:
            if (self.root / name).is_file():
                found[f"file:{name}"] = self.pyproject() if name == "pyproject.toml" else self.label(f"file:{name}")
        for path in sorted(self.modules - self.test_files):
            found[f"module:{path}"] = self.label(f"module:{path}")
        for path in self.helpers():
            if self.import_elsewhere is None or (_is_conftest(path) and self._defines_hooks(path)):
                found[f"file:{path}"] = self.label(f"file:{path}")
        for name in sorted(self.import_elsewhere or ()):
            if name.partition("::")[0] in self.helpers():
                found[f"function:{name}"] = self.function(name)
        for path in data_files:
            found[f"file:{path}"] = self.label(f"file:{path}")
        return found

    def pyproject(self) -> str:
        """pyproject.toml but its `project` and `build-system` tables: a new version or dependency
        changes what is installed (`packages`), not what the tests run; every other table (pytest's
        options, plugins' settings) counts."""
        try:
            data = tomllib.loads((self.root / "pyproject.toml").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return self.label("file:pyproject.toml")
        kept = {key: value for key, value in data.items() if key not in ("project", "build-system")}
        return digest(json.dumps(kept, sort_keys=True, default=str))

    def helpers(self) -> set[str]:
        """The imported modules that are neither target nor test modules, nor conftests of fixtures
        only (those are evidence of the tests below them)."""
        found = self.modules - self.test_files - set(self.target_files)
        return {path for path in found if not (_is_conftest(path) and not self._defines_hooks(path))}

    def _defines_hooks(self, path: str) -> bool:
        parsed = self.parsed(path)
        return parsed is None or any("." not in name and name.startswith("pytest_") for name in parsed.functions)

    def conftests(self, test_file: str) -> list[str]:
        """The conftests the suite imported in the folders holding `test_file`, nearest first."""
        found = []
        for folder in Path(test_file).parents:
            candidate = str(folder / "conftest.py") if str(folder) != "." else "conftest.py"
            if candidate in self.modules:
                found.append(candidate)
        return found

    def mutant(self, edit: str, tests: list[str], files: set[str], functions: set[str] | None) -> dict[str, str]:
        """A mutant's own evidence: its edit, the tests that reach it (node ids), their files, and
        the target functions they ran (under the mutant, and the mutated one); where they were not
        watched (None), every target file whole."""
        found = {MUTANT: digest(edit), TESTS: digest("\n".join(sorted(tests)))}
        files = {*files, *(conftest for path in files if path for conftest in self.conftests(path))}
        found.update({f"test:{path}": self.label(f"file:{path}") for path in sorted(files) if path})
        if functions is None:  # and the helpers, where the environment holds them function by function
            whole = [*self.target_files, *(sorted(self.helpers()) if self.import_elsewhere is not None else [])]
            found.update({f"file:{path}": self.label(f"file:{path}") for path in whole})
        else:
            helpers = self.helpers()  # a test file's or conftest's code is in its `test:` label
            chosen = [name for name in sorted(functions) if "::" not in name or name.partition("::")[0] in helpers]
            found.update({f"function:{name}": self.function(name) for name in chosen})
        return found

    def again(self, stored: dict[str, str], edit: str, tests: list[str]) -> dict[str, str]:
        """Today's digests for the labels of a stored mutant's evidence."""
        today = {}
        for label in stored:
            if label == MUTANT:
                today[label] = digest(edit)
            elif label == TESTS:
                today[label] = digest("\n".join(sorted(tests)))
            elif label.startswith("test:"):
                today[label] = self.label("file:" + label.removeprefix("test:"))
            else:
                today[label] = self.label(label)
        return today


def _is_conftest(path: str) -> bool:
    return Path(path).name == "conftest.py"


def changed(before: dict[str, str], now: dict[str, str]) -> list[str]:
    """The labels whose digest differs, or that one side lacks, sorted."""
    return sorted(label for label in before.keys() | now.keys() if before.get(label) != now.get(label))


def listed_files(root: Path, folders: Iterable[str], suffixes: tuple[str, ...] = ()) -> set[str]:
    """Every file under `folders` (files or folders, relative to `root`), relative to `root`; with
    `suffixes`, only those ending so. Bytecode caches are left out."""
    found = set()
    for folder in folders:
        path = root / folder
        candidates = [path] if path.is_file() else path.rglob("*") if path.is_dir() else []
        for candidate in candidates:
            if "__pycache__" in candidate.parts or not candidate.is_file():
                continue
            if not suffixes or candidate.suffix in suffixes:
                found.add(str(candidate.relative_to(root)))
    return found


def input_files(
    root: Path, tests: Iterable[str], targets: Iterable[str], catalog: str, modules: Iterable[str]
) -> set[str]:
    """Every file a whole run stands on: the modules the suite imported, every file under the test
    folders (a new test file changes the suite), the target's Python files, the catalog's files
    and pytest's ini files."""
    found = set(modules) | listed_files(root, tests) | listed_files(root, targets, (".py",))
    found |= listed_files(root, [catalog], (".toml",))
    return found | {name for name in INI_FILES if (root / name).is_file()}


def file_digests(root: Path, paths: Iterable[str]) -> dict[str, str]:
    """Each file's digest, whole ("" for one that is gone)."""
    found = {}
    for path in paths:
        try:
            found[path] = digest((root / path).read_bytes())
        except OSError:
            found[path] = ""
    return found


def data_files(root: Path, tests: Iterable[str]) -> list[str]:
    """The files under the test folders that are not Python: data a test may read."""
    return sorted(path for path in listed_files(root, tests) if not path.endswith((".py", ".pyc")))
