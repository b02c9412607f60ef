"""The pytest internals mutcheck relies on, one shim each, saying which pytest versions need it."""

import os
from collections.abc import Callable
from typing import Any

import pytest


def rewrite_only_the_suite() -> None:
    """Keep pytest from marking whole plugin packages for assertion rewriting.

    pytest rewrites the asserts of every module of every distribution that provides a plugin
    (all of hypothesis, anyio, …) as it is imported, and with no bytecode cache it does so in
    every host: most of a host's start in a large environment. Witnesses come from the suite's
    own asserts (test files and conftests, still rewritten). pytest 8.0–9.x mark them in
    `Config._mark_plugins_for_rewrite(hook, …)`, which also hands the hook to the plugin manager.
    """
    from _pytest.config import Config

    def mark_none(config: Config, hook: Any, *_args: Any, **_kwargs: Any) -> None:
        config.pluginmanager.rewrite_hook = hook

    Config._mark_plugins_for_rewrite = mark_none


def option_names(parser: pytest.Parser) -> set[str]:
    """Every option spelling (`--cov`, `-n`) and ini key registered with pytest's parser so far.

    pytest has no public listing: 8.0–9.x keep the options in `_anonymous` and `_groups` (9.x counts
    `_anonymous` among `_groups`), each with `names()`, and the ini keys in `_inidict`.
    """
    groups = [parser._anonymous, *parser._groups]
    return {name for group in groups for option in group.options for name in option.names()} | set(parser._inidict)


def fixture_functions(item: pytest.Item) -> list[Callable[..., Any]]:
    """The function of each fixture a test uses: the definition in effect for each name.

    pytest 8.0–9.x keep a test function's fixtures in `_fixtureinfo.name2fixturedefs` (definitions
    by name, the one in effect last); other items have none.
    """
    info = getattr(item, "_fixtureinfo", None)
    return [definitions[-1].func for definitions in info.name2fixturedefs.values() if definitions] if info else []


def write_nowhere(reporter: Any, config: pytest.Config) -> None:
    """Have the terminal reporter write to the null device.

    pytest 8.0–9.x: the reporter writes through `_tw`, made by `create_terminal_writer(config, file)`,
    and `Config.get_terminal_writer` hands that writer out (pytest 8's assertion comparisons use it).
    """
    from _pytest.config import create_terminal_writer

    reporter._tw = create_terminal_writer(config, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
