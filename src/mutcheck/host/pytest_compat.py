"""The pytest internals mutcheck relies on, one shim each, saying which pytest versions need it."""

from collections.abc import Callable
from typing import Any

import pytest


def renew_request(item: pytest.Item) -> None:
    """Give an item that has run before a fresh fixture request, as pytest's runtestprotocol does.

    pytest 8.0–9.x: a test function keeps its fixture request in `_request` (made by
    `_initrequest`), dropped after teardown; pytest has no public way to run an item again.
    """
    if hasattr(item, "_request") and not item._request:
        item._initrequest()


def release_request(item: pytest.Item) -> None:
    """Drop the item's fixture request and values after teardown, as runtestprotocol does (8.0–9.x)."""
    if hasattr(item, "_request"):
        item._request = False
        item.funcargs = None


def reraised_exceptions(config: pytest.Config) -> tuple[type[BaseException], ...]:
    """What a test phase lets through instead of recording it: `pytest.exit`, and Ctrl-C unless `--pdb`.

    pytest 9.0+ names this rule `_pytest.runner.get_reraise_exceptions`; 8.0–8.4 spell it out in
    `call_and_report` and `call_runtest_hook`. The rule is the same in every version, so it is
    written here from public parts (`--pdb` stores `usepdb` in all of them).
    """
    if config.getoption("usepdb", False):
        return (pytest.exit.Exception,)
    return (pytest.exit.Exception, KeyboardInterrupt)


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
