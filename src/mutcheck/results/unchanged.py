"""A run whose every input is as a stored run found it: that run's results, taken whole, without
starting pytest. The inputs: the request, Python, the installed distributions, mutcheck, and every
file the stored run stood on (see `input_files`), each compared whole. A run with a time-out, an
order-dependent or flaky test, or a failing baseline is not kept: its next run runs."""

import json
import os
import platform
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from mutcheck.catalog.config import Config
from mutcheck.core.ci import in_ci
from mutcheck.core.git import head_sha, uncommitted_changes
from mutcheck.core.outcome import ORDER_DEPENDENT, TIMEOUT
from mutcheck.results.model import Results, Reused
from mutcheck.results.results import summarize, write_results
from mutcheck.results.results_check import first_broken_reference
from mutcheck.reuse.digests import digest
from mutcheck.reuse.evidence import file_digests, input_files, installed, mutcheck_itself


def run_key(request: dict[str, Any]) -> str:
    """The request and what outside the project decides a run (Python, distributions, mutcheck), as one digest."""
    facts = [request, platform.python_version(), installed(), mutcheck_itself()]
    return digest(json.dumps(facts, sort_keys=True, default=str))


def _files(store: Path) -> tuple[Path, Path]:
    return store.with_suffix(".results.json"), store.with_suffix(".inputs.json")


def _catalog(config: Config) -> str:
    return str(config.catalog_dir.relative_to(config.root))


def _inputs(path: Path) -> tuple[str, dict[str, str], int] | None:
    """The stored key, files and chosen count, exactly as `keep_results` writes them, or None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or set(data) != {"key", "files", "chosen"}:
        return None
    key, files, chosen = data["key"], data["files"], data["chosen"]
    if not isinstance(key, str) or not isinstance(chosen, int) or not isinstance(files, dict):
        return None
    if not all(isinstance(name, str) and isinstance(value, str) for name, value in files.items()):
        return None
    return key, files, chosen


def stored_results(store: Path, config: Config, key: str, started: float) -> tuple[Results, int] | None:
    """The stored run's results, every mutant marked reused, when `key` and every file it stood on
    are unchanged (and no file joined them); with how many mutants it chose. None otherwise."""
    results_path, inputs_path = _files(store)
    inputs = _inputs(inputs_path)
    if inputs is None or inputs[0] != key:
        return None
    _, files, chosen = inputs
    today = input_files(config.root, config.tests, config.target, _catalog(config), files)
    if today != set(files) or file_digests(config.root, today) != files:
        return None
    try:  # the store's own file, guarded (see `guard`): read without the schema's slow check
        results = Results.from_json(json.loads(results_path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if first_broken_reference(results, str(results_path)) is not None:
        return None
    mutants = [
        replace(m, reuse=Reused(True, m.reuse.source if m.reuse and m.reuse.reused else results.run.head_sha, []))
        for m in results.mutants
    ]
    seconds = round(time.monotonic() - started, 3)
    run = replace(
        results.run,
        head_sha=head_sha(config.root),
        uncommitted_changes=uncommitted_changes(config.root),
        ci=in_ci(),
        seconds=seconds,
        mutant_phase_seconds=0.0,
        timings={"total": seconds},
    )
    summary = summarize(mutants, results.baseline.ok, len(results.drift))
    return replace(results, run=run, mutants=mutants, summary=summary), chosen


def _keepable(results: Results) -> bool:
    baseline = results.baseline
    if not baseline.ok or baseline.flaky or baseline.order_dependent:
        return False
    return not any(
        outcome in (TIMEOUT, ORDER_DEPENDENT) for mutant in results.mutants for outcome in mutant.outcomes.values()
    )


def keep_results(store: Path, key: str, files: dict[str, str], results: Results, chosen: int) -> None:
    """Keep a run's results and inputs for `stored_results`, or forget the kept ones if it cannot be kept."""
    results_path, inputs_path = _files(store)
    if not files or not _keepable(results):
        inputs_path.unlink(missing_ok=True)
        return
    store.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=store.parent, prefix=".saving-", suffix=".json")
    os.close(handle)
    try:
        inputs_path.unlink(missing_ok=True)  # never a new results file beside old inputs
        write_results(Path(temporary), results)
        os.replace(temporary, results_path)
        Path(temporary).write_text(json.dumps({"key": key, "files": files, "chosen": chosen}), encoding="utf-8")
        os.replace(temporary, inputs_path)
    finally:
        Path(temporary).unlink(missing_ok=True)
