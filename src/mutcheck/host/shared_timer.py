"""pytest-timeout's signal timer under a time limit: one SIGALRM, timed by the test process's alarm.

A process has one SIGALRM timer. pytest-timeout's signal method sets it for each test it times and,
left to itself, replaced mutcheck's own limit for that test: a test that hangs under a mutant ran
until the plugin's time-out (often minutes) or until its process's whole budget was spent. Through
the plugin's `pytest_timeout_set_timer` hook the alarm times both (see `timeouts.Alarm.share`):
whichever limit comes first acts, the plugin's through the plugin's own handler, so a test the plugin
fails in a plain run fails here the same way. The plugin's thread method, and every test run with no
limit armed (the baseline's), are left to the plugin. A pytest-timeout too old for the hook (before
2.1) keeps the plugin's timer alone, as before.
"""

import importlib
import threading
from typing import Any

import pytest

from mutcheck.host.timeouts import Alarm

_ALARM = pytest.StashKey[Alarm]()
_NAME = "mutcheck-shared-timer"


class _SharedTimer:
    """pytest-timeout's timer for the signal method, set on the alarm while a limit is armed."""

    def __init__(self, alarm: Alarm) -> None:
        self.alarm = alarm

    @pytest.hookimpl(tryfirst=True)
    def pytest_timeout_set_timer(self, item: pytest.Item, settings: Any) -> bool | None:
        signal_method = settings.method == "signal" and threading.current_thread() is threading.main_thread()
        if self.alarm.limit is None or not signal_method:
            return None
        plugin = importlib.import_module("pytest_timeout")
        self.alarm.share(settings.timeout, lambda: plugin.timeout_sigalrm(item, settings))
        item.cancel_timeout = self.alarm.unshare  # what the plugin's own `pytest_timeout_cancel_timer` calls
        return True


def process_alarm(config: pytest.Config) -> Alarm:
    """This process's alarm, timing pytest-timeout's signal timer too where the plugin has the hook.
    Made at its first use: a host makes it before it forks, because registering a plugin makes
    pytest parse it for fixtures, a cost every child would repeat."""
    if _ALARM not in config.stash:
        alarm = config.stash[_ALARM] = Alarm()
        if hasattr(config.pluginmanager.hook, "pytest_timeout_set_timer"):
            config.pluginmanager.register(_SharedTimer(alarm), _NAME)
    return config.stash[_ALARM]
