"""The fork server: a fresh host it forks becomes the caller's own child, with its spec, its event
pipe and its output in its folder; a server that has ended is an error the caller can catch."""

import json
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import json, os, signal, sys, tempfile
    from pathlib import Path

    from mutcheck.host.fork_server import start_fork_server
    from mutcheck.host.wire import TESTS, HostSpec
    from mutcheck.sandbox.process import adopt_orphans

    adopt_orphans()  # the run's host is a subreaper: its fresh hosts are adopted by it
    made = start_fork_server([], [])
    if isinstance(made, HostSpec):  # a fresh host
        print("said on its own output", flush=True)
        said = {"pid": os.getpid(), "parent": os.getppid(), "replaced": made.replaced, "tests": made.tests}
        os.write(made.events_fd, json.dumps(said).encode())
        os._exit(0)
    folder = tempfile.mkdtemp()
    spec = HostSpec(TESTS, -1, folder, folder, [], [], os.getpid(), tests=["t::a"], replaced={"/x.py": "X = 1"})
    spec.write(Path(folder) / "spec.json")
    read_fd, write_fd = os.pipe()
    pid = made.fresh_host(Path(folder) / "spec.json", write_fd)
    os.close(write_fd)
    said = json.loads(os.read(read_fd, 65536))
    _, status = os.waitpid(pid, 0)  # our child: waited for here
    log = (Path(folder) / "host.log").read_text()
    os.kill(made.pid, signal.SIGKILL)
    os.waitpid(made.pid, 0)
    try:
        made.fresh_host(Path(folder) / "spec.json", os.open(os.devnull, os.O_WRONLY))
        ended = "no error"
    except (OSError, ValueError) as error:
        ended = type(error).__name__
    print(json.dumps({"me": os.getpid(), "pid": pid, "said": said, "status": status, "log": log, "ended": ended}))
    """
)


def test_a_fresh_host_is_the_caller_s_child_and_a_dead_server_is_an_error():
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["said"] == {"pid": seen["pid"], "parent": seen["me"], "replaced": {"/x.py": "X = 1"}, "tests": ["t::a"]}
    assert seen["status"] == 0
    assert seen["log"] == "said on its own output\n"
    assert seen["ended"] in ("BrokenPipeError", "ConnectionResetError", "ValueError")
