"""What collecting the suite takes from outside the project, recorded inside a pytest host: the
top-level modules the project's files import (conftests, test modules and what they import of the
project), the plugins the configuration names (`-p`, `pytest_plugins`, `required_plugins`) or whose
options and ini keys it sets, and the modules the collected tests' fixtures come from."""

import builtins
import os
import sys
import sysconfig
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

from mutcheck.host.pytest_compat import fixture_functions, option_names
from mutcheck.host.pytest_ini import ini_settings, required_distributions
from mutcheck.host.pytest_options import configured_arguments, given_in


def _top(module: str) -> str:
    return module.partition(".")[0]


def _installation_folders() -> set[str]:
    """Where this Python's installed packages live: its site-packages folders, and the environment
    itself when it is a virtual one (`sys.prefix` apart from the base installation)."""
    paths = sysconfig.get_paths()
    folders = {paths["purelib"], paths["platlib"]}
    if sys.prefix != sys.base_prefix:
        folders.add(sys.prefix)
    return folders


class NeedsRecorder:
    """A pytest plugin; `found()` once collection is done."""

    def __init__(self, roots: list[str], pytest_args: list[str]) -> None:
        self.roots = [os.path.realpath(root) + os.sep for root in roots]  # the copy and the project
        # A virtual environment inside the project (`.venv/`) holds installed packages, not its code.
        self.installed = [os.path.realpath(folder) + os.sep for folder in _installation_folders()]
        self.files: dict[str, bool] = {}  # `ours`
        self.pytest_args = pytest_args
        self.modules: set[str] = set()
        self.distributions: set[str] = set()
        self.parser: pytest.Parser | None = None
        self.registered: set[str] = set()  # the option spellings and ini keys the parser holds
        self.options_by_plugin: dict[int, set[str]] = {}  # a plugin's id: those it added
        self.stop_watching: Callable[[], None] = lambda: None
        self.original_import = builtins.__import__

    def ours(self, path: object) -> bool:
        """Whether a file is the project's (in the copy or the checkout); asked at every import
        statement, so remembered."""
        if not isinstance(path, str):
            return False
        if path not in self.files:
            real = os.path.realpath(path)
            inside = any(real.startswith(root) for root in self.roots)
            self.files[path] = inside and not any(real.startswith(folder) for folder in self.installed)
        return self.files[path]

    def pytest_addoption(self, parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
        """From here on, each plugin registered (`-p`, then the installed ones) adds its options in a
        call of its own `pytest_addoption`: what the parser gains in that call is that plugin's."""
        self.parser = parser
        self.stop_watching = pluginmanager.add_hookcall_monitoring(self.before_hook, self.after_hook)

    def before_hook(self, hook_name: str, hook_impls: list[Any], kwargs: dict[str, Any]) -> None:
        if hook_name == "pytest_addoption" and self.parser is not None:
            self.registered = option_names(self.parser)

    def after_hook(self, outcome: Any, hook_name: str, hook_impls: list[Any], kwargs: dict[str, Any]) -> None:
        if hook_name == "pytest_addoption" and self.parser is not None and len(hook_impls) == 1:
            self.options_by_plugin[id(hook_impls[0].plugin)] = option_names(self.parser) - self.registered

    def pytest_configure(self) -> None:
        self.stop_watching()  # every plugin but the conftests is registered

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_load_initial_conftests(self) -> Generator[None, None, None]:
        """From the first conftest on, every import statement a project file runs is noted, the
        modules already loaded (by a plugin, say) too."""
        builtins.__import__ = self.noting_import
        yield

    def noting_import(
        self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:
        if level == 0 and globals and self.ours(globals.get("__file__")):
            self.modules.add(_top(name))
        return self.original_import(name, globals, locals, fromlist, level)

    def pytest_unconfigure(self) -> None:
        builtins.__import__ = self.original_import  # collection failed before it finished

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        builtins.__import__ = self.original_import
        config = session.config
        for item in session.items:
            for function in fixture_functions(item):
                module = sys.modules.get(getattr(function, "__module__", None) or "")
                if module is not None and not self.ours(getattr(module, "__file__", None)):
                    self.modules.add(_top(module.__name__))
        named = [name for name in config.getoption("plugins", None) or [] if not name.startswith("no:")]
        for plugin in config.pluginmanager.get_plugins():
            if self.ours(getattr(plugin, "__file__", None)):  # a conftest
                listed = getattr(plugin, "pytest_plugins", ())
                named += [listed] if isinstance(listed, str) else [name for name in listed if isinstance(name, str)]
        self.modules.update(_top(name) for name in named)
        self.distributions.update(required_distributions(config.getini("required_plugins")))
        self.distributions.update(self.plugins_configured(config))

    def plugins_configured(self, config: pytest.Config) -> set[str]:
        """The distributions of the installed plugins whose options the configuration gives or whose
        ini keys it sets (`--cov`, `asyncio_mode`): without them pytest refuses or ignores them."""
        arguments = configured_arguments(config, self.pytest_args)
        ini_keys = set(ini_settings(Path(config.inipath))) if config.inipath is not None else set()
        ini_keys.update(override.partition("=")[0] for override in config.getoption("override_ini", None) or [])
        used = set()
        for plugin, distribution in config.pluginmanager.list_plugin_distinfo():
            names = self.options_by_plugin.get(id(plugin), set())
            spellings = tuple(name for name in names if name.startswith("-"))
            if (spellings and given_in(arguments, spellings)) or names & ini_keys:
                used.add(distribution.metadata["name"])
        return used

    def found(self) -> dict[str, list[str]]:
        """The modules noted, less the project's own (a tests/helpers.py imported as `helpers`), and
        the distributions."""
        outside = {name for name in self.modules if not self.ours(getattr(sys.modules.get(name), "__file__", None))}
        return {"modules": sorted(outside), "distributions": sorted(self.distributions)}
