"""The child `harden` runs its project code in, inside a scratch copy: it records the calls the tests
make to one function, replays calls as source, or runs pytest on named tests.

One JSON spec in (argv), one JSON answer out (the spec's `answer` path). The modes:
- `record`: the tests run with the function wrapped; each call whose arguments can be written as
  source is kept with what the function did (its return value or exception, and the arguments
  afterwards: a change in place is behaviour too).
- `replay`: each call, built from its source, made again `rounds` times; what it did each time and,
  asked (`trace`), the lines of the function its first time ran.
- `pytest`: pytest on the named test ids; each test's outcome.
"""

import functools
import importlib
import inspect
import json
import os
import signal
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mutcheck.harden.lines_run import lines_run
from mutcheck.harden.values import Unwritable, checked_tree, format_tree, namespace
from mutcheck.host.pytest_options import switch_off_xdist
from mutcheck.sandbox.imports import redirect_imports
from mutcheck.sandbox.process import die_with_parent

_MAX_CALLS = 200  # distinct calls kept per function: more adds time, not witnesses

FUNCTION, METHOD, STATIC, CLASS = "function", "method", "static", "class"


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


def locate(module: Any, qualname: str) -> tuple[str, Any, Any]:
    """(kind, owner, function) for a qualified name in a module; Refused when its calls cannot be
    made by themselves."""
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
    elif inspect.isfunction(found):
        kind, function = (METHOD if inspect.isclass(owner) else FUNCTION), found
    elif isinstance(found, property):
        raise Refused("a property: harden replays functions and methods")
    else:
        raise Refused("not a plain function of the module (decorated into another kind of object?)")
    if inspect.isgeneratorfunction(function) or inspect.isasyncgenfunction(function):
        raise Refused("a generator: what it does depends on how far the caller iterates")
    if inspect.iscoroutinefunction(function):
        raise Refused("a coroutine: replaying it needs the caller's event loop")
    return kind, owner, function


def _raised(error: BaseException) -> dict[str, str]:
    kind = type(error)
    return {"module": kind.__module__, "qualname": kind.__qualname__, "message": str(error)[:300]}


def _trees(values: dict[str, Any]) -> tuple[dict[str, Any], set[tuple[str, str]]]:
    """Each value's checked tree (or its Unwritable message under `!name`)."""
    imports: set[tuple[str, str]] = set()
    trees: dict[str, Any] = {}
    for name, value in values.items():
        try:
            trees[name] = checked_tree(value, imports)
        except Exception as error:  # Unwritable, or a field the project's code fails to read
            trees["!" + name] = str(error) if isinstance(error, Unwritable) else f"{type(error).__name__}: {error}"
    return trees, imports


def _split(kind: str, args: tuple[Any, ...]) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """The receiver (a method's `self`) apart from the other positional arguments."""
    if kind == METHOD and args:
        return {"self": args[0]}, args[1:]
    return {}, args


def _made(call: Any) -> tuple[Any, BaseException | None]:
    """A call's return value, or the exception it raised."""
    try:
        return call(), None
    except Exception as error:  # the function's own exception is its behaviour
        return None, error


def _outcome(result: Any, error: BaseException | None) -> dict[str, Any]:
    """What one call did, as data: its return value's tree, or the exception it raised."""
    if error is not None:
        return {"raised": _raised(error)}
    try:
        imports: set[tuple[str, str]] = set()
        return {"result": checked_tree(result, imports), "imports": sorted(imports)}
    except Unwritable as unwritable:
        return {"unwritable": f"its return value: {unwritable}"}


def _named(receiver: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """A call's values by the names a witness uses: `self`, `arg0`…, the keywords."""
    return {**receiver, **{f"arg{i}": value for i, value in enumerate(args)}, **kwargs}


def _after(receiver: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    trees, imports = _trees(_named(receiver, args, kwargs))
    return {"after": trees, "after_imports": sorted(imports)}


class Recorder:
    """The pytest plugin of `record`: wraps the function once the tests are collected."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.calls: list[dict[str, Any]] = []
        self.seen: set[str] = set()
        self.skipped: Counter[str] = Counter()
        self.refused: str | None = None
        self.located: dict[str, str] = {}
        self.depth = 0

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        switch_off_xdist(config)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        try:
            module = _module_of(self.spec["file"])
            kind, owner, function = locate(module, self.spec["qualname"])
        except Refused as error:
            self.refused = str(error)
            return
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        parameters = [p.name for p in inspect.signature(function).parameters.values() if p.kind in positional]
        self.located = {
            "module": module.__name__,
            "kind": kind,
            "qualname": self.spec["qualname"],
            "parameters": parameters,
            "file": os.path.realpath(module.__file__),
            "sys_path": list(sys.path),  # as pytest's `pythonpath` and the conftests left it: replays import alike
        }
        wrapper = self._wrapper(kind, function)
        name = self.spec["qualname"].split(".")[-1]
        if kind == FUNCTION:  # every module that imported it by name calls it through its own global
            for loaded in list(sys.modules.values()):
                namespace_ = getattr(loaded, "__dict__", None)
                for key, value in list((namespace_ or {}).items()):
                    if value is function:
                        namespace_[key] = wrapper
        else:
            setattr(owner, name, {STATIC: staticmethod, CLASS: classmethod}.get(kind, lambda f: f)(wrapper))

    def _wrapper(self, kind: str, function: Any) -> Any:
        @functools.wraps(function)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            if self.depth or len(self.calls) >= _MAX_CALLS:  # a call from inside the function is part of the outer one
                return function(*args, **kwargs)
            receiver, positional = _split(kind, args if kind != CLASS else args[1:])
            given, imports = _trees(_named(receiver, positional, kwargs))
            self.depth += 1
            try:
                result, error = _made(lambda: function(*args, **kwargs))
            finally:
                self.depth -= 1
            unwritable = [f"{name[1:]}: {reason}" for name, reason in given.items() if name.startswith("!")]
            if unwritable:
                self.skipped[f"an argument cannot be written as source ({unwritable[0]})"] += 1
            else:
                outcome = {**_outcome(result, error), **_after(receiver, positional, kwargs)}
                self._keep(given, imports, positional, kwargs, outcome)
            if error is not None:  # the test sees what the function did, as it would have
                raise error
            return result

        return recorded

    def _keep(
        self,
        given: dict[str, Any],
        imports: set[tuple[str, str]],
        positional: tuple[Any, ...],
        kwargs: dict[str, Any],
        outcome: dict[str, Any],
    ) -> None:
        call = {
            "self": given.get("self"),
            "args": [given[f"arg{i}"] for i in range(len(positional))],
            "kwargs": {name: given[name] for name in kwargs},
            "imports": sorted(imports),
        }
        key = json.dumps(call, sort_keys=True)
        if key in self.seen:
            return
        self.seen.add(key)
        self.calls.append({**call, "recorded": outcome})


def _pytest_args(spec: dict[str, Any]) -> list[str]:
    # pytest's cache lives in the scratch folder, wherever the project's configuration puts it
    return [*spec["tests"], *spec["pytest_args"], "-o", f"cache_dir={Path(spec['scratch']) / 'pytest-cache'}"]


def _record(spec: dict[str, Any]) -> dict[str, Any]:
    recorder = Recorder(spec)
    code = pytest.main(_pytest_args(spec), plugins=[recorder])
    return {
        "exit": int(code),
        "refused": recorder.refused,
        "located": recorder.located,
        "calls": recorder.calls,
        "skipped": dict(recorder.skipped),
    }


def _built(tree: dict[str, Any], names: dict[str, Any]) -> Any:
    return eval(format_tree(tree), names)  # source the recording child wrote


def _replayed(spec: dict[str, Any], call: dict[str, Any], owner: Any, module: Any, trace: bool) -> dict[str, Any]:
    """One call built from its source and made: what it did (and, traced, the lines it ran)."""
    name = spec["qualname"].split(".")[-1]
    try:
        names = namespace({tuple(pair) for pair in call["imports"]})
        receiver = _built(call["self"], names) if call.get("self") is not None else None
        args = [_built(tree, names) for tree in call["args"]]
        kwargs = {key: _built(tree, names) for key, tree in call["kwargs"].items()}
    except Exception as error:  # the source no longer builds: the copy's code differs
        return {"unbuildable": f"{type(error).__name__}: {error}"}
    called = {METHOD: receiver, FUNCTION: module}.get(spec["kind"], owner)
    target = getattr(called, name)
    made = lambda: _made(lambda: target(*args, **kwargs))  # noqa: E731
    (result, error), ran = lines_run(spec["file"], spec["qualname"], made) if trace else (made(), set())
    after = _after({"self": receiver} if receiver is not None else {}, tuple(args), kwargs)
    return {**_outcome(result, error), **after, **({"lines": sorted(ran)} if trace else {})}


def _replay(spec: dict[str, Any]) -> dict[str, Any]:
    sys.path[:] = spec["sys_path"]
    module = importlib.import_module(spec["module"])
    if os.path.realpath(getattr(module, "__file__", "") or "") != spec["file"]:  # else the replay proves nothing
        return {"refused": f"outside pytest, {spec['module']} imports from {module.__file__}, not the tests' file"}
    try:
        _kind, owner, _function = locate(module, spec["qualname"])
    except Refused as error:
        return {"refused": str(error)}
    traced = spec.get("trace", False)
    observed = [
        [_replayed(spec, call, owner, module, traced and not round_) for round_ in range(spec["rounds"])]
        for call in spec["calls"]
    ]
    return {"observed": observed}


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


def _pytest(spec: dict[str, Any]) -> dict[str, Any]:
    plugin = _Outcomes()
    code = pytest.main(_pytest_args(spec), plugins=[plugin])
    return {"exit": int(code), "outcomes": plugin.outcomes, "messages": plugin.messages}


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    die_with_parent(signal.SIGKILL, spec["parent"])
    sys.dont_write_bytecode = True
    temporary = Path(spec["scratch"]) / "tmp"
    temporary.mkdir(exist_ok=True)
    os.environ["TMPDIR"] = str(temporary)
    tempfile.tempdir = None
    redirect_imports([Path(root) for root in spec["roots"]], Path(spec["project"]))
    answer = {"record": _record, "replay": _replay, "pytest": _pytest}[spec["mode"]](spec)
    Path(spec["answer"]).write_text(json.dumps(answer), encoding="utf-8")
