"""The npm packages some tests run, pinned in `npm/package-lock.json` and installed once under build/.

`.ci/run` installs them there before the tests; a test asks for one with `npm_package(name)`,
which installs them first if needed."""

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

PINNED = Path(__file__).parent / "npm"
INSTALLED = Path(__file__).resolve().parents[2] / "build" / "npm"
REQUIRED = "MUTCHECK_REQUIRE_NPM"


def install(npm: str) -> None:
    """`npm ci` of the pinned lock file into build/npm, unless that lock file is installed there
    already; one process at a time (pytest-xdist's workers may all ask at once)."""
    INSTALLED.mkdir(parents=True, exist_ok=True)
    with (INSTALLED.parent / "npm.lock").open("w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        _install(npm)


def _install(npm: str) -> None:
    lock = (PINNED / "package-lock.json").read_bytes()
    copied = INSTALLED / "package-lock.json"
    if (
        copied.is_file()
        and copied.read_bytes() == lock
        and (INSTALLED / "node_modules" / ".package-lock.json").is_file()
    ):
        return
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PINNED / name, INSTALLED / name)
    command = [npm, "ci", "--silent", "--no-audit", "--no-fund", "--prefix", str(INSTALLED)]
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError(f"npm ci failed: {completed.stderr.strip()}")


def node() -> str:
    """node's path; skips the test where npm or node is missing (fails instead with MUTCHECK_REQUIRE_NPM set)."""
    npm, node_path = shutil.which("npm"), shutil.which("node")
    if not (npm and node_path):
        message = f"npm and node are not installed here (.ci/run installs them and sets {REQUIRED}=1)"
        if os.environ.get(REQUIRED):
            pytest.fail(message)
        pytest.skip(message)
    try:
        install(npm)
    except RuntimeError as error:
        pytest.fail(str(error))
    return node_path


def npm_package(name: str) -> Path:
    """The installed folder of the pinned package `name` (see `node` for where npm is missing)."""
    node()
    return INSTALLED / "node_modules" / name


def stryker_schema() -> dict[str, Any]:
    """Stryker's mutation-testing report schema, from its pinned package."""
    path = npm_package("mutation-testing-report-schema") / "dist" / "src" / "mutation-testing-report-schema.json"
    return json.loads(path.read_text(encoding="utf-8"))
