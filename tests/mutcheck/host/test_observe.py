"""What a test process sees a test depend on: each kind of read, listing, question, variable, import,
write and unfollowed act, recorded in the sink in force (in a process of its own: the hooks stay)."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = """\
import json, os, sys
from mutcheck.host.observe import OBSERVER, start_observing
start_observing()
OBSERVER.begin("test:0", {{"made"}})
{body}
seen = OBSERVER.end()
print(json.dumps(seen.to_json()))
"""


def observed(tmp_path: Path, body: str) -> dict[str, list[str]]:
    """What the sink of `body` (run in `tmp_path`) saw."""
    script = SCRIPT.format(body=textwrap.dedent(body))
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_reads_of_every_kind_are_files_by_absolute_path(tmp_path):
    (tmp_path / "data.txt").write_text("1")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "res.txt").write_text("2")
    seen = observed(
        tmp_path,
        """\
        import importlib.resources, pathlib, sqlite3
        open("data.txt").read()
        pathlib.Path("data.txt").read_bytes()
        sys.path.insert(0, os.getcwd())
        importlib.resources.files("pkg").joinpath("res.txt").read_text()
        sqlite3.connect("data.txt").close()
        """,
    )
    assert {str(tmp_path / "data.txt"), str(tmp_path / "pkg" / "res.txt")} <= set(seen["reads"])


def test_folders_listed_and_paths_asked_about(tmp_path):
    (tmp_path / "folder").mkdir()
    seen = observed(
        tmp_path,
        """\
        import glob, pathlib
        os.listdir("folder"); list(pathlib.Path("folder").iterdir()); glob.glob("folder/*.json")
        os.path.exists("missing.txt"); pathlib.Path("folder").is_dir()
        """,
    )
    assert seen["lists"] == [str(tmp_path / "folder")]
    assert {str(tmp_path / "missing.txt"), str(tmp_path / "folder")} <= set(seen["probes"])


def test_environment_variables_read_by_name_or_all_at_once(tmp_path):
    seen = observed(
        tmp_path,
        """\
        os.environ.get("ONE"); os.getenv("TWO"); "THREE" in os.environ; os.environb.get(b"FOUR")
        os.environ["FIVE"] = "set, not read"
        os.environ.pop("PYTEST_CURRENT_TEST", None)  # pytest's own
        """,
    )
    assert seen["env"] == ["FOUR", "ONE", "THREE", "TWO"]
    assert "*" in observed(tmp_path, "dict(os.environ)")["env"]


def test_modules_first_imported_in_the_process_are_their_files(tmp_path):
    (tmp_path / "late.py").write_text("VALUE = 1\n")
    seen = observed(tmp_path, "sys.path.insert(0, os.getcwd())\nimport importlib\nimportlib.import_module('la' + 'te')")
    assert f"late:{tmp_path / 'late.py'}" in seen["imports"]  # its module's name, and its file


def test_what_a_sink_or_its_fixtures_wrote_is_no_read_but_another_s_is(tmp_path):
    seen = observed(
        tmp_path,
        """\
        open("mine.txt", "w").write("1"); open("mine.txt").read()
        OBSERVER.begin("fixture:made", set()); open("theirs.txt", "w").write("2"); OBSERVER.end()
        open("theirs.txt").read()
        OBSERVER.begin("fixture:other", set()); open("other.txt", "w").write("3"); OBSERVER.end()
        open("other.txt").read()
        os.rename("mine.txt", "moved.txt")
        """,
    )
    assert seen["reads"] == [str(tmp_path / "other.txt")]
    assert {str(tmp_path / "mine.txt"), str(tmp_path / "moved.txt"), str(tmp_path)} <= set(seen["writes"])


def test_subprocesses_and_the_network_are_not_followed(tmp_path):
    seen = observed(
        tmp_path,
        """\
        import socket, subprocess
        subprocess.run([sys.executable, "-c", "pass"])
        try:
            socket.create_connection(("127.0.0.1", 9), timeout=0.1)
        except OSError:
            pass
        """,
    )
    assert seen["unfollowed"] == ["network", "subprocess"]


def test_a_draw_from_random_the_sink_did_not_seed_is_not_followed(tmp_path):
    drawn = "import random\nrandom.choice([1, 2, 3])"
    assert observed(tmp_path, drawn)["unfollowed"] == ["random"]
    assert observed(tmp_path, "import random\nrandom.shuffle([1, 2, 3])")["unfollowed"] == ["random"]
    seeded = "import random\nrandom.seed(7)\nrandom.choice([1, 2, 3]); random.random()"
    assert "unfollowed" not in observed(tmp_path, seeded)
    own = "import random\nrandom.Random(7).choice([1, 2, 3])"  # a generator of its own, seeded
    assert "unfollowed" not in observed(tmp_path, own)
    stated = "import random\nstate = random.getstate()\nrandom.setstate(state)\nrandom.random()"
    assert observed(tmp_path, stated)["unfollowed"] == ["random"]  # a state that nothing seeded


def test_random_s_functions_draw_as_before_they_were_observed():
    """The same state gives the same values, through every kind of draw, and a default argument
    bound after observing starts (`choice=random.choice`) is observed too."""
    script = """\
import json, random
random.seed(11)
plain = [random.random(), random.choice("abcdef"), random.randint(1, 9), random.sample(range(50), 3)]
random.seed(11)
from mutcheck.host.observe import OBSERVER, start_observing
start_observing()
OBSERVER.begin("test:0")
observed = [random.random(), random.choice("abcdef"), random.randint(1, 9), random.sample(range(50), 3)]
def evict(keys, choice=random.choice):
    return choice(keys)
OBSERVER.end()
OBSERVER.begin("test:1")
evict([1, 2])
import pickle
# a cache that keeps `random.choice` pickles as in a plain run: the generator by its class and state
copied = pickle.loads(pickle.dumps((random.choice, random.random)))
plain_types = type(random._inst) is random.Random and type(copied[0].__self__) is random.Random
print(json.dumps([plain, observed, sorted(OBSERVER.end().unfollowed), plain_types]))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    plain, drawn, unfollowed, plain_types = json.loads(done.stdout.splitlines()[-1])
    assert plain == drawn
    assert unfollowed == ["random"]
    assert plain_types


def test_nothing_is_recorded_outside_a_sink(tmp_path):
    script = (
        "import json, os\nfrom mutcheck.host.observe import OBSERVER, start_observing\nstart_observing()\n"
        "open(os.devnull).read(); os.environ.get('X')\nOBSERVER.begin('test:0')\n"
        "print(json.dumps(OBSERVER.end().to_json()))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {}


def test_a_module_s_source_read_by_its_import_is_no_direct_read_but_read_as_text_is(tmp_path):
    (tmp_path / "imported.py").write_text("X = 1\n")
    (tmp_path / "read.py").write_text("Y = 2\n")
    seen = observed(
        tmp_path,
        """\
        sys.path.insert(0, os.getcwd())
        import imported
        open("read.py").read()
        """,
    )
    assert {str(tmp_path / "imported.py"), str(tmp_path / "read.py")} <= set(seen["reads"])
    assert seen["direct_reads"] == [str(tmp_path / "read.py")]


def test_workers_multiprocessing_spawns_are_not_followed(tmp_path):
    seen = observed(
        tmp_path,
        """\
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            pool.map(abs, [-1])
        """,
    )
    assert seen["unfollowed"] == ["subprocess"]


def test_code_run_from_text_is_the_names_it_spells_and_an_import_is_none(tmp_path):
    (tmp_path / "plain.py").write_text("VALUE = 1\n")
    seen = observed(
        tmp_path,
        """\
        sys.path.insert(0, os.getcwd())
        import plain
        namespace = {"settings": plain}
        exec("def made():\\n    return settings.LIMIT + helper(1)\\n", namespace)
        eval("made", namespace)
        """,
    )
    assert seen["texts"] == ["LIMIT", "helper", "made", "settings"]  # the import's own code is no text


def test_code_run_from_text_that_reaches_names_it_does_not_spell_may_reach_any(tmp_path):
    seen = observed(tmp_path, 'exec("def made(name):\\n    return getattr(sys, name)\\n", {"sys": sys})')
    assert seen["texts"] == ["**"]


def test_what_mutcheck_asks_about_paths_for_itself_inside_a_sink_is_not_the_sink_s(tmp_path):
    (tmp_path / "module.py").write_text("")
    seen = observed(
        tmp_path,
        """\
        from mutcheck.host.project_files import relative_path
        relative_path(os.path.join(os.getcwd(), "module.py"), os.getcwd())
        os.path.isfile("asked.txt")
        """,
    )
    assert seen["probes"] == [str(tmp_path / "asked.txt")]  # the test's own question, through genericpath
