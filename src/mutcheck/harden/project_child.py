"""The child `harden` runs its project code in, inside a scratch copy: it records the calls the tests
make to one function, replays calls as source, or runs pytest on named tests.

One spec in (its file named in argv), one answer out (at the spec's `answer` path), as `wire.py`
defines them. The modes:
- `record`: the tests run with the function wrapped; each call whose arguments can be written as
  source is kept with what the function did (its return value or exception, and the arguments
  afterwards: a change in place is behaviour too). The constructors of the module's classes are
  wrapped too, and their class methods: an object the tests made is written as the call that made
  it. A constructor's own calls are calls of its class (or of a subclass that keeps it); a
  coroutine is awaited, a generator consumed whole (a call the caller stops early is not kept).
  Also the module's functions through which the tests reached it (their entries), with how often:
  where its own arguments cannot be written (an object the module made for itself), the tests'
  calls of an entry carry the mutant's effect.
- `replay`: each call, built from its source, made again `rounds` times (a coroutine in its own
  event loop); what it did each time and, asked (`trace`), the lines of the function its first
  time ran, and the warnings' categories; a call past its time limit (`call_limit`) is `unfinished`
  (after a few, the rest are not made).
- `pytest`: pytest on the named test ids; each test's outcome.
"""

import asyncio
import contextlib
import functools
import importlib
import inspect
import json
import os
import signal
import sys
import tempfile
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mutcheck.harden.lines_run import lines_run
from mutcheck.harden.values import Made, Tree, Unwritable, checked_tree, format_tree, namespace, observed_tree, tree_of
from mutcheck.harden.wire import (
    ANYIO_MARK,
    ASYNC_GENERATOR,
    ASYNCIO_MARK,
    ASYNCIO_RUN,
    CLASS,
    CONSTRUCTOR,
    COROUTINE,
    FUNCTION,
    GENERATOR,
    MAX_CALL_SIZE,
    METHOD,
    PROPERTY,
    PYTEST,
    RECORD,
    REPLAY,
    STATIC,
    TOO_LARGE,
    Call,
    ChildSpec,
    Located,
    Observed,
    PytestAnswer,
    RecordAnswer,
    ReplayAnswer,
    write_answer,
)
from mutcheck.host.pytest_options import switch_off_xdist
from mutcheck.sandbox.imports import redirect_imports
from mutcheck.sandbox.process import die_with_parent

_MAX_CALLS = 200  # distinct calls kept per function: more adds time, not witnesses
# a call's arguments as data (their trees, as JSON), at most: far beyond what their source takes
# (MAX_CALL_SIZE), so not worth writing out
_MAX_CALL_DATA = 10 * MAX_CALL_SIZE
# a making call's positional and keyword argument trees, and their imports
_MakingCall = tuple[list[Tree], dict[str, Tree], set[tuple[str, str]]]
_MAX_MADE = 2000  # constructor calls kept: objects made later are written from their attributes
# how many calls of one batch may reach their time limit before the rest are not made: a mutant that
# loops forever costs seconds, not the whole batch
_UNFINISHED_MAX = 3


class Refused(Exception):
    """The function cannot be recorded or replayed; the message says why."""


def _module_of(file: str) -> Any:
    """The loaded module whose file is `file` (the tests imported it under the name they use)."""
    real = os.path.realpath(file)
    for module in list(sys.modules.values()):
        origin = getattr(module, "__file__", None)
        if origin and os.path.realpath(origin) == real:
            return module
    raise Refused("the tests never import its file")


def locate(module: Any, qualname: str, line: int | None = None) -> tuple[str, Any, Any]:
    """(kind, owner, function) for a qualified name in a module; Refused when its calls cannot be
    made by themselves. A property is its getter when that holds `line` (the mutant's)."""
    owner: Any = module
    parts = qualname.split(".")
    for part in parts[:-1]:
        owner = getattr(owner, part, None)
        if not inspect.isclass(owner):
            raise Refused(f"{part} is not a class of the module")
    found = inspect.getattr_static(owner, parts[-1], None)
    if isinstance(found, staticmethod):
        kind, function = STATIC, found.__func__
    elif isinstance(found, classmethod):
        kind, function = CLASS, found.__func__
    elif inspect.isfunction(found) and parts[-1] == "__init__" and inspect.isclass(owner):
        kind, function = CONSTRUCTOR, found
    elif inspect.isfunction(found):
        kind, function = (METHOD if inspect.isclass(owner) else FUNCTION), found
    elif isinstance(found, (property, functools.cached_property)):
        getter = found.fget if isinstance(found, property) else found.func
        if not inspect.isfunction(getter) or not _holds_line(getter, line):
            raise Refused("a property's setter or deleter: harden replays what a test reads or calls")
        kind, function = PROPERTY, getter
    else:
        raise Refused("not a plain function of the module (decorated into another kind of object?)")
    return kind, owner, function


def _holds_line(function: Any, line: int | None) -> bool:
    lines = [number for _, _, number in function.__code__.co_lines() if number is not None]
    return line is None or function.__code__.co_firstlineno <= line <= max(lines, default=0)


def flavour(function: Any) -> str:
    """COROUTINE, GENERATOR, ASYNC_GENERATOR, or "" for a function that returns its value."""
    if inspect.isasyncgenfunction(function):
        return ASYNC_GENERATOR
    if inspect.isgeneratorfunction(function):
        return GENERATOR
    return COROUTINE if inspect.iscoroutinefunction(function) else ""


def _async_style(session: pytest.Session) -> str:
    """How the tests that were collected run their coroutines: the mark they carry, else asyncio.run."""
    marks = {mark.name for item in session.items for mark in item.iter_markers()}
    if "asyncio" in marks or (
        session.config.pluginmanager.hasplugin("asyncio") and _ini(session.config, "asyncio_mode") == "auto"
    ):
        return ASYNCIO_MARK
    return ANYIO_MARK if "anyio" in marks else ASYNCIO_RUN


def _ini(config: pytest.Config, name: str) -> str:
    try:
        return str(config.getini(name))
    except ValueError:  # no plugin declares it
        return ""


def _raised(error: BaseException) -> dict[str, str]:
    kind = type(error)
    return {"module": kind.__module__, "qualname": kind.__qualname__, "message": str(error)[:300]}


def _trees(values: dict[str, Any], made: Made | None = None, observe: bool = False) -> tuple[dict[str, Tree], set]:
    """Each value's checked tree, or observed tree (or its Unwritable message under `!name`)."""
    imports: set[tuple[str, str]] = set()
    trees: dict[str, Tree] = {}
    for name, value in values.items():
        try:
            trees[name] = observed_tree(value, imports) if observe else checked_tree(value, imports, made)
        except Exception as error:  # Unwritable, or a field the project's code fails to read
            trees["!" + name] = str(error) if isinstance(error, Unwritable) else f"{type(error).__name__}: {error}"
    return trees, imports


def _split(kind: str, args: tuple[Any, ...]) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """The receiver (a method's `self`) apart from the other positional arguments (a constructor's
    object is its result, not an argument)."""
    if kind in (METHOD, PROPERTY, CONSTRUCTOR) and args:
        return ({"self": args[0]} if kind != CONSTRUCTOR else {}), args[1:]
    return {}, args


def _made(call: Any) -> tuple[Any, BaseException | None]:
    """A call's return value, or the exception it raised."""
    try:
        return call(), None
    except Exception as error:  # the function's own exception is its behaviour
        return None, error


def _outcome(result: Any, error: BaseException | None) -> Observed:
    """What one call did, as data: its return value's observed tree, or the exception it raised."""
    if error is not None:
        return {"raised": _raised(error)}
    try:
        imports: set[tuple[str, str]] = set()
        tree = observed_tree(result, imports)
        return {"result": tree, "type": type(result).__qualname__, "imports": sorted(imports)}
    except Unwritable as unwritable:
        return {"unwritable": f"its return value: {unwritable}"}
    except Exception as error:  # an attribute the project's code fails to read
        return {"unwritable": f"its return value: {type(error).__name__}: {error}"}


def _named(receiver: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """A call's values by the names a witness uses: `self`, `arg0`…, the keywords."""
    return {**receiver, **{f"arg{i}": value for i, value in enumerate(args)}, **kwargs}


def _after(receiver: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Observed:
    trees, imports = _trees(_named(receiver, args, kwargs), observe=True)
    return {"after": trees, "after_imports": sorted(imports)}


def _with_getter(found: Any, getter: Any, owner: Any, name: str) -> Any:
    """The property (or cached property) `found` with another getter."""
    if isinstance(found, property):
        return property(getter, found.fset, found.fdel, found.__doc__)
    cached = functools.cached_property(getter)
    cached.__set_name__(owner, name)
    return cached


class Recorder:
    """The pytest plugin of `record`: wraps the function (and the module's constructors) once the
    tests are collected."""

    def __init__(self, spec: ChildSpec) -> None:
        self.spec = spec
        self.calls: list[Call] = []
        self.seen: set[str] = set()
        self.skipped: Counter[str] = Counter()
        self.refused: str | None = None
        self.located: Located | None = None
        self.depth = 0  # inside the recorded function: its calls to itself are part of the outer call
        self.checking = 0  # writing trees: the objects their checks build are no objects of the tests
        self.made: Made = {}
        self.entries: Counter[str] = Counter()
        self.files: set[str] = set()  # the module's file, as its code objects and as the disk name it

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        switch_off_xdist(config)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        try:
            module = _module_of(self.spec.file)
        except Refused as error:
            self.refused = str(error)
            return
        self.files = {module.__file__, os.path.realpath(module.__file__)}
        try:
            kind, owner, function = locate(module, self.spec.qualname, self.spec.line)
        except Refused as error:
            self.refused = str(error)
            return
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        parameters = [p.name for p in inspect.signature(function).parameters.values() if p.kind in positional]
        self.located = Located(
            module=module.__name__,
            kind=kind,
            qualname=self.spec.qualname,
            parameters=parameters,
            flavour=flavour(function),
            async_style=_async_style(session),
            file=os.path.realpath(module.__file__),
            sys_path=list(sys.path),  # as pytest's `pythonpath` and the conftests left it: replays import alike
        )
        for cls in list(vars(module).values()):
            if inspect.isclass(cls) and cls.__module__ == module.__name__:
                for method, attribute in list(vars(cls).items()):
                    if isinstance(attribute, classmethod) and inspect.isfunction(attribute.__func__):
                        setattr(cls, method, classmethod(self._factory(method, attribute.__func__)))
        wrapper = self._wrapper(kind, owner, function)  # after the factories: a class method recorded is wrapped once
        name = self.spec.qualname.split(".")[-1]
        if kind == FUNCTION:  # every module that imported it by name calls it through its own global
            for loaded in list(sys.modules.values()):
                namespace_ = getattr(loaded, "__dict__", None)
                for key, value in list((namespace_ or {}).items()):
                    if value is function:
                        namespace_[key] = wrapper
        elif kind == PROPERTY:
            setattr(owner, name, _with_getter(inspect.getattr_static(owner, name), wrapper, owner, name))
        else:
            setattr(owner, name, {STATIC: staticmethod, CLASS: classmethod}.get(kind, lambda f: f)(wrapper))
        for cls in list(vars(module).values()):
            own = inspect.isclass(cls) and cls.__module__ == module.__name__ and "__init__" in vars(cls)
            if own and inspect.isfunction(cls.__init__):
                cls.__init__ = self._maker(cls.__init__)

    def _maker(self, init: Any) -> Any:
        """A class's constructor that keeps, for each object it makes, the call that made it as source."""

        @functools.wraps(init)
        def making(obj: Any, *args: Any, **kwargs: Any) -> None:
            # only the object's own class's constructor, not while a tree is written, while there is room;
            # inside the recorded function too: a test may pass what it returned to its next call
            if type(obj).__init__ is making and not self.checking and len(self.made) < _MAX_MADE:
                self._keep_made(obj, "", self._call_trees(args, kwargs))
            init(obj, *args, **kwargs)

        return making

    def _factory(self, method: str, function: Any) -> Any:
        """A class method that keeps, for an object of its class it returns, the call that made it as
        source (`Interval.from_atomic(...)`): later calls, such as the constructor it calls, are inside it."""

        @functools.wraps(function)
        def factory(cls: Any, *args: Any, **kwargs: Any) -> Any:
            if self.checking or len(self.made) >= _MAX_MADE:
                return function(cls, *args, **kwargs)
            trees = self._call_trees(args, kwargs)  # before the call: it may change its arguments
            made = function(cls, *args, **kwargs)
            if type(made) is cls:
                self._keep_made(made, method, trees)
            return made

        return factory

    def _call_trees(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _MakingCall | None:
        """The trees of a making call's positional and keyword arguments; None when one cannot be written."""
        with self._checking():
            trees, imports = _trees({**{f"arg{i}": arg for i, arg in enumerate(args)}, **kwargs}, self.made)
        if any(name.startswith("!") for name in trees):
            return None
        return [trees[f"arg{i}"] for i in range(len(args))], {key: trees[key] for key in kwargs}, imports

    def _keep_made(self, obj: Any, method: str, call: _MakingCall | None) -> None:
        if call is not None:
            self.made[id(obj)] = (obj, method, *call)

    def _recording(self) -> bool:
        """Whether a call is one of the tests': not made from inside the function (part of the outer
        call), nor by writing a tree (an attribute read calls `__getattr__`), while there is room."""
        return not self.depth and not self.checking and len(self.calls) < _MAX_CALLS

    def _wrapper(self, kind: str, owner: Any, function: Any) -> Any:
        kept = flavour(function)
        if kept == COROUTINE:
            return self._coroutine_wrapper(kind, owner, function)
        if kept in (GENERATOR, ASYNC_GENERATOR):
            return self._generator_wrapper(kind, owner, function, kept)

        @functools.wraps(function)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            if not self._recording():
                return function(*args, **kwargs)
            given = self._given(kind, args, kwargs)
            self.depth += 1
            try:
                result, error = _made(lambda: function(*args, **kwargs))
            finally:
                self.depth -= 1
            self._done(kind, owner, given, args, kwargs, result, error)
            if error is not None:  # the test sees what the function did, as it would have
                raise error
            return result

        return recorded

    def _coroutine_wrapper(self, kind: str, owner: Any, function: Any) -> Any:
        @functools.wraps(function)
        async def recorded(*args: Any, **kwargs: Any) -> Any:
            if not self._recording():
                return await function(*args, **kwargs)
            given = self._given(kind, args, kwargs)
            self.depth += 1
            try:
                result, error = await function(*args, **kwargs), None
            except Exception as raised:  # the function's own exception is its behaviour
                result, error = None, raised
            finally:
                self.depth -= 1
            self._done(kind, owner, given, args, kwargs, result, error)
            if error is not None:
                raise error
            return result

        return recorded

    def _generator_wrapper(self, kind: str, owner: Any, function: Any, kept: str) -> Any:
        """A generator's calls, kept with every item they gave once the caller consumed them all."""
        if kept == ASYNC_GENERATOR:

            @functools.wraps(function)
            async def recorded_async(*args: Any, **kwargs: Any) -> Any:
                if not self._recording():
                    async for item in function(*args, **kwargs):
                        yield item
                    return
                given, items = self._given(kind, args, kwargs), []
                try:
                    async for item in function(*args, **kwargs):
                        items.append(item)
                        yield item
                except Exception as error:
                    self._done(kind, owner, given, args, kwargs, None, error)
                    raise
                self._done(kind, owner, given, args, kwargs, items, None)

            return recorded_async

        @functools.wraps(function)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            if not self._recording():
                return (yield from function(*args, **kwargs))
            given, items = self._given(kind, args, kwargs), []
            try:
                for item in function(*args, **kwargs):
                    items.append(item)
                    yield item
            except Exception as error:
                self._done(kind, owner, given, args, kwargs, None, error)
                raise
            self._done(kind, owner, given, args, kwargs, items, None)

        return recorded

    @contextlib.contextmanager
    def _checking(self) -> Iterator[None]:
        self.checking += 1
        try:
            yield
        finally:
            self.checking -= 1

    def _given(self, kind: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[dict[str, Any], set]:
        self._note_entry()
        receiver, positional = _split(kind, args if kind != CLASS else args[1:])
        with self._checking():
            return _trees(_named(receiver, positional, kwargs), self.made)

    def _note_entry(self) -> None:
        """The outermost function of the module on the stack of a test's call (past this module's
        wrappers), when the tests reached the recorded function through one: the function a nested
        one sits in, a lambda's or a comprehension's too."""
        frame, entry = sys._getframe(1), None
        while frame is not None:
            file = frame.f_code.co_filename
            if file in self.files:
                entry = frame.f_code.co_qualname.split(".<locals>.")[0]
            elif file != __file__:
                break
            frame = frame.f_back
        if entry is not None and entry != self.spec.qualname:
            self.entries[entry] += 1

    def _done(
        self,
        kind: str,
        owner: Any,
        given: tuple[dict[str, Any], set],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        result: Any,
        error: BaseException | None,
    ) -> None:
        """One call kept with what it did, when its arguments can be written as source."""
        if len(self.calls) >= _MAX_CALLS:
            return
        trees, imports = given
        receiver, positional = _split(kind, args if kind != CLASS else args[1:])
        made_by = None
        if kind == CONSTRUCTOR:
            made_class = type(args[0])
            if made_class is not owner:
                if made_class.__init__ is not owner.__init__:  # a subclass's own constructor is another call
                    return
                try:  # a subclass that keeps this constructor (`Multiset(...)` of `BaseMultiset.__init__`)
                    imports = set(imports)
                    made_by = tree_of(made_class, imports)
                except Unwritable as unwritable:
                    self.skipped[f"an argument cannot be written as source (its class: {unwritable})"] += 1
                    return
            result = args[0] if error is None else None
        unwritable = [f"{name[1:]}: {reason}" for name, reason in trees.items() if name.startswith("!")]
        if unwritable:
            self.skipped[f"an argument cannot be written as source ({unwritable[0]})"] += 1
        else:
            with self._checking():
                outcome = {**_outcome(result, error), **_after(receiver, positional, kwargs)}
            self._keep(trees, imports, positional, kwargs, outcome, made_by)

    def _keep(
        self,
        given: dict[str, Any],
        imports: set[tuple[str, str]],
        positional: tuple[Any, ...],
        kwargs: dict[str, Any],
        outcome: Observed,
        made_by: Call | None,
    ) -> None:
        call = {
            "self": given.get("self"),
            "args": [given[f"arg{i}"] for i in range(len(positional))],
            "kwargs": {name: given[name] for name in kwargs},
            "imports": sorted(imports),
            **({"class": made_by} if made_by is not None else {}),
        }
        key = json.dumps(call, sort_keys=True)
        if len(key) > _MAX_CALL_DATA or _source_size(call) > MAX_CALL_SIZE:
            self.skipped[TOO_LARGE] += 1
            return
        if key in self.seen:
            return
        self.seen.add(key)
        self.calls.append({**call, "recorded": outcome})


def _source_size(call: Call) -> int:
    """How many characters a test takes to write the call's receiver, arguments and class."""
    trees = [call["self"], *call["args"], *call["kwargs"].values(), call.get("class")]
    return sum(len(format_tree(tree)) for tree in trees if tree is not None)


def _pytest_args(spec: ChildSpec) -> list[str]:
    # pytest's cache lives in the scratch folder, wherever the project's configuration puts it
    return [*spec.tests, *spec.pytest_args, "-o", f"cache_dir={Path(spec.scratch) / 'pytest-cache'}"]


def _record(spec: ChildSpec) -> RecordAnswer:
    recorder = Recorder(spec)
    code = pytest.main(_pytest_args(spec), plugins=[recorder])
    return RecordAnswer(
        exit=int(code),
        refused=recorder.refused,
        located=recorder.located,
        calls=recorder.calls,
        skipped=dict(recorder.skipped),
        entries=dict(recorder.entries),
    )


def _built(tree: Tree, names: dict[str, Any]) -> Any:
    return eval(format_tree(tree), names)  # source the recording child wrote


def _replayed(spec: ChildSpec, located: Located, call: Call, owner: Any, module: Any, trace: bool) -> Observed:
    """One call built from its source and made: what it did (and, traced, the lines it ran)."""
    name = located.qualname.split(".")[-1]
    try:
        names = namespace({tuple(pair) for pair in call["imports"]})
        receiver = _built(call["self"], names) if call.get("self") is not None else None
        args = [_built(tree, names) for tree in call["args"]]
        kwargs = {key: _built(tree, names) for key, tree in call["kwargs"].items()}
    except Exception as error:  # the source no longer builds: the copy's code differs
        return {"unbuildable": f"{type(error).__name__}: {error}"}
    if located.kind == CONSTRUCTOR:  # the class, or the subclass the tests made that keeps its constructor
        target = _built(call["class"], names) if call.get("class") else owner
    elif call.get("unbound"):  # `self` of another type: the method as its class holds it
        target = functools.partial(getattr(owner, name), receiver)
    elif located.kind == PROPERTY:
        target = functools.partial(getattr, receiver, name)
    else:
        target = getattr({METHOD: receiver, FUNCTION: module}.get(located.kind, owner), name)
    made = lambda: _made(lambda: _consumed(located.flavour, target(*args, **kwargs)))  # noqa: E731
    try:
        with _time_limit(spec.call_limit), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # each replay sees every warning the call gives, not only its first
            (result, error), ran = lines_run(located.file, located.qualname, made) if trace else (made(), set())
    except _TooLong:
        return {"unfinished": f"did not finish in {spec.call_limit} s"}
    after = _after({"self": receiver} if receiver is not None else {}, tuple(args), kwargs)
    warned = sorted({(one.category.__module__, one.category.__qualname__) for one in caught})
    return {
        **_outcome(result, error),
        **after,
        **({"lines": sorted(ran)} if trace else {}),
        **({"warned": [list(pair) for pair in warned]} if warned else {}),
    }


class _TooLong(BaseException):
    """A replayed call past its time limit (not an Exception: the function's own handlers let it through)."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """The block interrupted once it has run `seconds`, and every second after (a handler that
    swallowed the first interruption gets another)."""

    def expired(_signal: int, _frame: Any) -> None:
        raise _TooLong

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _consumed(kind: str, value: Any) -> Any:
    """What a call gives once run to its end: a coroutine awaited (in an event loop of its own), a
    generator's items."""
    if kind == COROUTINE:
        return asyncio.run(value)
    if kind == GENERATOR:
        return list(value)
    if kind == ASYNC_GENERATOR:

        async def collected() -> list[Any]:
            return [item async for item in value]

        return asyncio.run(collected())
    return value


def _replay(spec: ChildSpec) -> ReplayAnswer:
    located = spec.located
    assert located is not None, "a replay names the function the recording located"
    sys.path[:] = located.sys_path
    module = importlib.import_module(located.module)
    if os.path.realpath(getattr(module, "__file__", "") or "") != located.file:  # else the replay proves nothing
        return ReplayAnswer(f"outside pytest, {located.module} imports from {module.__file__}, not the tests' file", [])
    try:
        _kind, owner, _function = locate(module, located.qualname)  # the mutant moves lines: the recording chose
    except Refused as error:
        return ReplayAnswer(str(error), [])
    observed: list[list[Observed]] = []
    unfinished = 0
    for call in spec.calls:
        rounds: list[Observed] = []
        for round_ in range(spec.rounds):
            if unfinished >= _UNFINISHED_MAX:
                rounds.append({"unfinished": f"not made: {unfinished} calls before it did not finish"})
                continue
            rounds.append(_replayed(spec, located, call, owner, module, spec.trace and not round_))
            unfinished += "unfinished" in rounds[-1]
        observed.append(rounds)
    return ReplayAnswer(None, observed)


class _Outcomes:
    """The pytest plugin of `pytest`: each test's outcome, its worst phase."""

    def __init__(self) -> None:
        self.outcomes: dict[str, str] = {}
        self.messages: dict[str, str] = {}  # a failed test's: the first line of what it raised

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        switch_off_xdist(config)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        first_or_worse = report.failed or report.nodeid not in self.outcomes or report.when == "call"
        if first_or_worse and self.outcomes.get(report.nodeid) != "failed":
            self.outcomes[report.nodeid] = report.outcome
            if report.failed:
                crash = getattr(report.longrepr, "reprcrash", None)
                message = crash.message if crash is not None else str(report.longrepr)
                self.messages[report.nodeid] = (message.strip().splitlines() or [""])[0][:200]


def _pytest(spec: ChildSpec) -> PytestAnswer:
    plugin = _Outcomes()
    code = pytest.main(_pytest_args(spec), plugins=[plugin])
    return PytestAnswer(int(code), plugin.outcomes, plugin.messages)


def main() -> None:
    spec = ChildSpec.read(Path(sys.argv[1]))
    die_with_parent(signal.SIGKILL, spec.parent)
    sys.dont_write_bytecode = True
    temporary = Path(spec.scratch) / "tmp"
    temporary.mkdir(exist_ok=True)
    os.environ["TMPDIR"] = str(temporary)
    tempfile.tempdir = None
    redirect_imports([Path(root) for root in spec.roots], Path(spec.project))
    answer = {RECORD: _record, REPLAY: _replay, PYTEST: _pytest}[spec.mode](spec)
    write_answer(answer, Path(spec.answer))
