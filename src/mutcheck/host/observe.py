"""What a test process sees a test depend on besides the code it runs: the files it reads, the
folders it lists, the paths whose existence it asks, the environment variables it reads, the modules
it imports first, what it writes, whether it did something no record follows (a subprocess, the
network, a draw from `random` it did not seed), and the names that code it runs from text (`exec`,
`eval`) spells. Collection, each test, and each fixture set up for several tests (its own "sink")
are seen apart.

The interpreter's audit events (`sys.addaudithook`) say what is opened, listed, written and started;
environment reads go through `os._Environ`'s item access and existence questions through `os.stat`
and `os.lstat`, wrapped once per host (every fork inherits them). Outside a sink (mutcheck's own
machinery between tests) every record is dropped at once.
"""

import functools
import os
import random
import sys
import types
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from types import CodeType, FrameType
from typing import Any

from mutcheck.host.text_names import text_names
from mutcheck.host.wire import Seen
from mutcheck.sandbox.scratch import CACHE_FOLDERS

COLLECTION = "collection"
# who opened a file for reading
BY_IMPORT, BY_LINECACHE, BY_PYTEST_CONFIG, DIRECTLY = "import", "linecache", "pytest-config", "directly"
# a process forked without exec: it runs on in this interpreter's memory (multiprocessing's `fork`
# workers), so it imports nothing anew from disk that a test's process holds; what it reads is unseen
FORK = "fork"
_WRITING = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
# What no record follows: the tests that did it are never reused (what they reached is unseen).
_UNFOLLOWED = {
    "subprocess.Popen": "subprocess",
    "os.system": "subprocess",
    "os.posix_spawn": "subprocess",
    "os.spawn": "subprocess",
    "os.exec": "subprocess",
    "os.fork": FORK,
    "os.forkpty": FORK,
    "socket.connect": "network",
    "socket.sendto": "network",
    "socket.sendmsg": "network",
    "socket.getaddrinfo": "network",
    "socket.gethostbyname": "network",
    "socket.gethostbyaddr": "network",
}
_CHANGING = ("os.remove", "os.rmdir", "os.mkdir", "os.symlink", "os.truncate", "os.chmod", "os.utime", "shutil.rmtree")
# Set by pytest (the running test's id) or by mutcheck for its own processes: never a test's input.
_OWN_VARIABLES = ("PYTEST_CURRENT_TEST", "MUTCHECK_")
WHOLE_ENVIRONMENT = "*"
DISK_SOURCE = "disk-source"  # unfollowed: a fresh host's replaced file read from disk by an import
DISK_SOURCE_MARK = "needed-the-disk"  # in a fresh host's folder: made by a process one of its tests forked


def _path(value: object) -> str | None:
    """An absolute path for a path-like argument; None for a file descriptor or anything else."""
    if isinstance(value, int) or value is None:
        return None
    try:
        return os.path.abspath(os.fsdecode(value))
    except (TypeError, ValueError):
        return None


def fixture_key(name: str) -> str:
    return f"fixture:{name}"


class Sink:
    def __init__(self, key: str, fixtures: Iterable[str]) -> None:
        self.key = key
        self.fixtures = set(fixtures)  # the shared fixtures of the test in force
        # whose writes this sink's reads may follow: its own, collecting's, and those fixtures'
        self.allowed = {key, COLLECTION, *map(fixture_key, self.fixtures)}
        self.seen = Seen()


class Observer:
    """The process's one observer: the sinks in turn, and who wrote each path so far."""

    def __init__(self) -> None:
        self.stack: list[Sink] = []
        self.sink: Sink | None = None
        self.written_by: dict[str, str] = {}  # path -> the sink that last wrote it, in this process
        self.modules = set(sys.modules)
        self.replaced: frozenset[str] = frozenset()  # a fresh host's files imported from a text (real paths)
        self._replaced_names: frozenset[str] = frozenset()
        # a fresh host's: the file a process its tests forked creates when it did what only a copy serves
        self.disk_source_mark: str | None = None
        self.forked = False  # in a process forked in a fresh host (by its tests: it forks nothing else)

    # -- sinks ------------------------------------------------------------------------------
    def begin(self, key: str, fixtures: Iterable[str] = ()) -> None:
        """A sink in force from now on; `fixtures`: the names of the test's fixtures (see `Sink`)."""
        self._imports()  # what the outer sink imported so far is its own
        sink = Sink(key, fixtures)
        self.stack.append(sink)
        self.sink = sink

    def end(self) -> Seen:
        self._imports()
        sink = self.stack.pop()
        if self._needed_the_disk():
            sink.seen.unfollowed.add(DISK_SOURCE)
        self.sink = self.stack[-1] if self.stack else None
        return sink.seen

    def _imports(self) -> None:
        """The modules new since the last look, for the sink in force: their files."""
        if len(sys.modules) == len(self.modules) or self.sink is None:
            return
        modules = dict(sys.modules)
        for name in modules.keys() - self.modules:
            filename = getattr(modules[name], "__file__", None)
            if isinstance(filename, str):
                self.sink.seen.imports.add(f"{name}:{os.path.abspath(filename)}")
        self.modules = set(modules)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """mutcheck's own doing inside a sink (the fork server's fork): nothing of it is recorded."""
        sink, self.sink = self.sink, None
        try:
            yield
        finally:
            self.sink = sink

    # -- records ----------------------------------------------------------------------------
    def read(self, path: str, way: str = DIRECTLY) -> None:
        """`path` read (not written by this sink first): `way` is who opened it (see `_opener`)."""
        sink = self.sink
        if self.written_by.get(path) not in sink.allowed:
            if way == BY_PYTEST_CONFIG:
                sink.seen.config_reads.add(path)
                return
            sink.seen.reads.add(path)
            if way == DIRECTLY:
                sink.seen.direct_reads.add(path)
            elif way == BY_LINECACHE:
                sink.seen.text_reads.add(path)

    def wrote(self, path: str) -> None:
        if CACHE_FOLDERS.intersection(path.split(os.sep)):  # a tool's cache: made by the run (see `labels`)
            return
        self.sink.seen.writes.add(path)
        self.written_by[path] = self.sink.key
        folder = os.path.dirname(path)
        self.sink.seen.writes.add(folder)  # its folder's listing changed
        self.written_by[folder] = self.sink.key

    def listed(self, path: str, by_pytest: bool) -> None:
        if self.written_by.get(path) not in self.sink.allowed:
            (self.sink.seen.layout_lists if by_pytest else self.sink.seen.lists).add(path)

    def probed(self, path: str, by_pytest: bool) -> None:
        if self.written_by.get(path) not in self.sink.allowed:
            (self.sink.seen.layout_probes if by_pytest else self.sink.seen.probes).add(path)

    def variable(self, name: str) -> None:
        if not name.startswith(_OWN_VARIABLES):
            self.sink.seen.env.add(name)

    def replace(self, paths: Iterable[str], mark: str) -> None:
        """In a fresh host: `paths` are imported from a mutant's text; `mark` is the file a process its
        tests fork makes when it needs them on disk."""
        self.replaced = frozenset(os.path.realpath(path) for path in paths)
        self._replaced_names = frozenset(os.path.basename(path) for path in self.replaced)
        self.disk_source_mark = mark

    def is_replaced(self, path: str) -> bool:
        """Whether `path` is a file imported from a text here (names compared first: a realpath each is dear)."""
        return os.path.basename(path) in self._replaced_names and os.path.realpath(path) in self.replaced

    def mark_disk_source(self) -> None:
        """In a process a fresh host's test forked, what only a copy serves (see `_in_a_forked_process`):
        marked for the host to see as its sink in force ends."""
        if self.disk_source_mark is None:
            return
        # OSError: the host and its folder are gone (a process that outlived it), and no outcome is left to tell
        with suppress(OSError):
            os.close(os.open(self.disk_source_mark, os.O_WRONLY | os.O_CREAT, 0o600))

    def _needed_the_disk(self) -> bool:
        """Whether a process a fresh host's test forked started another or opened a replaced file:
        what it did then stood on the original text on disk, not the mutant's."""
        return self.disk_source_mark is not None and os.path.exists(self.disk_source_mark)


OBSERVER = Observer()


def _on_open(args: tuple[Any, ...]) -> None:
    path = _path(args[0])
    if path is None:
        return
    flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
    mode = args[1] if len(args) > 1 and isinstance(args[1], str) else ""
    writing = flags & _WRITING or any(letter in mode for letter in "wax+")
    if not writing or flags & os.O_RDWR or "+" in mode:
        caller = sys._getframe(1).f_back  # None: opened from C with no Python frame
        OBSERVER.read(path, _opener(caller))
        if OBSERVER.is_replaced(path):
            # a fresh host holds the text for importing and for `linecache`: whoever opened the file
            # read the original (a loader of its own, `linecache` after its cache was cleared, a test)
            OBSERVER.sink.seen.unfollowed.add(DISK_SOURCE)
    if writing:
        OBSERVER.wrote(path)


def _opener(caller: FrameType | None) -> str:
    """Who opened a file for reading: the import system (`io.open_code` in a loader's `get_data`),
    `linecache` (through `tokenize.open`) for a traceback, `inspect`'s source or a doctest's lines,
    pytest looking for its configuration, or the code itself. A fresh host serves the first two from
    the mutant's text (`replaced_source`)."""
    if caller is None:
        return DIRECTLY
    if caller.f_code.co_filename.startswith("<frozen importlib"):
        return BY_IMPORT
    if _past_helpers(caller, _opens_for_its_caller).f_code.co_filename.endswith(_PYTEST_CONFIG_LOADER):
        return BY_PYTEST_CONFIG
    reader = caller.f_back if _is(caller.f_code, "tokenize.py", "open") else caller
    return BY_LINECACHE if reader is not None and _is(reader.f_code, "linecache.py", "updatecache") else DIRECTLY


def _is(code: CodeType, file_name: str, function: str) -> bool:
    return code.co_name == function and os.path.basename(code.co_filename) == file_name


# Standard library modules that list or ask about paths for their caller (by module name, whether
# frozen or read from a file): the caller is who asked.
_PATH_HELPERS = frozenset({"pathlib", "genericpath", "posixpath", "ntpath", "os", "glob", "fnmatch"})
_PYTEST = f"{os.sep}_pytest{os.sep}"
# where pytest reads the files it may take its settings from (each one it looks at, and `-c FILE`)
_PYTEST_CONFIG_LOADER = os.path.join("_pytest", "config", "findpaths.py")
_INICONFIG = f"{os.sep}iniconfig{os.sep}"
# mutcheck's own code, which asks about paths inside a sink for itself (where an import's module lies)
_OWN = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _path_helper(filename: str) -> bool:
    module = os.path.basename(filename).removeprefix("<frozen ").removesuffix(">").removesuffix(".py")
    return module in _PATH_HELPERS or f"{os.sep}pathlib{os.sep}" in filename


def _opens_for_its_caller(filename: str) -> bool:
    """`pathlib` and `iniconfig`, which open a file for whoever asked them for its text."""
    return _path_helper(filename) or _INICONFIG in filename


def _past_helpers(frame: FrameType, helper: Callable[[str], bool] = _path_helper) -> FrameType:
    """`frame`, or the first frame above it whose code is no `helper` (the standard library's path helpers)."""
    for _ in range(6):
        if frame.f_back is None or not helper(frame.f_code.co_filename):
            return frame
        frame = frame.f_back
    return frame


def _asker(depth: int) -> str:
    """The file of the code that asked, `depth` frames up, passing the standard library's path helpers."""
    return _past_helpers(sys._getframe(depth + 1)).f_code.co_filename


def _on_list(args: tuple[Any, ...]) -> None:
    path = _path(args[0] if args and args[0] is not None else ".")
    if path is None:
        return
    asker = _asker(2)  # past `_audit`
    if asker.startswith(("<frozen importlib", _OWN)):  # the import system's own look for modules, or ours
        return
    OBSERVER.listed(path, by_pytest=_PYTEST in asker)


def _on_rename(args: tuple[Any, ...]) -> None:
    for value in args[:2]:
        if (path := _path(value)) is not None:
            OBSERVER.wrote(path)


def _on_change(args: tuple[Any, ...]) -> None:
    if args and (path := _path(args[0])) is not None:
        OBSERVER.wrote(path)


# Who runs a module's own code from its compiled file: importing it (that code is evidence as the module's).
_IMPORTERS = (
    os.sep + os.path.join("_pytest", "assertion", "rewrite.py"),
    os.sep + os.path.join("mutcheck", "host", "import_reach.py"),
)


def _on_exec(args: tuple[Any, ...]) -> None:
    """Code run by `exec` or `eval` (a text compiled, or a code object): the names it spells."""
    code = args[0] if args else None
    if not isinstance(code, CodeType):
        return
    caller = sys._getframe(2).f_code.co_filename  # past `_audit`: who called exec
    if (caller.startswith("<frozen importlib") or caller.endswith(_IMPORTERS)) and os.path.isfile(code.co_filename):
        return
    OBSERVER.sink.seen.texts |= text_names(code)


def _on_load(args: tuple[Any, ...]) -> None:
    """A database or a shared library opened by C code, named by its path: read."""
    if args and (path := _path(args[0])) is not None and os.path.exists(path):
        OBSERVER.read(path)


_HANDLERS: dict[str, Callable[[tuple[Any, ...]], None]] = {
    "open": _on_open,
    "exec": _on_exec,
    "sqlite3.connect": _on_load,
    "ctypes.dlopen": _on_load,
    "os.listdir": _on_list,
    "os.scandir": _on_list,
    "os.rename": _on_rename,
    "os.link": _on_rename,
    **dict.fromkeys(_CHANGING, _on_change),
}


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if OBSERVER.forked:
        _in_a_forked_process(event, args)
    if OBSERVER.sink is None:
        return
    handler = _HANDLERS.get(event)
    if handler is not None:
        handler(args)
    elif event in _UNFOLLOWED:
        OBSERVER.sink.seen.unfollowed.add(_UNFOLLOWED[event])


def _in_a_forked_process(event: str, args: tuple[Any, ...]) -> None:
    """Whether or not a sink records here: the replaced file opened (by an import or not: the text on
    disk), or a process started."""
    if event == "open" and args and (path := _path(args[0])) is not None:
        if OBSERVER.is_replaced(path):
            OBSERVER.mark_disk_source()
    elif _UNFOLLOWED.get(event) == "subprocess":
        OBSERVER.mark_disk_source()


def _forked() -> None:
    """In the child of a fork in a fresh host (files replaced): see `_in_a_forked_process`."""
    if OBSERVER.replaced:
        OBSERVER.forked = True


def _environment_reads() -> None:
    """`os.environ[name]`, `.get`, `in`, `os.getenv` all read through `__getitem__`; iterating reads all."""
    environ = type(os.environ)
    getitem, iterate = environ.__getitem__, environ.__iter__

    def __getitem__(self: Any, key: Any) -> Any:
        if OBSERVER.sink is not None:
            OBSERVER.variable(os.fsdecode(key) if isinstance(key, bytes) else str(key))
        return getitem(self, key)

    def __iter__(self: Any) -> Any:
        if OBSERVER.sink is not None:
            OBSERVER.variable(WHOLE_ENVIRONMENT)
        return iterate(self)

    environ.__getitem__, environ.__iter__ = __getitem__, __iter__


def _probing(real: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(real)
    def probe(path: Any, *args: Any, **kwargs: Any) -> Any:
        if OBSERVER.sink is not None and kwargs.get("dir_fd") is None and (absolute := _path(path)) is not None:
            asker = _asker(1)
            if not asker.startswith(_OWN):
                OBSERVER.probed(absolute, by_pytest=_PYTEST in asker)
        return real(path, *args, **kwargs)

    return probe


def _following_fork_exec() -> None:
    """A process started without `subprocess` raises no audit event: multiprocessing's `spawn` and
    `forkserver` start their workers with `_posixsubprocess.fork_exec` itself."""
    import _posixsubprocess

    fork_exec = _posixsubprocess.fork_exec

    @functools.wraps(fork_exec)
    def started(*args: Any, **kwargs: Any) -> Any:
        if OBSERVER.forked:
            OBSERVER.mark_disk_source()
        if OBSERVER.sink is not None:
            OBSERVER.sink.seen.unfollowed.add("subprocess")
        return fork_exec(*args, **kwargs)

    _posixsubprocess.fork_exec = started


def _observing_random() -> None:
    """`random`'s functions are bound methods of one hidden instance, every draw of which goes through
    its `random` or `getrandbits`: those two, and its `seed` and `setstate`, are shadowed on that
    instance (and the module's names for them bound anew) by bound methods of the same names, so that
    a draw in a sink that did not seed it itself with a value is one no record follows: what it gives
    differs from run to run. (A seed the sink took from the clock or the system, as pytest-randomly's
    is each session, is not seen as such: see docs/reuse.md.) The instance stays a `random.Random`
    drawing the same stream, and pickles as before (by its class and state, as `getattr` for a method)."""
    generator = random._inst
    seeded_in: list[Sink | None] = [None]  # the sink that last seeded it with a value of its own

    def _seeded(a: Any) -> None:
        seeded_in[0] = OBSERVER.sink if a is not None else None

    def seed(self: random.Random, a: Any = None, version: int = 2) -> None:
        random.Random.seed(self, a, version)
        _seeded(a)

    def setstate(self: random.Random, state: Any) -> None:
        random.Random.setstate(self, state)
        _seeded(None)  # a state is as reproducible as whatever drew it (`setstate(getstate())` is no seed)

    def _drawn() -> None:
        sink = OBSERVER.sink
        if sink is not None and seeded_in[0] is not sink:
            sink.seen.unfollowed.add("random")

    def random_(self: random.Random) -> float:
        _drawn()
        return random.Random.random(self)

    def getrandbits(self: random.Random, k: int, /) -> int:
        _drawn()
        return random.Random.getrandbits(self, k)

    random_.__name__ = random_.__qualname__ = "random"
    for function in (seed, setstate, random_, getrandbits):
        method = types.MethodType(function, generator)
        setattr(generator, function.__name__, method)
        setattr(random, function.__name__, method)


def start_observing() -> None:
    """Once per host, before the project's code runs: from here on, every sink records."""
    sys.addaudithook(_audit)
    os.register_at_fork(after_in_child=_forked)
    _following_fork_exec()
    _environment_reads()
    _observing_random()
    os.stat, os.lstat = _probing(os.stat), _probing(os.lstat)
    OBSERVER.modules = set(sys.modules)
