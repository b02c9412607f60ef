"""A whole run taken from the store, pytest never started: when the request is the same and nothing
the stored run stood on changed (its key, what collecting read, every test's evidence unmutated and
under every mutant, the project's module-level code), its results stand whole."""

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mutcheck.catalog.options import RunOptions
from mutcheck.reuse.decide import Decider
from mutcheck.reuse.module_code import digest
from mutcheck.reuse.project_code import ProjectCode
from mutcheck.reuse.store import Store
from mutcheck.reuse.today import FileDigests, ProjectFiles, Today, project_reader
from mutcheck.sandbox.scratch import project_files


def request_digest(options: RunOptions) -> str:
    """What a target's results depend on besides its key, its tests' evidence and the files its
    mutants edit: which mutants (the settings that choose them, the catalog's files; with generic
    mutants, the target's code, any line of which may make one), and how reported."""
    config = options.config
    facts = {**options.choices(), "catalog_files": _files_digest(config.root, [config.catalog], ".toml")}
    if config.generic:
        facts["target_code"] = _files_digest(config.root, list(config.target), ".py")
    return digest(json.dumps(facts, sort_keys=True))


def _files_digest(root: Path, folders: list[str], suffix: str) -> str:
    paths = sorted(path for folder in folders for path in (root / folder).rglob(f"*{suffix}") if path.is_file())
    return digest("\0".join(f"{path.relative_to(root)}:{digest(path.read_bytes())}" for path in paths))


def stored_whole(store: Store, root: Path, key: dict[str, str], request: str) -> tuple[dict[str, Any], int] | None:
    """The stored run's results document and how many mutants it chose, when it stands whole today; None otherwise."""
    if store.whole is None or store.damaged:
        return None
    files = ProjectFiles(root, {path.as_posix(): None for path in project_files(root)})
    code = ProjectCode(project_reader(files), store.modules, store.sources, frozenset(store.loaded))
    # the stored suite: where it stands whole, collecting would find the same tests
    today = Today(files, dict(os.environ), FileDigests(store.files), code, store.whole.results.get("tests", ()))
    if Decider(store, today, key).whole(request):
        return None
    if mutated_files(root, store.whole.mutated) != store.whole.mutated:  # the reports show their lines
        return None
    return store.whole.results, store.whole.chosen


def mutated_files(root: Path, files: Iterable[str]) -> dict[str, str]:
    """Each file a run's mutants edit, by its bytes' digest ("" for one that is gone)."""
    found = {}
    for path in sorted(files):
        try:
            found[path] = digest((root / path).read_bytes())
        except OSError:
            found[path] = ""
    return found
