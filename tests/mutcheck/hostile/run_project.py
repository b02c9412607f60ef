"""A fixture project whose tests misbehave on cue, and the means to watch a whole `mutcheck run`
of it: its processes (by a tag in their environment), its scratch folders, its working tree.

Each misbehaviour writes a marker file (named after it) before it starts, so a test knows when
to act without guessing with sleeps: `block` sleeps, `spawn` starts `sleep 300` and sleeps, `spin`
ignores SIGALRM and loops, `spawn-and-pass` starts `sleep 300` and passes (and one test always
starts one in a session of its own and writes into `tmp_path`). `behaviour()` is
mutated by swap mutants, `Modes.kind` (a class statement) by fallback mutants, and
`HOSTILE_MOMENT` makes the unmutated suite misbehave during collection or the baseline.
"""

import contextlib
import hashlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from tests.mutcheck.engine_project import commit_all, families, pyproject

# Hanging tests are ended by signals in these tests, never by their time limit.
PYPROJECT = pyproject("hostile-fixture", timeout_constant=60.0)
FAMILIES = families("hostile", "hostile tests", "恶意测试")

SOURCE = '''\
"""What the fixture's tests do, changed by the mutants."""


def behaviour():
    return "plain"


class Modes:
    kind = "plain"

    def current(self):
        return self.kind
'''

TESTS = """\
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from hostile import Modes, behaviour

MARKERS = Path(os.environ["HOSTILE_MARKERS"])
WAIT = "import time; time.sleep(300)"


def mark(name):
    (MARKERS / f"{name}-{os.getpid()}").write_text(os.getcwd(), encoding="utf-8")


def act(mode):
    if mode == "block":
        mark("block")
        time.sleep(300)
    elif mode == "spawn":
        subprocess.Popen(["sleep", "300"])
        mark("spawn")
        time.sleep(300)
    elif mode == "spin":
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        mark("spin")
        while True:
            pass
    elif mode == "spawn-and-pass":
        subprocess.Popen(["sleep", "300"])
        mark("spawn-and-pass")


if os.environ.get("HOSTILE_MOMENT") == "collection":
    act("block")


def test_behaviour():
    mode = behaviour()
    act("block" if os.environ.get("HOSTILE_MOMENT") == "baseline" else mode)
    assert mode in ("plain", "spawn-and-pass")


def test_modes():
    mode = Modes().current()
    act(mode)
    assert mode in ("plain", "spawn-and-pass")


def test_spawns_and_passes():
    act("spawn-and-pass")


def test_leaves_a_session_and_a_temporary_folder(tmp_path):
    (tmp_path / "left.txt").write_text("left", encoding="utf-8")
    subprocess.Popen(["sleep", "300"], start_new_session=True)
    # and one that leaves the environment behind too, named by the test's tag on its command line
    subprocess.Popen([sys.executable, "-c", WAIT, os.environ["MUTCHECK_TEST_TAG"]], start_new_session=True, env={})
    mark("new-session")
"""


def _entry(mutant_id: str, scope: str, match: str, replace: str) -> str:
    killer = "test_behaviour" if scope == "behaviour" else "test_modes"
    return f"""
[[mutant]]
id = "{mutant_id}"
family = "hostile"
file = "src/hostile.py"
scope = "{scope}"
match = '''{match}'''
replace = '''{replace}'''
killed_by = ["tests/test_hostile.py::{killer}"]
origin = "hostile fixture"
title = {{ en = "{mutant_id} title", zh = "{mutant_id} 标题" }}
why = {{ en = "{mutant_id} why", zh = "{mutant_id} 原因" }}
"""


CATALOG = "".join(
    [
        _entry("BLOCK", "behaviour", '"plain"', '"block"'),
        _entry("SPAWN", "behaviour", '"plain"', '"spawn"'),
        _entry("SPAWN_SWAP", "behaviour", '"plain"', '"spawn-and-pass"'),
        _entry("FB_SPIN", "Modes", 'kind = "plain"', 'kind = "spin"'),
        _entry("FB_SPAWN", "Modes", 'kind = "plain"', 'kind = "spawn-and-pass"'),
        _entry("FB_BLOCK", "Modes", 'kind = "plain"', 'kind = "block"'),
    ]
)


def make_hostile_project(root: Path) -> Path:
    """The fixture project, committed to git (so `git status` can be compared too)."""
    files = {
        "pyproject.toml": PYPROJECT,
        "src/hostile.py": SOURCE,
        "tests/test_hostile.py": TESTS,
        "mutants/families.toml": FAMILIES,
        "mutants/catalog.toml": CATALOG,
        ".gitignore": "__pycache__/\n",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    commit_all(root)
    return root


class Run:
    """One `mutcheck run` of a project in a subprocess, tagged so that every process it starts,
    however deep, can be found by its environment; TMPDIR and the markers are folders of its own."""

    def __init__(self, project: Path, folder: Path, *args: str, moment: str | None = None) -> None:
        self.tag = uuid.uuid4().hex
        self.temporary = folder / "tmp"
        self.markers = folder / "markers"
        self.temporary.mkdir(parents=True, exist_ok=True)
        self.markers.mkdir(parents=True, exist_ok=True)
        self.environment = {
            **os.environ,
            "TMPDIR": str(self.temporary),
            "HOSTILE_MARKERS": str(self.markers),
            "MUTCHECK_TEST_TAG": self.tag,
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        if moment is not None:
            self.environment["HOSTILE_MOMENT"] = moment
        self.command = [sys.executable, "-m", "mutcheck", "run", "--project", str(project), *args]
        self.process: subprocess.Popen | None = None

    def start(self) -> "Run":
        """In a process group of its own, as a shell runs a command: see `send`."""
        self.process = subprocess.Popen(
            self.command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=self.environment,
            process_group=0,
        )
        return self

    def send(self, signum: int) -> None:
        """SIGINT as Ctrl-C sends it, to the whole foreground process group; any other signal to
        mutcheck's process alone, as `kill` sends it."""
        if signum == signal.SIGINT:
            os.killpg(self.process.pid, signum)
        else:
            self.process.send_signal(signum)

    def catches(self, signum: int) -> bool:
        """Whether mutcheck's process has a handler for `signum` (from its /proc status)."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:  # it has ended
            return False
        for line in status.splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
        return False

    def finish(self, timeout: float = 120) -> tuple[int, str, str]:
        stdout, stderr = self.process.communicate(timeout=timeout)
        return self.process.returncode, stdout, stderr

    def wait_for_marker(self, name: str, timeout: float = 60) -> Path:
        """The first marker a misbehaving test wrote under `name`; fails if the run ends first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = sorted(self.markers.glob(f"{name}-*"))
            if found:
                return found[0]
            if self.process is not None and self.process.poll() is not None:
                raise AssertionError(f"the run ended (exit {self.process.returncode}) before any test said {name!r}")
            time.sleep(0.02)
        raise AssertionError(f"no test said {name!r} within {timeout} s")

    def processes(self) -> list[str]:
        """`pid command` of every live process whose environment carries this run's tag, or whose
        command line does (one that cleared its environment)."""
        found = []
        needle = f"MUTCHECK_TEST_TAG={self.tag}".encode()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                arguments = (entry / "cmdline").read_bytes().split(b"\0")
                if needle not in (entry / "environ").read_bytes().split(b"\0") and self.tag.encode() not in arguments:
                    continue
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                command = b" ".join(arguments).decode(errors="replace")
            except OSError:  # ended meanwhile, or not ours to read
                continue
            if state != "Z":  # a zombie has ended; only its parent's wait is missing
                found.append(f"{entry.name} {command.strip()}")
        return found

    def processes_after(self, timeout: float) -> list[str]:
        """The run's live processes once they are all gone, or as they are after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while (alive := self.processes()) and time.monotonic() < deadline:
            time.sleep(0.05)
        return alive

    def scratch_folders(self) -> list[str]:
        return sorted(path.name for path in self.temporary.iterdir())

    def kill_leftovers(self) -> None:
        """So that a failing test leaves nothing behind either."""
        for line in self.processes():
            with contextlib.suppress(OSError):
                os.kill(int(line.split()[0]), signal.SIGKILL)


def tree_digest(root: Path) -> dict[str, str]:
    """A hash of every file under `root` (the .git folder included), by relative path."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }
