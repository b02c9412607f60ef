"""What the engine and a pytest host say to each other, one definition for both sides: the host's
spec (a file it reads at its start), the plan the engine answers once the baseline is over (a line
on the host's stdin), the spec the host's subprocesses read, and the host's events (JSON lines on
its events pipe). Each is written as JSON and read back whole."""

import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Self

FULL = "full"  # a run: collection, the baseline, then the mutants the plan names
COLLECT = "collect"  # the suite's test ids (`check`, `init`)
TESTS = "tests"  # a fallback mutant's tests, in a copy of its own


class _Message:
    """A dataclass written as one JSON object (one line) and read back whole."""

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Self:
        return cls(**json.loads(text))

    def write(self, path: Path) -> None:
        path.write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def read(cls, path: Path) -> Self:
        return cls.from_json(path.read_text(encoding="utf-8"))


@dataclass
class HostSpec(_Message):
    mode: str  # FULL, COLLECT or TESTS
    events_fd: int  # the pipe the host writes its events to
    project: str  # the scratch copy the tests run in
    scratch: str  # the run's folder: fallback copies, pytest's cache and temporary files
    pytest_args: list[str]
    project_roots: list[str]  # where editable installs and PYTHONPATH point; imports move to `project`
    parent: int  # the engine's process: the host ends with it
    test_paths: list[str] = field(default_factory=list)
    target_files: list[str] = field(default_factory=list)  # absolute: a conftest may change directory
    baseline_rounds: int = 1
    jobs: int = 1
    bail: bool = False
    needs: bool = False  # COLLECT: say what collecting took from outside the project
    tests: list[str] | None = None  # TESTS: node ids, run instead of `test_paths` (or among them, if any)
    limits: list[float] = field(default_factory=list)  # TESTS: each test's time limit
    removed: list[str] = field(default_factory=list)  # files the mutant removes: not imported from the roots
    subprocesses: str | None = None  # set by the host: the spec its tests' subprocesses read
    reported_as: str | None = None  # TESTS: the run's copy, which what this host sees of its own copy is said as
    replaced: dict[str, str] = field(default_factory=dict)  # TESTS, forked: files imported from this text instead


@dataclass(frozen=True)
class MutantPlan(_Message):
    """The engine's answer after the baseline: each mutant with its tests (empty when the baseline
    failed), the sources their edits apply to, the baseline's durations and the time-limit terms."""

    mutants: list[dict[str, Any]]
    sources: dict[str, str]
    durations: list[float]
    timeout_factor: float
    timeout_constant: float


@dataclass(frozen=True)
class SubprocessSpec(_Message):
    """What the host tells each Python process its tests start (read by `boot/sitecustomize.py`)."""

    roots: list[str]  # the host's project roots, imported from `project` instead
    project: str
    removed: list[str]
    target_files: list[str]
    reached: str  # the folder where each process leaves the target functions it ran


@dataclass
class Seen:
    """What one sink (collection, a test, or a fixture's setup) was seen to depend on; paths absolute, as opened."""

    reads: set[str] = field(default_factory=set)  # files opened for reading (not written by this sink first)
    direct_reads: set[str] = field(default_factory=set)  # opened itself: neither imported nor through `linecache`
    # opened by `linecache` for a module's text (a traceback, `inspect.getsource`, a doctest's lines)
    text_reads: set[str] = field(default_factory=set)
    config_reads: set[str] = field(default_factory=set)  # opened by pytest looking for its settings
    lists: set[str] = field(default_factory=set)  # folders listed
    probes: set[str] = field(default_factory=set)  # paths whose existence or kind was asked
    env: set[str] = field(default_factory=set)  # environment variables read ("*": all of them)
    imports: set[str] = field(default_factory=set)  # the modules first imported in this process, "NAME:FILE"
    writes: set[str] = field(default_factory=set)  # paths written, created, removed or renamed
    unfollowed: set[str] = field(default_factory=set)  # "subprocess", "fork", "network", "random", …
    fixtures: set[str] = field(default_factory=set)  # the names of the shared fixtures it used
    code: set[str] = field(default_factory=set)  # the project's code it ran, "PATH::NAME" (where watched)
    texts: set[str] = field(default_factory=set)  # the names code it ran from text spells (see `text_names`)
    # what pytest itself listed and asked about, finding the tests: which tests there are, not their outcomes
    layout_lists: set[str] = field(default_factory=set)
    layout_probes: set[str] = field(default_factory=set)

    @staticmethod
    def _among(paths: Iterable[str], real_path: str) -> bool:
        """Whether one of `paths` is the file at `real_path` (names compared first: a realpath each is dear)."""
        name = os.path.basename(real_path)
        return any(os.path.basename(each) == name and os.path.realpath(each) == real_path for each in paths)

    def opened(self, real_path: str) -> bool:
        """Whether it opened the file at `real_path` other than by importing it: its text is what it read."""
        return self._among(self.direct_reads, real_path) or self._among(self.text_reads, real_path)

    def opened_itself(self, real_path: str) -> bool:
        """Whether it opened the file at `real_path` neither importing it nor through `linecache`, for
        both of which a fresh host holds a mutant's text (`replaced_source`)."""
        return self._among(self.direct_reads, real_path)

    def wrote(self, real_path: str) -> bool:
        return self._among(self.writes, real_path)

    def to_json(self) -> dict[str, list[str]]:
        return {name: sorted(values) for name, values in vars(self).items() if values}

    @classmethod
    def from_json(cls, data: dict[str, list[str]]) -> "Seen":
        return cls(**{name: set(values) for name, values in data.items()})

    def moved(self, folder: str, to: str) -> "Seen":
        """The same, its paths inside `folder` said as inside `to` (a fallback copy's, as the run's copy)."""

        def move(path: str) -> str:
            return to + path[len(folder) :] if path == folder or path.startswith(folder + "/") else path

        moved = {name: {move(path) for path in values} for name, values in vars(self).items() if name != "imports"}
        imports = {f"{name}:{move(path)}" for name, _, path in (entry.partition(":") for entry in self.imports)}
        return Seen(**moved, imports=imports)

    def without(self, earlier: "Seen | None") -> "Seen":
        """What this adds to `earlier` (what the same test or fixture showed unmutated)."""
        if earlier is None:
            return self
        return Seen(**{name: values - getattr(earlier, name) for name, values in vars(self).items()})


def joined_fixtures(events: Iterable[dict[str, Any]]) -> dict[str, Seen]:
    """Each shared fixture's setups (the `fixture` events of a process or several), joined by name."""
    joined: dict[str, Seen] = {}
    for event in events:
        if "fixture" in event:
            seen = Seen.from_json(event["seen"])
            if event["fixture"] in joined:
                earlier = joined[event["fixture"]]
                seen = Seen(**{name: values | getattr(earlier, name) for name, values in vars(seen).items()})
            joined[event["fixture"]] = seen
    return joined


_OTHERWISE = ("subprocess", "forked")  # reach seen per test only, not per fixture setup
_DIRECT = ("covered", "cached", *_OTHERWISE)  # what a test reached itself, in its process or those it started


def shared_reach(results: list[dict[str, Any]], events: Iterable[dict[str, Any]]) -> None:
    """Each watched baseline result gains `shared`: the target code that can reach it through a
    fixture shared by several tests (module, class, package or session scope).

    - What the setup and the teardown of a shared fixture it uses started or took from a cache, and
      what the test it was set up in ran in another process (seen per test only), whichever test set
      it up or tore it down (a module's fixture is set up in the first of its tests; the others take
      the value the mutated code made; its teardown runs in the last, which fails if the teardown does).
    - For a carrier (a fixture the project defines whose value can change: not None, a number, a
      string, a path, or tuples of these): what every test that shares the value reached (those that
      use it, the one that set it up, and, where the fixture has a teardown of its own, the one that
      tore it down), joined over the carriers those tests share in turn. Under a mutant of that code,
      any of them can leave the value changed for the next (a list it fills, a thread it finishes).
    """
    started: dict[str, set[str]] = {}
    asked: dict[str, set[str]] = {}  # a fixture -> those its setup asked for by name (`getfixturevalue`)
    carriers: set[str] = set()
    with_teardown: set[str] = set()
    finalized: list[tuple[int, str]] = []
    by_test = {result["test"]: result for result in results}
    for event in events:
        if "fixture" in event:
            started.setdefault(event["fixture"], set()).update(event.get("started", ()))
            # a cache's answer, a subprocess or a forked process is seen per test, not per setup: what
            # the test that set the fixture up reached so counts for the setup
            setter = by_test.get(event.get("during"), {})
            started[event["fixture"]].update(name for kind in _OTHERWISE for name in setter.get(kind, ()))
            asked.setdefault(event["fixture"], set()).update(event["seen"].get("fixtures", ()))
            if event.get("carrier"):
                carriers.add(event["fixture"])
            if event.get("teardown"):
                with_teardown.add(event["fixture"])
        elif "finalized" in event:  # what its teardown started reaches its users as its setup's does
            started.setdefault(event["finalized"], set()).update(event.get("started", ()))
            finalized.append((event["during"], event["finalized"]))
    torn_down: dict[int, set[str]] = {}  # a test -> the fixtures whose own teardown ran in its teardown
    for index, name in finalized:
        if name in with_teardown:
            torn_down.setdefault(index, set()).add(name)
    used = [_used_fixtures(result, asked) for result in results]
    sharing = _SharedValues(carriers)
    for index, names in enumerate(used):
        sharing.join(names | torn_down.get(index, set()), _direct_reach(results[index]))
    for index, result in enumerate(results):
        reached = set().union(*(started.get(name, set()) for name in used[index]))
        reached |= sharing.reach(used[index] | torn_down.get(index, set()))
        if reached := reached - _direct_reach(result):
            result["shared"] = sorted(reached)
        if group := sharing.group(used[index] | torn_down.get(index, set())):
            result["sharing"] = group  # its outcome stands on what the others of its group did


def _used_fixtures(result: dict[str, Any], asked: dict[str, set[str]]) -> set[str]:
    """The fixtures a test uses, and those they asked for, set up earlier or elsewhere."""
    names: set[str] = set()
    pending = list(result.get("seen", {}).get("fixtures", ()))
    while pending:
        name = pending.pop()
        if name not in names:
            names.add(name)
            pending.extend(asked.get(name, ()))
    return names


def _direct_reach(result: dict[str, Any]) -> set[str]:
    """The target code a baseline test ran itself, in its process or in those it started."""
    return {name for kind in _DIRECT for name in result.get(kind, ())}


class _SharedValues:
    """The carriers grouped by the tests that share them (a test sharing two joins their groups), each
    group with what its tests reached."""

    def __init__(self, carriers: set[str]) -> None:
        self.carriers = carriers
        self.parent: dict[str, str] = {name: name for name in carriers}
        self.reached: dict[str, set[str]] = {}

    def _root(self, name: str) -> str:
        while self.parent[name] != name:
            self.parent[name] = self.parent[self.parent[name]]
            name = self.parent[name]
        return name

    def join(self, names: set[str], reached: set[str]) -> None:
        roots = {self._root(name) for name in names & self.carriers}
        if not roots:
            return
        first, *others = sorted(roots)
        joined = self.reached.setdefault(first, set())
        joined |= reached
        for other in others:
            self.parent[other] = first
            joined |= self.reached.pop(other, set())

    def reach(self, names: set[str]) -> set[str]:
        return set().union(*(self.reached.get(self._root(name), set()) for name in names & self.carriers))

    def group(self, names: set[str]) -> str | None:
        """The name of the group of the fixtures `names`, the same for every test of it; None outside any."""
        return next((self._root(name) for name in sorted(names & self.carriers)), None)


# -- the host's events, one JSON line each on the events pipe ------------------------------------


@dataclass(frozen=True)
class Collected:
    tests: list[str]  # node ids; a test's index in this list names it in every later event
    notes: list[str]  # what the host changed of the project's options, said once by the engine
    collection_started: float  # moments on the system's monotonic clock, which the engine shares
    collected: float
    needs: dict[str, list[str]] | None = None  # COLLECT with `needs`: what collecting took from outside
    files: list[str] | None = None  # FULL: per test, its file, relative to the project
    modules: list[str] | None = None  # FULL: the project's Python files imported by then, relative to it
    module_names: dict[str, str] | None = None  # FULL: each of those files' module names
    loaded: list[str] | None = None  # FULL: every module's name loaded by then
    # FULL: the target files whose module the suite imported from another file, with that file
    elsewhere: dict[str, str] | None = None
    code_watched: bool = False  # FULL: whether collecting's code was all watched, or the targets' alone


@dataclass(frozen=True)
class CollectionFailed:
    broken: str  # why the suite (or a fallback mutant's tests' modules) did not collect


@dataclass(frozen=True)
class UnusableOption:
    source: str
    field: str
    message: str


@dataclass(frozen=True)
class BaselineRan:
    round: int
    results: list[dict[str, Any]]  # per test, in collection order: outcome, duration, witness, reach
    order_dependent: list[int]  # tests that failed only as the workers split the suite
    at: float
    import_reached: list[str] | None = None  # the first round: target functions run during collection
    fixtures: dict[str, dict[str, list[str]]] | None = None  # the first round: each shared fixture's setup, seen
    collection: dict[str, list[str]] | None = None  # the first round: what the host's start and collecting read


@dataclass(frozen=True)
class MutantRan:
    id: str
    path: str  # "swap" or "fallback"
    fallback: dict[str, str | None] | None
    timed_out: bool
    broken: str | None
    outcomes: dict[int, str]  # test index -> outcome, every selected test
    durations: dict[int, float]
    witnesses: dict[int, str]
    seconds: float
    keepable: bool = False  # ran on the swap path once, to the end: its outcomes can be kept for reuse
    code_watched: bool = False  # the code its tests ran was watched (see `watch`)
    # a keepable one's: what each test (by index) and each shared fixture was seen to depend on
    # beyond what it showed in the baseline (see `watch`)
    seen: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    fixtures: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    confirmed: list[int] = field(default_factory=list)  # tests whose outcomes a run in the suite's order settled
    # a keepable one's: that run's tests, in order, and what each was seen to depend on there
    in_order: list[int] = field(default_factory=list)
    in_order_seen: dict[int, dict[str, list[str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class RunDone:
    controls: dict[str, int]


HostEvent = Collected | CollectionFailed | UnusableOption | BaselineRan | MutantRan | RunDone
_NAMES: dict[type, str] = {
    Collected: "collected",
    CollectionFailed: "collection-error",
    UnusableOption: "unusable-option",
    BaselineRan: "baseline",
    MutantRan: "mutant",
    RunDone: "done",
}
_KINDS = {name: kind for kind, name in _NAMES.items()}
# JSON keys are strings; a mutant's test indices are not
_BY_INDEX = ("outcomes", "durations", "witnesses", "seen", "in_order_seen")


def event_json(event: HostEvent) -> str:
    data = asdict(event)
    for name in _BY_INDEX if isinstance(event, MutantRan) else ():
        if name in data:
            data[name] = {str(index): value for index, value in data[name].items()}
    return json.dumps({"event": _NAMES[type(event)], **data})


def read_event(line: str) -> HostEvent:
    data = json.loads(line)
    kind = _KINDS[data.pop("event")]
    for name in _BY_INDEX if kind is MutantRan else ():
        if name in data:
            data[name] = {int(index): value for index, value in data[name].items()}
    return kind(**data)
