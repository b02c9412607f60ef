"""The store's folder shared by runs at the same time: runs of two projects started together never
delete or break each other's stores, two runs of one project keep each other's entries, and the
tamper guard still removes what no run wrote."""

import os
import subprocess
import sys
from pathlib import Path

from mutcheck.reuse.guard import folder_lock, record_write, stamps, undo_changes
from mutcheck.reuse.store import load_store, store_path
from tests.mutcheck.reuse.reuse_project import clamps, make


def _start(root: Path, cache: Path, *args: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "mutcheck", "run", "--project", str(root), *args]
    environment = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _finish(process: subprocess.Popen) -> str:
    output, _ = process.communicate(timeout=300)
    assert process.returncode == 0, output
    return output


def _intact(root: Path, cache: Path, mutants: set[str]) -> None:
    os.environ["XDG_CACHE_HOME"], saved = str(cache), os.environ["XDG_CACHE_HOME"]
    try:
        store = load_store(store_path(root, None, None))
    finally:
        os.environ["XDG_CACHE_HOME"] = saved
    assert store.damaged is None and set(store.mutants) == mutants
    assert all(entry.tests for entry in store.mutants.values())


def _project(root: Path) -> Path:
    make(root, {"tests/test_clamps.py": clamps("15")})
    # M is killed here: its catalog entry says so, and both mutants' expectations hold (exit 0)
    catalog = root / "mutants" / "guards.toml"
    text = catalog.read_text(encoding="utf-8")
    text = text.replace(
        'survives = { en = "as the value says", zh = "取决于数值" }\nreviewed = true',
        'killed_by = ["tests/test_clamps.py::test_clamps"]',
    )
    catalog.write_text(text, encoding="utf-8")
    return root


def test_two_projects_run_together_ten_times_keep_both_stores_intact(tmp_path):
    cache = tmp_path / "cache"
    one, two = _project(tmp_path / "one"), _project(tmp_path / "two")
    for round_number in range(10):
        for root in (one, two):  # a change each time: each run writes its store while the other runs
            path = root / "tests" / "test_other.py"
            path.write_text(path.read_text() + f"\n\ndef test_also_{round_number}():\n    assert True\n")
        started = [_start(root, cache) for root in (one, two)]
        for process in started:
            _finish(process)
        for root in (one, two):
            _intact(root, cache, {"M", "OTHER"})
    for root in (one, two):
        assert "test outcomes reused" in _finish(_start(root, cache))


def test_two_runs_of_one_project_at_once_keep_each_other_s_entries(tmp_path):
    cache = tmp_path / "cache"
    root = _project(tmp_path / "one")
    started = [_start(root, cache, "--only", name) for name in ("M", "OTHER")]
    for process in started:
        _finish(process)
    _intact(root, cache, {"M", "OTHER"})


def test_the_guard_removes_what_no_run_wrote_and_keeps_what_a_run_did(tmp_path):
    folder = tmp_path / "reuse"
    folder.mkdir()
    (folder / "kept.json").write_text("before")
    before = stamps(folder)
    with folder_lock(folder):  # another run saves its store meanwhile
        (folder / "theirs.json").write_text("a run's")
        record_write(folder / "theirs.json", b"a run's")
    (folder / "forged.json").write_text("a test's")
    (folder / "kept.json").write_text("overwritten by a test")
    removed = undo_changes(folder, before)
    assert removed == ["forged.json", "kept.json"]
    assert (folder / "theirs.json").read_text() == "a run's"
    (folder / "theirs.json").write_text("a test's, over a run's")  # the same name, other bytes
    assert undo_changes(folder, stamps(folder) | {"theirs.json": (0, 0, 0)}) == ["theirs.json"]
