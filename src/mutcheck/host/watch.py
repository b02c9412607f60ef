"""One test process's watch over its tests: for each test, and for each fixture that a test sets up
for several (its setup seen apart, and named by every test that uses the fixture), the project code
it ran (`reach`, where watched) and whatever else it was seen to depend on (`observe`). A mutant's
process sends only what a test or fixture adds to what it showed unmutated."""

from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from mutcheck.host.events import EventWriter
from mutcheck.host.observe import OBSERVER, fixture_key, start_observing
from mutcheck.host.reach import Reach, Reached
from mutcheck.host.wire import Seen

_ACTIVE: "Watch | None" = None


@dataclass
class FixtureSetup:
    carrier: bool = False  # the project's fixture, whose value tests can change (see `host.wire.shared_reach`)


class Watch:
    def __init__(
        self,
        events: EventWriter,
        reach: Reach | None,
        earlier: list[Seen | None] | None = None,
        earlier_fixtures: dict[str, Seen] | None = None,
        moved: tuple[str, str] | None = None,
    ) -> None:
        self.events = events
        self.reach = reach
        self.moved = moved  # a fallback host's copy, and the run's copy it is said as (see `Seen.moved`)
        self.earlier = earlier  # per test, what it showed unmutated (a mutant's process sends the rest)
        self.earlier_fixtures = earlier_fixtures or {}
        self.index: int | None = None
        self.teardowns: dict[str, set[str]] = {}  # a shared fixture being torn down -> what its teardown started

    def start_test(self, index: int, item: pytest.Item) -> None:
        global _ACTIVE
        _ACTIVE = self
        self.index = index
        fixtures = set(getattr(item, "fixturenames", ()))
        OBSERVER.begin(f"test:{index}", fixtures)
        OBSERVER.sink.seen.fixtures |= fixtures
        if self.reach:
            self.reach.start_test()

    def stop_test(self) -> tuple[Reached | None, Seen]:
        global _ACTIVE
        _ACTIVE = None
        reached = self.reach.stop_test() if self.reach else None
        seen = OBSERVER.end()
        if reached is not None:
            seen.code |= set(reached.code)
        earlier = self.earlier[self.index] if self.earlier is not None else None
        return reached, self._said(seen.without(earlier))

    def _said(self, seen: Seen) -> Seen:
        return seen.moved(*self.moved) if self.moved else seen

    @contextmanager
    def fixture(self, name: str, teardown: bool) -> Generator["FixtureSetup", None, None]:
        """A shared fixture's setup inside the running test: what it does is the fixture's own
        (`teardown`: it can run code of its own when torn down; the caller says, through what this
        yields, whether the value the setup made carries what tests do to it)."""
        setup = FixtureSetup()
        outer = OBSERVER.sink
        outer.seen.fixtures.add(name)
        OBSERVER.begin(fixture_key(name), outer.fixtures)
        if self.reach:
            self.reach.enter()
        try:
            yield setup
        finally:
            code, started = self.reach.leave() if self.reach else ([], [])
            seen = OBSERVER.end()
            seen.code |= set(code)
            seen = self._said(seen.without(self.earlier_fixtures.get(name)))
            event = {
                "fixture": name,
                "seen": seen.to_json(),
                "started": started,
                "carrier": setup.carrier,
                "teardown": teardown,
                "during": self.index,
            }
            self.events.write(event)

    def tearing_down(self, name: str) -> None:
        """A shared fixture's own teardown begins: the target code it starts is noted apart."""
        if self.reach is not None:
            self.teardowns[name] = started = set()
            self.reach.also_into(started)

    def finalized(self, name: str) -> None:
        """A shared fixture was torn down in the running test's teardown, having started `started`."""
        started = self.teardowns.pop(name, set())
        if self.reach is not None:
            self.reach.no_longer_into(started)
        self.events.write({"finalized": name, "during": self.index, "started": sorted(started)})


def active() -> Watch | None:
    """The watch of the test running in this process, if any."""
    return _ACTIVE


def start_watching() -> None:
    """Once per host, before the project's code runs (see `observe`); a fixture asked for by name
    while a test runs (`request.getfixturevalue`) counts as used by it."""
    start_observing()
    getfixturevalue = pytest.FixtureRequest.getfixturevalue

    def asked(self: pytest.FixtureRequest, argname: str) -> object:
        if OBSERVER.sink is not None:
            OBSERVER.sink.seen.fixtures.add(argname)
        return getfixturevalue(self, argname)

    pytest.FixtureRequest.getfixturevalue = asked
