"""The suite's test ids, as a pytest host collects them in a scratch copy (pytest's own items, never
its printed output, so no option or verbosity of the project's changes them), whose fault a failed
collection is, and what collecting takes from outside the project."""

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from mutcheck.catalog.config import Config
from mutcheck.core.problems import InputError, Problem
from mutcheck.host.collection_errors import log_lines
from mutcheck.host.wire import COLLECT, Collected, CollectionFailed, HostEvent, HostSpec, UnusableOption, read_event
from mutcheck.sandbox.imports import Relocation, start_host
from mutcheck.sandbox.interrupt import deferred
from mutcheck.sandbox.lab import scratch_folder
from mutcheck.sandbox.logs import log_tail
from mutcheck.sandbox.process import stop_session_leader
from mutcheck.sandbox.scratch import copy_project


@contextmanager
def _copied(config: Config) -> Iterator[tuple[Path, dict[str, str]]]:
    """A scratch folder holding a copy of the project (`project`), and the environment a host
    collecting it runs in. Collection imports the project's test modules, which may write files:
    it runs in a copy, like a run."""
    with scratch_folder() as folder:
        copy_project(config.root, folder / "project")
        relocated = Relocation([config.root], folder / "project").environment(os.environ)
        yield folder, {**relocated, "PYTHONDONTWRITEBYTECODE": "1"}


def _collect(
    config: Config, folder: Path, arguments: list[str], environment: Mapping[str, str], needs: bool = False
) -> list[HostEvent]:
    """The host's events for one collection of the copy in `folder` with the given pytest arguments;
    with `needs`, its `collected` event says what collecting took from outside the project."""
    copy = folder / "project"
    read_fd, write_fd = os.pipe()
    spec = HostSpec(
        mode=COLLECT,
        events_fd=write_fd,
        project=str(copy),
        scratch=str(folder),
        pytest_args=arguments,
        project_roots=[str(config.root)],
        parent=os.getpid(),
        test_paths=list(config.tests),
        needs=needs,
    )
    spec_path = folder / "collect.json"
    spec.write(spec_path)
    with deferred(), (folder / "collect.log").open("w", encoding="utf-8") as log:
        host = start_host(spec_path, copy, write_fd, environment, log, answers=False)
        os.close(write_fd)
    try:
        with os.fdopen(read_fd, "r", encoding="utf-8") as events:
            return [read_event(line) for line in events if line.strip()]
    finally:
        with deferred():
            stop_session_leader(host, host.session_tag)


def _collected(events: list[HostEvent]) -> Collected | None:
    return next((event for event in events if isinstance(event, Collected)), None)


def _failure(events: list[HostEvent], folder: Path) -> str | None:
    """Why a collection gave no tests (its first line, then what pytest said), or None when it gave some."""
    collected = _collected(events)
    if collected is not None:
        return None if collected.tests else "no tests collected"
    error = next((event.broken for event in events if isinstance(event, CollectionFailed)), None)
    if error is not None and not error.startswith("pytest stopped before running"):
        return error
    log = log_lines(log_tail(folder / "collect.log"), str(folder / "project"))  # pytest said why, in its log
    return "\n".join([error or "pytest stopped before collecting", *(f"  {line}" for line in log)])


def _unusable(events: list[HostEvent]) -> Problem | None:
    event = next((event for event in events if isinstance(event, UnusableOption)), None)
    return Problem(event.source, "", event.field, event.message) if event else None


def pytest_args_problem(config: Config, folder: Path, environment: Mapping[str, str], failure: str) -> Problem | None:
    """After pytest failed (`failure`: what it said) with the configured arguments: a problem naming
    `pytest_args` when the suite collects without them, else None (the suite itself is at fault).
    `folder` holds the scratch copy (`project`)."""
    if not config.pytest_args or _failure(_collect(config, folder, [], environment), folder) is not None:
        return None
    return Problem.with_details("pyproject.toml", "tool.mutcheck.pytest_args", f"pytest refuses them: {failure}")


def collect_test_ids(config: Config) -> set[str]:
    """The ids pytest collects with the configured test paths and arguments, or InputError naming
    the key at fault."""
    with _copied(config) as (folder, environment):
        events = _collect(config, folder, list(config.pytest_args), environment)
        if (unusable := _unusable(events)) is not None:
            raise InputError([unusable])
        failure = _failure(events, folder)
        if failure is None:
            return set(_collected(events).tests)
        problem = pytest_args_problem(config, folder, environment, failure)
    problem = problem or Problem.with_details("pyproject.toml", "tool.mutcheck.tests", f"collection failed: {failure}")
    raise InputError([problem])


def collected_needs(config: Config) -> dict[str, list[str]] | str:
    """What collecting the suite in this environment takes from outside the project (the top-level
    `modules` and the `distributions` the host's `NeedsRecorder` found), or why it does not collect
    here (the first line of it)."""
    with _copied(config) as (folder, environment):
        events = _collect(config, folder, list(config.pytest_args), environment, needs=True)
        failure = _failure(events, folder)
    if (unusable := _unusable(events)) is not None:
        return unusable.message
    if failure is not None:
        return failure.partition("\n")[0]
    return _collected(events).needs
