"""The project's pytest options inside a host: which stay as they are (every option that shapes how the
tests behave), which mutcheck switches off (the terminal's output, pytest-xdist's workers, stopping
after a failure), and which no run can work with (the debugger, modes that never run the tests),
named with where they were given.

Nothing here depends on terminal output or verbosity: the host reads pytest's collected items, never
its printed lines, so `-v`, `-q`, `-ra`, `-s`, `--tb=…`, `--durations`, `-x` and `--lf` change nothing.
"""

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from mutcheck.host.pytest_compat import write_nowhere

# pytest's option dest, the spellings a configuration may use, and why a run cannot go on with it.
_UNUSABLE = {
    "usepdb": (("--pdb",), "stops at the debugger on a failure, where no test process of a run can answer it"),
    "trace": (("--trace",), "stops at the debugger at every test, where no test process of a run can answer it"),
    "collectonly": (("--collect-only", "--co"), "collects the tests without running them"),
    "setuponly": (("--setup-only",), "sets fixtures up without running the tests"),
    "setupplan": (("--setup-plan",), "shows fixtures without running the tests"),
    "showfixtures": (("--fixtures", "--funcargs"), "lists fixtures instead of running the tests"),
    "show_fixtures_per_test": (("--fixtures-per-test",), "lists fixtures instead of running the tests"),
    "markers": (("--markers",), "lists markers instead of running the tests"),
    "help": (("-h", "--help"), "prints pytest's help instead of running the tests"),
    "version": (("-V", "--version"), "prints pytest's version instead of running the tests"),
    "looponfail": (("-f", "--looponfail"), "waits for file changes forever"),
}


@dataclass(frozen=True)
class UnusableOption:
    source: str  # the file (or environment variable) that gives it
    field: str  # the key there
    option: str
    reason: str

    def message(self) -> str:
        return (
            f"{self.option} {self.reason}; mutcheck cannot run with it. Remove it there, or give mutcheck "
            'options of its own: [tool.mutcheck] pytest_args = ["-o", "addopts=…"]'
        )


def given_in(arguments: list[str], spellings: tuple[str, ...]) -> str | None:
    """The spelling of an option among command-line arguments (`--tb=short`, `-n 2` and `-x` forms)."""
    for argument in arguments:
        for spelling in spellings:
            if argument == spelling or argument.startswith(spelling + "="):
                return spelling
    return None


def _split(value: object) -> list[str]:
    if isinstance(value, str):
        return shlex.split(value)
    return [str(item) for item in value] if isinstance(value, list | tuple) else []


def _ini_field(inipath: Path) -> str:
    """Where addopts lives in each kind of configuration file pytest reads."""
    if inipath.name == "pyproject.toml":
        return "tool.pytest.ini_options.addopts"
    if inipath.name == "setup.cfg":
        return "tool:pytest.addopts"
    return "pytest.addopts"


def _where(config: pytest.Config, spellings: tuple[str, ...], pytest_args: list[str]) -> tuple[str, str, str]:
    """The source, key and spelling of an option: mutcheck's own pytest_args, PYTEST_ADDOPTS or the
    ini file's addopts, in that order (the first that has it)."""
    if spelling := given_in(pytest_args, spellings):
        return "pyproject.toml", "tool.mutcheck.pytest_args", spelling
    if spelling := given_in(shlex.split(os.environ.get("PYTEST_ADDOPTS", "")), spellings):
        return "PYTEST_ADDOPTS", "", spelling
    if config.inipath is not None and (spelling := given_in(_split(config.getini("addopts")), spellings)):
        return os.path.relpath(config.inipath, config.rootpath), _ini_field(config.inipath), spelling
    return "pytest's options", "", spellings[0]


def configured_arguments(config: pytest.Config, pytest_args: list[str]) -> list[str]:
    """Every argument the project's configuration gives pytest: mutcheck's own pytest_args,
    PYTEST_ADDOPTS and the ini file's addopts."""
    from_ini = _split(config.getini("addopts")) if config.inipath is not None else []
    return [*pytest_args, *shlex.split(os.environ.get("PYTEST_ADDOPTS", "")), *from_ini]


def unusable_option(config: pytest.Config, pytest_args: list[str]) -> UnusableOption | None:
    """The first option a run cannot work with, and where it was given; None when there is none."""
    for dest, (spellings, reason) in _UNUSABLE.items():
        if getattr(config.option, dest, None):
            source, field, spelling = _where(config, spellings, pytest_args)
            return UnusableOption(source, field, spelling, reason)
    return None


def switch_off_xdist(config: pytest.Config) -> bool:
    """Keep pytest-xdist from taking over the run loop with workers of its own (the host's children
    are the workers); True when it would have. Called before xdist's own `pytest_configure`, which
    starts its distributed session only in a distribution mode with test environments."""
    if not config.pluginmanager.hasplugin("xdist"):
        return False
    distributing = getattr(config.option, "dist", "no") != "no" and bool(getattr(config.option, "tx", None))
    if distributing:
        config.option.dist = "no"
        config.option.tx = []
        config.option.numprocesses = 0
    return distributing


def silence_terminal(config: pytest.Config) -> None:
    """Send the terminal reporter's output nowhere once every plugin is configured: nothing reads it.
    It stays registered: pytest 8's assertion comparisons ask it for its writer, and without it a
    failed `assert a == b` raises a bare AssertionError from pytest's own code instead of the test's."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        write_nowhere(reporter, config)


def keep_running_after_failures(config: pytest.Config) -> None:
    """Keep `-x`, `--maxfail` and `--sw` from stopping the session after a failure: a host runs its
    tests through its own loop, and a session marked to stop has pytest's protocol tear every
    fixture down after each later test (set up again inside the next one's time)."""
    config.option.maxfail = 0
    stepwise = config.pluginmanager.get_plugin("stepwiseplugin")
    if stepwise is not None:
        config.pluginmanager.unregister(stepwise)
