"""Reuse end to end, test by test: what runs again after each kind of change to the project's own
code, and why (`reuse.ran`); the run's key; --fresh; --bail; a damaged store; a test that forges it."""

import json
import textwrap
from pathlib import Path

import pytest

from mutcheck.core.exit_code import ExitCode
from mutcheck.reuse.store import store_path
from tests.mutcheck.cli_runs import mutant, outcome, run
from tests.mutcheck.reuse.reuse_project import both, clamps, make, verdicts, write

TWO_FILES = {
    "tests/test_clamps.py": clamps("15"),
    "tests/test_small.py": "from pkg.core import limit\n\n\ndef test_small():\n    assert limit(3, 10) == 3\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = make(tmp_path / "project", TWO_FILES)
    code, output, data = run(root)
    assert code in (ExitCode.OK, ExitCode.EXPECTATION_FAILED), output
    assert all(entry["reuse"]["changed"] == ["not-stored"] for entry in data["mutants"])
    return root


def ran(data: dict, mutant_id: str) -> dict[str, list[str]]:
    return mutant(data, mutant_id)["reuse"]["ran"]


def edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_function_body_runs_again_only_the_tests_that_ran_it(project):
    edit(project, "src/pkg/core.py", "return value * 2", "doubled = value * 2\n    return doubled")
    reusing, fresh = both(project)
    assert verdicts(reusing) == verdicts(fresh)
    assert ran(reusing, "OTHER") == {"tests/test_other.py::test_double": ["code:src/pkg/core.py::double"]}
    assert mutant(reusing, "M")["reuse"]["reused"]  # neither clamp test runs `double`


def test_a_conftest_hook_changes_what_collecting_stands_on(project):
    write(project, {"tests/conftest.py": "def pytest_collection_modifyitems(items):\n    items.reverse()\n"})
    reusing, fresh = both(project)
    assert verdicts(reusing) == verdicts(fresh)
    assert not any(entry["reuse"]["kept"] for entry in reusing["mutants"])


def test_a_new_test_reaching_a_mutant_runs_alone_under_it(project):
    above = "from pkg.core import limit\n\n\ndef test_above():\n    assert limit(12, 10) == 10\n"
    write(project, {"tests/test_more.py": above})
    reusing, fresh = both(project)
    assert verdicts(reusing) == verdicts(fresh)
    assert ran(reusing, "M") == {"tests/test_more.py::test_above": ["not-stored"]}
    assert mutant(reusing, "M")["reuse"]["kept"] == 2


def test_a_module_constant_runs_again_the_tests_whose_code_names_it(project):
    write(project, {"src/pkg/bounds.py": "CAP = 10\n", "tests/test_cap.py": clamps("15", "from pkg.bounds import CAP")})
    both(project)
    edit(project, "src/pkg/bounds.py", "CAP = 10", "CAP = 11")
    edit(project, "tests/test_cap.py", "limit(value, 10) == min(value, 10)", "limit(value, CAP) == min(value, CAP)")
    reusing, fresh = both(project)
    assert verdicts(reusing) == verdicts(fresh)
    assert set(ran(reusing, "M")) == {"tests/test_cap.py::test_clamps"}
    edit(project, "src/pkg/bounds.py", "CAP = 11", "CAP = 12")  # a binding alone: the test that names it
    reusing, fresh = both(project)
    assert verdicts(reusing) == verdicts(fresh)
    assert ran(reusing, "M") == {"tests/test_cap.py::test_clamps": ["name:test_cap:CAP"]}  # its module's CAP


def test_a_statement_with_effects_runs_again_every_test_of_a_process_that_loaded_it(project):
    write(project, {"src/pkg/registry.py": "import os\n\nos.environ.setdefault('PKG_MODE', 'a')\n"})
    edit(project, "src/pkg/__init__.py", "", "from pkg import registry\n")
    both(project)
    edit(project, "src/pkg/registry.py", "'a'", "'b'")
    reusing, fresh = both(project)
    assert verdicts(reusing) == verdicts(fresh)
    assert all("effects:src/pkg/registry.py" in entry["reuse"]["changed"] for entry in reusing["mutants"])


def test_a_dependency_version_is_in_the_key(project, tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "somedependency-1.0.dist-info").mkdir(parents=True)
    monkeypatch.setenv("PYTHONPATH", str(site))  # a folder of installed distributions
    both(project)
    (site / "somedependency-1.0.dist-info").rename(site / "somedependency-1.1.dist-info")
    reusing, _ = both(project)
    assert all(entry["reuse"]["changed"] == ["key:packages"] for entry in reusing["mutants"])


def test_the_time_limits_are_in_the_key(project):
    code, output, data = run(project, "--timeout-constant", "6")
    assert code in (ExitCode.OK, ExitCode.EXPECTATION_FAILED), output
    assert all(entry["reuse"]["changed"] == ["key:settings"] for entry in data["mutants"])


def test_of_each_configuration_file_only_what_pytest_reads_is_in_the_key(tmp_path):
    """pytest reads pyproject.toml, tox.ini and setup.cfg at every start, and takes only its own table
    or section from them: a new dependency, tox's environments or the package's metadata change no
    outcome; a pytest setting in any of them is the key's change."""
    files = {**TWO_FILES, "tox.ini": "[tox]\nenvlist = py311\n", "setup.cfg": "[metadata]\nname = fixture\n"}
    root = make(tmp_path / "project", files)
    run(root)
    edit(root, "pyproject.toml", 'version = "15"', 'version = "15"\ndependencies = ["attrs"]\n\n[tool.other]\nkey = 1')
    edit(root, "tox.ini", "py311", "py311, py312")
    edit(root, "setup.cfg", "fixture", "renamed")
    code, output, data = run(root)
    assert code in (ExitCode.OK, ExitCode.EXPECTATION_FAILED), output
    assert all(entry["reuse"]["reused"] for entry in data["mutants"]), [entry["reuse"] for entry in data["mutants"]]
    for name, old, setting in (
        ("pyproject.toml", 'pythonpath = ["src"]', '\nconsole_output_style = "classic"'),
        ("tox.ini", "py311, py312", "\n\n[pytest]\nconsole_output_style = classic"),
        ("setup.cfg", "renamed", "\n\n[tool:pytest]\nconsole_output_style = classic"),
    ):
        edit(root, name, old, old + setting)
        code, output, data = run(root)
        assert code in (ExitCode.OK, ExitCode.EXPECTATION_FAILED), output
        assert all(entry["reuse"]["changed"] == ["key:config"] for entry in data["mutants"]), name


def test_settings_pytest_reads_from_setup_cfg_count_by_its_section_where_collecting_reads_them(tmp_path):
    """pytest opens the file it takes its settings from while collecting (through `iniconfig`): that
    read counts by the section pytest takes, as the key does, not by the file's bytes."""
    root = make(tmp_path / "project", TWO_FILES)
    edit(root, "pyproject.toml", '[tool.pytest.ini_options]\npythonpath = ["src"]\n', "")
    write(root, {"setup.cfg": "[metadata]\nname = fixture\n\n[tool:pytest]\npythonpath = src\n"})
    code, output, _ = run(root)
    assert code in (ExitCode.OK, ExitCode.EXPECTATION_FAILED), output
    edit(root, "setup.cfg", "fixture", "renamed")
    code, output, data = run(root)
    assert code in (ExitCode.OK, ExitCode.EXPECTATION_FAILED), output
    assert all(entry["reuse"]["reused"] for entry in data["mutants"]), [entry["reuse"] for entry in data["mutants"]]


def test_fresh_reuses_nothing_and_says_nothing_of_reuse_but_still_keeps_its_outcomes(project):
    data = run(project, "--fresh")[2]
    assert all(entry.get("reuse") is None for entry in data["mutants"]) and data["summary"]["reused"] == 0
    data = run(project)[2]
    assert all(entry["reuse"]["reused"] for entry in data["mutants"])


def test_fresh_never_reads_the_store(project):
    store = store_path(project, None, None)
    store.write_text("{" * 100000)
    code, output, _ = run(project, "--fresh")
    assert "warning" not in output and code in (ExitCode.OK, ExitCode.EXPECTATION_FAILED)
    assert json.loads(store.read_text())["format"] == "mutcheck-reuse"  # and it wrote a sound one


def test_under_bail_a_reused_kill_stops_the_run_as_a_run_of_all_would(tmp_path):
    files = {**TWO_FILES, "tests/test_above.py": clamps("20")}
    root = make(tmp_path / "project", files)
    first = run(root, "--bail", "--fresh")[2]
    killers = mutant(first, "M")["killers"]
    edit(root, "tests/test_small.py", "limit(3, 10) == 3", "limit(4, 10) == 4")  # runs before the killers
    reusing = run(root, "--bail")[2]
    fresh = run(root, "--bail", "--fresh")[2]
    assert verdicts(reusing) == verdicts(fresh) and mutant(reusing, "M")["killers"] == killers
    assert mutant(reusing, "M")["outcomes"] == mutant(fresh, "M")["outcomes"]  # after the first kill, none ran
    assert mutant(reusing, "M")["reuse"]["kept"] >= 1


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda text: text[: len(text) // 2], id="truncated"),
        pytest.param(lambda text: "[" * 50000 + "]" * 50000, id="nested-too-deep"),
        pytest.param(lambda text: text.replace('"failed"', "7", 1).replace('"passed"', "7", 1), id="wrong-types"),
        pytest.param(lambda text: text.replace('"sets":[[', '"sets":[[99999,', 1), id="out-of-range"),
    ],
)
def test_a_damaged_store_is_one_warning_and_a_fresh_run(project, damage):
    store = store_path(project, None, None)
    store.write_text(damage(store.read_text(encoding="utf-8")), encoding="utf-8")
    code, output, data = run(project)
    assert code in (ExitCode.OK, ExitCode.EXPECTATION_FAILED), output
    assert output.count("warning: the reuse store was not used") == 1 and "Traceback" not in output
    assert all(entry["reuse"]["changed"] == ["not-stored"] for entry in data["mutants"])
    code, _, data = run(project)  # the run wrote a sound store again
    assert all(entry["reuse"]["reused"] for entry in data["mutants"])


def test_a_test_that_writes_the_store_cannot_make_the_next_run_reuse_what_it_wrote(project):
    """The hostile test forges outcomes that say M survived, and plants a file of its own."""
    hostile = textwrap.dedent(
        """\
        import os, pathlib

        def test_forges_the_store():
            folder = pathlib.Path(os.environ["XDG_CACHE_HOME"]) / "mutcheck" / "reuse"
            for path in folder.glob("*.json"):
                path.write_text(path.read_text().replace('"failed"', '"passed"'))
            (folder / "planted.json").write_text("{}")
        """
    )
    write(project, {"tests/test_hostile.py": hostile})
    reusing, _ = both(project)
    assert mutant(reusing, "M")["verdict"] == "killed"
    store = store_path(project, None, None)
    assert not (store.parent / "planted.json").exists()
    data = run(project)[2]
    assert mutant(data, "M")["verdict"] == "killed"


MODULE_LEVEL = """\

[[mutant]]
id = "LEVEL"
family = "guards"
file = "src/pkg/bounds.py"
scope = "<module>"
match = "CAP = 10"
replace = "CAP = 100"
killed_by = ["tests/test_cap.py::test_cap"]
origin = "the fixture"
title = { en = "the cap moved", zh = "上限移动" }
why = { en = "the cap is ten", zh = "上限为十" }
"""


def test_a_mutant_run_in_a_copy_of_its_own_is_kept_and_reused_test_by_test(tmp_path):
    """A module-level edit runs on the fallback path (a fresh pytest in a copy): its tests' evidence
    is observed there too, said as in the run's copy."""
    cap = "from pathlib import Path\n\nfrom pkg.bounds import CAP\n\n\ndef test_cap():\n"
    cap += "    assert CAP < int((Path(__file__).parent / 'cap.txt').read_text())\n"
    files = {"src/pkg/bounds.py": "CAP = 10\n", "tests/test_cap.py": cap, "tests/cap.txt": "50"}
    root = make(tmp_path / "project", files)
    catalog = root / "mutants" / "guards.toml"
    catalog.write_text(catalog.read_text(encoding="utf-8") + MODULE_LEVEL, encoding="utf-8")
    first = run(root)[2]
    assert mutant(first, "LEVEL")["path"] == "fallback" and mutant(first, "LEVEL")["verdict"] == "killed"
    data = run(root)[2]
    assert mutant(data, "LEVEL")["reuse"]["reused"]
    write(root, {"tests/cap.txt": "500"})  # now the mutant's cap passes too
    reusing, fresh = both(root)
    assert verdicts(reusing) == verdicts(fresh) and mutant(fresh, "LEVEL")["verdict"] == "survived"
    assert ran(reusing, "LEVEL") == {"tests/test_cap.py::test_cap": ["read:tests/cap.txt"]}


def test_a_new_name_outside_the_suite_keeps_the_run_whole_but_a_new_test_does_not(tmp_path):
    """A helper module (not the target, whose lines the reports show, nor a test module) gains a name
    no test uses: the run is taken whole; a test module gains a test: it is not."""
    small = "from pathlib import Path\nimport sys\n\nsys.path.insert(0, str(Path(__file__).parent))\n"
    small += "from values import THREE\n\nfrom pkg.core import limit\n\n\ndef test_small():\n"
    small += "    assert limit(THREE, 10) == THREE\n"
    project = make(tmp_path / "project", {"tests/values.py": "THREE = 3\n", "tests/test_small.py": small})
    run(project)
    edit(project, "tests/values.py", "THREE = 3", "THREE = 3\nSPARE = 1")
    data = run(project)[2]
    assert data["run"]["timings"] == {"total": data["run"]["seconds"]}  # no test names SPARE: taken whole
    edit(project, "tests/test_small.py", "def test_small():", "def test_smaller():\n    pass\n\n\ndef test_small():")
    data = run(project)[2]
    assert "tests/test_small.py::test_smaller" in data["tests"]  # collected: the run was not taken whole


def test_an_order_dependent_outcome_stands_on_the_suite_s_order_up_to_it(tmp_path):
    """`test_needs_preparing` passes only after `test_prepares`, which reaches no mutant: under M it
    fails in M's selection, unmutated too, and the suite's order settles it. With two workers it fails
    in the baseline's split as well (of the four tests, the first two go to one worker: it lands
    apart from `test_prepares`), and is then never kept. Kept, its outcome stands on every test up to it in the
    suite's order: a change after it leaves it be; one before it runs it again, and every test of
    M with it (alone it would fail before M's code starts), on the swap path, as a fresh run does."""
    ordered = (
        "from pkg.core import limit\n\nREADY = []\n\n\ndef test_prepares():\n    READY.append(True)\n\n\n"
        "def test_needs_preparing():\n    assert READY\n    assert limit(3, 10) == 3\n"
    )
    root = make(tmp_path / "project", {**TWO_FILES, "tests/test_order.py": ordered})
    for jobs in ("1", "2"):
        both(root, "--jobs", jobs)
        again, fresh = both(root, "--jobs", jobs)
        assert verdicts(again) == verdicts(fresh)
        taken_whole = again["run"]["timings"] == {"total": again["run"]["seconds"]}
        assert taken_whole == (jobs == "1")
        edit(root, "tests/test_small.py", "limit(3, 10) == 3", "limit(4, 10) == 4")  # after it
        reusing, fresh = both(root, "--jobs", jobs)
        assert verdicts(reusing) == verdicts(fresh)
        assert outcome(fresh, mutant(fresh, "M"), "test_needs_preparing") == "order-dependent"
        assert outcome(reusing, mutant(reusing, "M"), "test_needs_preparing") == "order-dependent"
        if jobs == "1":
            assert ran(reusing, "M") == {"tests/test_small.py::test_small": ["code:tests/test_small.py::test_small"]}
        else:  # failed in the baseline's split: never kept
            assert ran(reusing, "M")["tests/test_order.py::test_needs_preparing"] == ["not-stored"]
        edit(root, "tests/test_clamps.py", "value = 15", "value = 15 + 0")  # before it
        reusing, fresh = both(root, "--jobs", jobs)
        assert verdicts(reusing) == verdicts(fresh)
        assert set(ran(reusing, "M")) == {
            "tests/test_clamps.py::test_clamps",
            "tests/test_order.py::test_needs_preparing",
            "tests/test_small.py::test_small",
        }
        assert ran(reusing, "M")["tests/test_small.py::test_small"] == ["in-order"]
        assert mutant(reusing, "M")["reuse"]["kept"] == 0
        assert mutant(reusing, "M")["path"] == mutant(fresh, "M")["path"] == "swap"
        edit(root, "tests/test_clamps.py", "value = 15 + 0", "value = 15")
        edit(root, "tests/test_small.py", "limit(4, 10) == 4", "limit(3, 10) == 3")
        both(root, "--jobs", jobs)
        write(root, {"tests/test_another.py": "def test_another():\n    pass\n"})  # a new test before it
        reusing, fresh = both(root, "--jobs", jobs)
        assert verdicts(reusing) == verdicts(fresh)
        if jobs == "1":
            assert ran(reusing, "M")["tests/test_order.py::test_needs_preparing"] == [
                "order:tests/test_order.py::test_needs_preparing"
            ]
        (root / "tests" / "test_another.py").unlink()


LOOPS = """\
[[mutant]]
id = "LOOP"
family = "guards"
file = "src/pkg/steps.py"
scope = "steps"
match = "left -= 1"
replace = "left -= 2"
killed_by = ["tests/test_steps.py::test_counts"]
origin = "the fixture"
title = { en = "the countdown stands still", zh = "倒数停滞" }
why = { en = "each step counts down", zh = "每一步都要倒数" }
"""

STEPS = (
    "def steps(left):\n    count = 0\n    while left != 0:\n        left -= 1\n        count += 1\n    return count\n"
)

COUNTS = (
    "from pathlib import Path\n\nfrom pkg.steps import steps\n\n\ndef test_counts():\n"
    "    left = int((Path(__file__).parent / 'steps.txt').read_text())\n    assert steps(left) > 0\n"
)


def test_a_time_out_is_kept_and_runs_again_when_what_it_stood_on_or_its_limit_changes(tmp_path):
    """Under LOOP the countdown steps two at a time and never ends on an odd count from the data file:
    the test is stopped at its limit. Kept, the time-out stands while the file and the code stand
    (and today's limit is no longer than what the test was charged before it was stopped: see
    `test_decide`); an even count (the test passes) and back (it is stopped again) run it again, each
    time as a fresh run says."""
    files = {"src/pkg/steps.py": STEPS, "tests/test_steps.py": COUNTS, "tests/steps.txt": "3"}
    root = make(tmp_path / "project", {**TWO_FILES, **files})
    catalog = root / "mutants" / "guards.toml"
    catalog.write_text(catalog.read_text(encoding="utf-8") + LOOPS, encoding="utf-8")
    # a limit that does not move with the baseline's timings: one a few milliseconds slower would
    # lengthen it past what the kept time-out was charged, and the test would rightly run again
    edit(root, "pyproject.toml", "timeout_constant = 5.0", "timeout_constant = 5.0\ntimeout_factor = 0")
    limits = ("--timeout-constant", "1")
    first = run(root, *limits)[2]
    assert mutant(first, "LOOP")["verdict"] == "timeout"
    again = run(root, *limits)[2]
    assert again["run"]["timings"] == {"total": again["run"]["seconds"]}  # nothing changed: taken whole
    assert verdicts(again) == verdicts(first)
    edit(root, "tests/test_small.py", "limit(3, 10) == 3", "limit(4, 10) == 4")  # not taken whole: decided per test
    reusing, fresh = both(root, *limits)
    assert verdicts(reusing) == verdicts(fresh) and mutant(reusing, "LOOP")["verdict"] == "timeout"
    assert mutant(reusing, "LOOP")["reuse"] == {"reused": True, "from": None, "changed": [], "ran": {}, "kept": 1}
    write(root, {"tests/steps.txt": "4"})
    reusing, fresh = both(root, *limits)
    assert verdicts(reusing) == verdicts(fresh) and mutant(reusing, "LOOP")["verdict"] == "survived"
    assert ran(reusing, "LOOP") == {"tests/test_steps.py::test_counts": ["read:tests/steps.txt"]}
    write(root, {"tests/steps.txt": "3"})
    reusing, fresh = both(root, *limits)
    assert verdicts(reusing) == verdicts(fresh) and mutant(reusing, "LOOP")["verdict"] == "timeout"
    assert ran(reusing, "LOOP") == {"tests/test_steps.py::test_counts": ["read:tests/steps.txt"]}


@pytest.mark.parametrize(("seeding", "kept"), [("", False), ("random.seed(3)\n    ", True)])
def test_a_test_that_draws_from_random_it_did_not_seed_is_never_kept(tmp_path, seeding, kept):
    """What it drew may differ from run to run (a cache evicting at random, jitter): only a run says.
    One that seeded `random` itself draws the same each time."""
    drawing = "import random\n\nfrom pkg.core import limit\n\n\ndef test_clamps():\n"
    drawing += f"    {seeding}value = random.choice([15, 16])\n    assert limit(value, 10) == min(value, 10)\n"
    root = make(tmp_path / "project", {**TWO_FILES, "tests/test_clamps.py": drawing})
    run(root)
    edit(root, "tests/test_small.py", "limit(3, 10) == 3", "limit(4, 10) == 4")
    reusing, fresh = both(root)
    assert verdicts(reusing) == verdicts(fresh)
    clamps_ran = "tests/test_clamps.py::test_clamps" in ran(reusing, "M")
    assert clamps_ran is not kept
    if not kept:
        assert ran(reusing, "M")["tests/test_clamps.py::test_clamps"] == ["not-stored"]


DRAWN_AT_IMPORT = {
    "random": "import random\n\nVALUE = random.choice([15, 16])\n",
    "a subprocess": "import subprocess\nimport sys\n\n"
    'VALUE = int(subprocess.run([sys.executable, "-c", "print(15)"], capture_output=True).stdout)\n',
    "the network": 'import socket\n\nVALUE = 15 + len(socket.getaddrinfo("127.0.0.1", 0)) * 0\n',
}


@pytest.mark.parametrize("source", sorted(DRAWN_AT_IMPORT))
def test_data_a_test_module_takes_at_import_from_where_no_record_follows_keeps_no_outcome(tmp_path, source):
    """Collecting takes the value the test clamps from `random`, a subprocess or the network: every
    outcome stands on what it got."""
    drawing = DRAWN_AT_IMPORT[source] + "\nfrom pkg.core import limit\n\n\n"
    drawing += "def test_clamps():\n    assert limit(VALUE, 10) == min(VALUE, 10)\n"
    root = make(tmp_path / "project", {**TWO_FILES, "tests/test_clamps.py": drawing})
    run(root)
    edit(root, "tests/test_small.py", "limit(3, 10) == 3", "limit(4, 10) == 4")
    reusing, fresh = both(root)
    assert verdicts(reusing) == verdicts(fresh)
    assert all(entry["reuse"]["changed"] == ["not-stored"] for entry in reusing["mutants"])
