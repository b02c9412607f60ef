"""What the tests need installed beyond the project: the distributions collecting them here imports,
or, when they do not collect here, what a scan of their files' imports names."""

import ast
import shlex
import sys
from dataclasses import dataclass
from importlib.metadata import packages_distributions
from itertools import pairwise
from pathlib import Path

from packaging.utils import canonicalize_name

from mutcheck.catalog.config import Config
from mutcheck.engine.collect import collected_needs
from mutcheck.host.pytest_ini import project_settings, required_distributions


@dataclass(frozen=True)
class SuiteNeeds:
    distributions: frozenset[str]  # canonical names
    unknown: frozenset[str]  # top-level modules a scan found that nothing installed here provides
    how: str  # how they were found, said before what was found


def suite_needs(config: Config) -> SuiteNeeds:
    """By collecting the tests in a pytest host; by a scan of their imports where that fails."""
    found = collected_needs(config)
    tests = ", ".join(config.tests)
    if isinstance(found, str):
        modules, distributions = _scanned(config)
        unknown = frozenset(module for module in modules if module not in packages_distributions())
        how = f"{tests} do not collect here ({found}: `mutcheck check` shows why); their imports name"
    else:
        modules, distributions, unknown = set(found["modules"]), set(found["distributions"]), frozenset()
        how = f"collecting {tests} needs"
    return SuiteNeeds(_distributions(modules, distributions), unknown, how)


def _distributions(modules: set[str], distributions: set[str]) -> frozenset[str]:
    """The distributions named, and those installed here that provide the modules."""
    providers = packages_distributions()
    named = [*distributions, *(name for module in modules for name in providers.get(module, []))]
    return frozenset(canonicalize_name(name) for name in named)


def _suite_files(config: Config) -> list[Path]:
    """The Python files of the test paths, and the conftests above them in the project."""
    files: set[Path] = set()
    for test_path in config.tests:
        path = config.root / test_path.split("::")[0]
        files.update(path.rglob("*.py") if path.is_dir() else [path] if path.suffix == ".py" else [])
        for folder in path.parents:
            if folder.is_relative_to(config.root) and (folder / "conftest.py").is_file():
                files.add(folder / "conftest.py")
    return sorted(files)


def _imported(path: Path) -> set[str]:
    """The top-level modules a file imports (absolute imports) or names in `pytest_plugins`."""
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError, OSError):
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytest_plugins" for t in node.targets):
            values = node.value.elts if isinstance(node.value, ast.List | ast.Tuple) else [node.value]
            names.update(
                value.value for value in values if isinstance(value, ast.Constant) and isinstance(value.value, str)
            )
    return {name.partition(".")[0] for name in names}


def _local_names(config: Config) -> set[str]:
    """What an import of the project's own finds: its top-level modules and packages (at its root and
    under src/), and the modules beside the tests (pytest puts their folders on the path)."""
    folders = [config.root, config.root / "src"]
    names = {path.stem for folder in folders if folder.is_dir() for path in folder.iterdir()}
    for test_path in config.tests:
        path = config.root / test_path.split("::")[0]
        names.update(child.stem for child in (path.rglob("*") if path.is_dir() else []))
    return names


def _arguments(addopts: object) -> list[str]:
    try:
        return shlex.split(addopts) if isinstance(addopts, str) else [str(argument) for argument in addopts or []]
    except (ValueError, TypeError):  # an unclosed quote; no list: pytest refuses them as well
        return []


def _scanned(config: Config) -> tuple[set[str], set[str]]:
    """The modules the suite's files import and the plugins its pytest settings name (`-p` modules,
    `required_plugins` distributions), less the project's own modules and the standard library."""
    modules = set().union(*(_imported(path) for path in _suite_files(config)))
    settings = project_settings(config.root)
    arguments = _arguments(settings.get("addopts", ""))
    modules.update(value.partition(".")[0] for flag, value in pairwise(arguments) if flag == "-p")
    distributions = required_distributions(settings.get("required_plugins"))
    modules = {module for module in modules if module.isidentifier() and module not in sys.stdlib_module_names}
    return modules - _local_names(config), distributions
