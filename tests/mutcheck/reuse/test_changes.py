"""Every kind of change a project makes between two runs that changes what its tests see, each both
ways (the change makes a killed mutant survive; undone, the survivor is killed again), through the
whole-run path (the change alone) and the per-test path (with another change that keeps the run from
being taken whole): the run that reuses gives exactly the verdicts and killing tests of a fresh run,
and reuses what the change did not touch."""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.mutcheck.reuse.reuse_project import both, clamps, make, reused_tests, verdicts, write


@dataclass(frozen=True)
class Kind:
    """A project whose M is killed, the change that makes it survive, and what it needs around it."""

    files: dict[str, str]
    change: Callable[[Path, pytest.MonkeyPatch], None]
    undo: Callable[[Path, pytest.MonkeyPatch], None]
    tests: tuple[str, ...] = ("tests",)
    environment: dict[str, str] = field(default_factory=dict)
    every_outcome: bool = False  # the run's key, or what collecting read: every outcome stands on it


def rewrite(name: str, old: str, new: str) -> Callable[[Path, pytest.MonkeyPatch], None]:
    def edit(root: Path, _patch: pytest.MonkeyPatch) -> None:
        path = root / name if not name.startswith("/") else Path(name.replace("HOME", str(root.parent / "home")))
        text = path.read_text(encoding="utf-8")
        assert old in text, (path, old)
        path.write_text(text.replace(old, new), encoding="utf-8")

    return edit


def setenv(name: str, value: str) -> Callable[[Path, pytest.MonkeyPatch], None]:
    return lambda _root, patch: patch.setenv(name, value)


READS_A_FILE = """\
from pathlib import Path


def configured():
    return int((Path(__file__).parent / "data" / "value.txt").read_text())
"""

READS_A_RESOURCE = """\
import importlib.resources


def configured():
    return int(importlib.resources.files("pkg").joinpath("data/value.txt").read_text())
"""

READS_THE_ENVIRONMENT = """\
import os


def configured():
    return int(os.environ.get("PKG_VALUE", "1"))
"""

IMPORTS_LATE = """\
def configured():
    from pkg.settings import VALUE

    return VALUE
"""

IMPORTS_BY_A_COMPUTED_NAME = """\
import importlib


def configured():
    return importlib.import_module("pkg." + "set" + "tings").VALUE
"""

READS_ITS_OWN_VERSION = """\
import tomllib
from pathlib import Path


def configured():
    with open(Path(__file__).parents[2] / "pyproject.toml", "rb") as file:
        return int(tomllib.load(file)["project"]["version"])
"""

A_CLASS_ATTRIBUTE = """\
class Settings:
    LIMIT = 15

    def configured(self):
        return self.LIMIT
"""

A_REGISTERED_CLASS = """\
REGISTRY = []


class Settings:
    REGISTRY.append("Settings")

    def configured(self, value=15):
        return value
"""

MARKED_BY_ITS_CLASS = """\
import pytest

from pkg.core import limit


class TestClamps:
    pytestmark = []

    def test_clamps(self):
        value = 15
        assert limit(value, 10) == min(value, 10)
"""

AN_ATTRIBUTE_OF_ITS_FUNCTION = """\
def configured():
    return configured.value


configured.value = 15
"""

RUNS_TEXT = """\
import pkg.settings

TEXT = "def made():\\n    return settings.LIMIT\\n"


def configured():
    namespace = {"settings": pkg.settings}
    exec(TEXT, namespace)
    return namespace["made"]()
"""

BUILT_AT_IMPORT = """\
def build_table():
    return {"value": 15}


TABLE = build_table()


def configured():
    return TABLE["value"]
"""

READS_ITS_ANNOTATION = """\
def configured(value: 15 = 0):
    annotation = configured.__annotations__["value"]
    return annotation if isinstance(annotation, int) else 5
"""

USES_THE_DEPENDENCY = """\
def configured():
    from reusedep import VALUE

    return VALUE
"""

USES_THE_EXTENSION = """\
def configured():
    from pkg import native

    return native.value()
"""

EXTENSION = """\
#include <Python.h>
static PyObject *value(PyObject *self, PyObject *args) { return PyLong_FromLong(VALUE); }
static PyMethodDef methods[] = {{"value", value, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "native", NULL, -1, methods};
PyMODINIT_FUNC PyInit_native(void) { return PyModule_Create(&module); }
"""


def build_extension(root: Path, value: int) -> None:
    """`src/pkg/native*.so`, built from C in place, its `value()` returning `value`."""
    source = root.parent / "native.c"
    source.write_text(EXTENSION.replace("VALUE", str(value)), encoding="utf-8")
    target = root / "src" / "pkg" / f"native{sysconfig.get_config_var('EXT_SUFFIX')}"
    command = [os.environ.get("CC", "cc"), "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}"]
    subprocess.run([*command, str(source), "-o", str(target)], check=True)


CONFIGURED = clamps("configured()", imports="from pkg.config import configured")

KINDS = {
    "a data file beside the target's code, read with open": Kind(
        {"src/pkg/config.py": READS_A_FILE, "src/pkg/data/value.txt": "15", "tests/test_clamps.py": CONFIGURED},
        rewrite("src/pkg/data/value.txt", "15", "5"),
        rewrite("src/pkg/data/value.txt", "5", "15"),
    ),
    "a template beside the target's code, read with importlib.resources": Kind(
        {"src/pkg/config.py": READS_A_RESOURCE, "src/pkg/data/value.txt": "15", "tests/test_clamps.py": CONFIGURED},
        rewrite("src/pkg/data/value.txt", "15", "5"),
        rewrite("src/pkg/data/value.txt", "5", "15"),
    ),
    "a file outside the project, in the home folder, that a test reads": Kind(
        {"tests/test_clamps.py": clamps("int((Path.home() / '.pkgvalue').read_text())", "from pathlib import Path")},
        rewrite("/HOME/.pkgvalue", "15", "5"),
        rewrite("/HOME/.pkgvalue", "5", "15"),
    ),
    "a data folder beside the one test file configured": Kind(
        {
            "tests/test_clamps.py": clamps(
                "int((Path(__file__).parent / 'data' / 'value.txt').read_text())", "from pathlib import Path"
            ),
            "tests/data/value.txt": "15",
        },
        rewrite("tests/data/value.txt", "15", "5"),
        rewrite("tests/data/value.txt", "5", "15"),
        tests=("tests/test_clamps.py", "tests/test_other.py"),
    ),
    "a folder the tests reach through a symlink": Kind(
        {
            "tests/test_clamps.py": clamps(
                "int((Path(__file__).parent / 'data' / 'value.txt').read_text())", "from pathlib import Path"
            ),
            "fixtures/value.txt": "15",
        },
        rewrite("fixtures/value.txt", "15", "5"),
        rewrite("fixtures/value.txt", "5", "15"),
    ),
    "cases a test is parametrized from, read from a file outside the tests": Kind(
        {
            "cases.json": "[15]",
            "tests/test_clamps.py": clamps(
                "case",
                "import json\nimport pytest\nfrom pathlib import Path\n\n"
                "CASES = json.loads((Path(__file__).parents[1] / 'cases.json').read_text())\n\n\n"
                "@pytest.mark.parametrize('case', CASES, ids=[f'case{i}' for i in range(len(CASES))])",
                "case",
            ),
        },
        rewrite("cases.json", "15", "5"),
        rewrite("cases.json", "5", "15"),
        every_outcome=True,
    ),
    "a data file a shared fixture reads once, for two tests": Kind(
        {
            "tests/conftest.py": "import pytest\nfrom pathlib import Path\n\n\n@pytest.fixture(scope='session')\n"
            "def given():\n    return int((Path(__file__).parent / 'value.txt').read_text())\n",
            "tests/value.txt": "15",
            "tests/test_clamps.py": clamps("given", arguments="given")
            + "\n\ndef test_clamps_again(given):\n    assert limit(given, 10) == min(given, 10)\n",
        },
        rewrite("tests/value.txt", "15", "5"),
        rewrite("tests/value.txt", "5", "15"),
    ),
    "what an earlier test puts in a shared fixture's value": Kind(
        {
            "tests/test_clamps.py": "import pytest\n\nfrom pkg.core import limit\n\n\n"
            "@pytest.fixture(scope='module')\ndef box():\n    return {}\n\n\n"
            "def test_puts(box):\n    box['value'] = 15\n\n\n"
            "def test_clamps(box):\n    value = box['value']\n    assert limit(value, 10) == min(value, 10)\n",
        },
        rewrite("tests/test_clamps.py", "box['value'] = 15", "box['value'] = 5"),
        rewrite("tests/test_clamps.py", "box['value'] = 5", "box['value'] = 15"),
    ),
    "an environment variable the target's code reads": Kind(
        {"src/pkg/config.py": READS_THE_ENVIRONMENT, "tests/test_clamps.py": CONFIGURED},
        setenv("PKG_VALUE", "5"),
        setenv("PKG_VALUE", "15"),
        environment={"PKG_VALUE": "15"},
    ),
    "an environment variable a fixture reads": Kind(
        {
            "tests/conftest.py": "import os\nimport pytest\n\n\n@pytest.fixture\n"
            "def given():\n    return int(os.environ['PKG_VALUE'])\n",
            "tests/test_clamps.py": clamps("given", arguments="given"),
        },
        setenv("PKG_VALUE", "5"),
        setenv("PKG_VALUE", "15"),
        environment={"PKG_VALUE": "15"},
    ),
    "PYTEST_ADDOPTS deselecting the killing test": Kind(
        {"tests/test_clamps.py": clamps("15")},
        setenv("PYTEST_ADDOPTS", "-k 'not test_clamps'"),
        setenv("PYTEST_ADDOPTS", "-k 'test_clamps or test_double'"),
        every_outcome=True,
    ),
    "a module the target imports inside a function, after collection": Kind(
        {"src/pkg/config.py": IMPORTS_LATE, "src/pkg/settings.py": "VALUE = 15\n", "tests/test_clamps.py": CONFIGURED},
        rewrite("src/pkg/settings.py", "15", "5"),
        rewrite("src/pkg/settings.py", "5", "15"),
    ),
    "a module the target loads with importlib.import_module and a computed name": Kind(
        {
            "src/pkg/config.py": IMPORTS_BY_A_COMPUTED_NAME,
            "src/pkg/settings.py": "VALUE = 15\n",
            "tests/test_clamps.py": CONFIGURED,
        },
        rewrite("src/pkg/settings.py", "15", "5"),
        rewrite("src/pkg/settings.py", "5", "15"),
    ),
    "a test helper a test imports inside itself": Kind(
        {
            "tests/values.py": "VALUE = 15\n",
            "tests/test_clamps.py": "import sys\nfrom pathlib import Path\n\nfrom pkg.core import limit\n\n\n"
            "def test_clamps():\n    sys.path.insert(0, str(Path(__file__).parent))\n"
            "    from values import VALUE\n\n    assert limit(VALUE, 10) == min(VALUE, 10)\n",
        },
        rewrite("tests/values.py", "15", "5"),
        rewrite("tests/values.py", "5", "15"),
    ),
    "a dependency's code outside the project (an editable checkout on the path)": Kind(
        {"src/pkg/config.py": USES_THE_DEPENDENCY, "tests/test_clamps.py": CONFIGURED},
        rewrite("/HOME/checkout/reusedep.py", "15", "5"),
        rewrite("/HOME/checkout/reusedep.py", "5", "15"),
    ),
    "a C extension rebuilt in the target's folder": Kind(
        {"src/pkg/config.py": USES_THE_EXTENSION, "tests/test_clamps.py": CONFIGURED},
        lambda root, _patch: build_extension(root, 5),
        lambda root, _patch: build_extension(root, 15),
    ),
    "pyproject.toml's project table, which the code reads": Kind(
        {"src/pkg/config.py": READS_ITS_OWN_VERSION, "tests/test_clamps.py": CONFIGURED},
        rewrite("pyproject.toml", 'version = "15"', 'version = "5"'),
        rewrite("pyproject.toml", 'version = "5"', 'version = "15"'),
    ),
    "a target function that runs only at import": Kind(
        {"src/pkg/config.py": BUILT_AT_IMPORT, "tests/test_clamps.py": CONFIGURED},
        rewrite("src/pkg/config.py", '{"value": 15}', '{"value": 5}'),
        rewrite("src/pkg/config.py", '{"value": 5}', '{"value": 15}'),
        every_outcome=True,
    ),
    "the module's __future__ import, which turns its annotations into strings": Kind(
        {"src/pkg/config.py": READS_ITS_ANNOTATION, "tests/test_clamps.py": CONFIGURED},
        rewrite("src/pkg/config.py", "def configured(", "from __future__ import annotations\n\n\ndef configured("),
        rewrite("src/pkg/config.py", "from __future__ import annotations\n\n\n", ""),
    ),
    "an attribute the module sets on its own function": Kind(
        {"src/pkg/config.py": AN_ATTRIBUTE_OF_ITS_FUNCTION, "tests/test_clamps.py": CONFIGURED},
        rewrite("src/pkg/config.py", "configured.value = 15", "configured.value = 5"),
        rewrite("src/pkg/config.py", "configured.value = 5", "configured.value = 15"),
    ),
    "a name that code the target runs from text spells": Kind(
        {"src/pkg/config.py": RUNS_TEXT, "src/pkg/settings.py": "LIMIT = 15\n", "tests/test_clamps.py": CONFIGURED},
        rewrite("src/pkg/settings.py", "15", "5"),
        rewrite("src/pkg/settings.py", "5", "15"),
    ),
    "a module-level constant the test names": Kind(
        {"src/pkg/config.py": "LIMIT = 15\n", "tests/test_clamps.py": clamps("LIMIT", "from pkg.config import LIMIT")},
        rewrite("src/pkg/config.py", "15", "5"),
        rewrite("src/pkg/config.py", "5", "15"),
    ),
    "a class attribute the code reads through self": Kind(
        {
            "src/pkg/config.py": A_CLASS_ATTRIBUTE,
            "tests/test_clamps.py": clamps("Settings().configured()", "from pkg.config import Settings"),
        },
        rewrite("src/pkg/config.py", "LIMIT = 15", "LIMIT = 5"),
        rewrite("src/pkg/config.py", "LIMIT = 5", "LIMIT = 15"),
    ),
    "a method's default, in a class whose body has effects": Kind(
        {
            "src/pkg/config.py": A_REGISTERED_CLASS,
            "tests/test_clamps.py": clamps("Settings().configured()", "from pkg.config import Settings"),
        },
        rewrite("src/pkg/config.py", "value=15", "value=5"),
        rewrite("src/pkg/config.py", "value=5", "value=15"),
    ),
    "a test class's marks, which pytest reads from it": Kind(
        {"tests/test_clamps.py": MARKED_BY_ITS_CLASS},
        rewrite("tests/test_clamps.py", "pytestmark = []", "pytestmark = [pytest.mark.skip]"),
        rewrite("tests/test_clamps.py", "pytestmark = [pytest.mark.skip]", "pytestmark = []"),
        every_outcome=True,
    ),
    "the body of the killing test": Kind(
        {"tests/test_clamps.py": clamps("15")},
        rewrite("tests/test_clamps.py", "value = 15", "value = 5"),
        rewrite("tests/test_clamps.py", "value = 5", "value = 15"),
    ),
}
PYTEST_TOML = '[pytest]\npythonpath = ["src"]\naddopts = ["-k", "not test_clamps"]\n'
if int(pytest.__version__.split(".")[0]) >= 9:
    KINDS["pytest 9's pytest.toml, added"] = Kind(
        {"tests/test_clamps.py": clamps("15")},
        lambda root, _patch: write(root, {"pytest.toml": PYTEST_TOML}),
        lambda root, _patch: (root / "pytest.toml").unlink(),
        every_outcome=True,
    )


def _arrange(root: Path, kind: Kind, patch: pytest.MonkeyPatch) -> None:
    home = root.parent / "home"
    home.mkdir()
    (home / ".pkgvalue").write_text("15", encoding="utf-8")
    (home / "checkout").mkdir()
    (home / "checkout" / "reusedep.py").write_text("VALUE = 15\n", encoding="utf-8")
    patch.setenv("HOME", str(home))
    patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(home / "checkout"), os.environ.get("PYTHONPATH")])))
    patch.delenv("PYTEST_ADDOPTS", raising=False)
    for name, value in kind.environment.items():
        patch.setenv(name, value)
    make(root, kind.files, kind.tests)
    if "fixtures/value.txt" in kind.files:
        (root / "tests" / "data").symlink_to("../fixtures")
    if kind.files.get("src/pkg/config.py") == USES_THE_EXTENSION:
        build_extension(root, 15)


@pytest.mark.parametrize("path", ["whole", "per-test"])
@pytest.mark.parametrize("name", sorted(KINDS))
def test_a_change_gives_the_verdicts_of_a_fresh_run_both_ways(name, path, tmp_path, monkeypatch):
    kind = KINDS[name]
    root = tmp_path / "project"
    _arrange(root, kind, monkeypatch)
    first, _ = both(root)
    assert verdicts(first)["M"][0] == "killed", first["mutants"]
    for step, verdict in ((kind.change, "survived"), (kind.undo, "killed")):
        step(root, monkeypatch)
        if path == "per-test":  # a new test for OTHER: the run is not the stored one, whole
            text = (root / "tests" / "test_other.py").read_text(encoding="utf-8")
            (root / "tests" / "test_other.py").write_text(text + f"\n\ndef test_more_{verdict}():\n    assert True\n")
        reusing, fresh = both(root)
        assert verdicts(reusing) == verdicts(fresh), name
        assert verdicts(fresh)["M"][0] in (verdict, "no-coverage"), name  # the change did change what M's tests see
        assert reusing["run"]["timings"] != {"total": reusing["run"]["seconds"]}  # pytest ran: not taken whole
        if path == "per-test" and not kind.every_outcome:
            assert reused_tests(reusing, "OTHER") >= 1, name  # what the change left alone was reused


def test_an_unchanged_project_is_taken_whole_without_starting_pytest(tmp_path, monkeypatch):
    root = tmp_path / "project"
    _arrange(root, KINDS["a data file beside the target's code, read with open"], monkeypatch)
    first, _ = both(root)
    reusing, _ = both(root)
    assert verdicts(reusing) == verdicts(first)
    assert reusing["run"]["timings"] == {"total": reusing["run"]["seconds"]}
    assert all(entry["reuse"]["reused"] for entry in reusing["mutants"])


def test_an_edited_test_runs_again_alone(tmp_path, monkeypatch):
    """Of the two tests that reach M, the one edited runs again; the other keeps its outcome."""
    root = tmp_path / "project"
    _arrange(root, KINDS["the body of the killing test"], monkeypatch)
    small = "from pkg.core import limit\n\n\ndef test_small():\n    assert limit(3, 10) == 3\n"
    write(root, {"tests/test_more.py": small})
    both(root)
    rewrite("tests/test_clamps.py", "value = 15", "value = 16")(root, monkeypatch)
    reusing, fresh = both(root)
    assert verdicts(reusing) == verdicts(fresh)
    entry = next(entry for entry in reusing["mutants"] if entry["id"] == "M")
    assert entry["reuse"]["ran"] == {"tests/test_clamps.py::test_clamps": ["code:tests/test_clamps.py::test_clamps"]}
    assert entry["reuse"]["kept"] == 1
    assert next(entry for entry in reusing["mutants"] if entry["id"] == "OTHER")["reuse"]["reused"]


def _after_an_edit(root: Path, kind: str, edit: Callable[[Path, pytest.MonkeyPatch], None], patch) -> dict:
    """The run with reuse after `edit`, once its verdicts are checked against a fresh run's."""
    _arrange(root, KINDS[kind], patch)
    both(root)
    edit(root, patch)
    reusing, fresh = both(root)
    assert verdicts(reusing) == verdicts(fresh)
    return reusing


def test_a_new_module_level_constant_no_test_names_reuses_everything(tmp_path, monkeypatch):
    added = rewrite("src/pkg/config.py", "LIMIT = 15\n", "LIMIT = 15\nUNUSED = 3\n")
    reusing = _after_an_edit(tmp_path / "project", "a module-level constant the test names", added, monkeypatch)
    assert all(entry["reuse"]["reused"] for entry in reusing["mutants"])


def test_code_run_from_text_counts_by_the_names_it_spelled(tmp_path, monkeypatch):
    """A test added elsewhere binds a name the text M's test ran never spelled: M's outcome is kept."""

    def added(root: Path, _patch: pytest.MonkeyPatch) -> None:
        text = (root / "tests" / "test_other.py").read_text(encoding="utf-8")
        (root / "tests" / "test_other.py").write_text(text + "\n\ndef test_more():\n    assert True\n")

    kind = "a name that code the target runs from text spells"
    reusing = _after_an_edit(tmp_path / "project", kind, added, monkeypatch)
    assert next(entry for entry in reusing["mutants"] if entry["id"] == "M")["reuse"]["reused"]


def test_a_method_s_signature_beside_a_class_s_effects_runs_again_only_the_tests_that_name_it(tmp_path, monkeypatch):
    """The class's body registers it: a method's new signature is that member's change, not one of the
    module's effects (which would run every test of every process that loaded it): OTHER's test keeps
    its outcome; M's, which calls the method, runs again."""
    changed = rewrite("src/pkg/config.py", "value=15", "value=15, spare=None")
    reusing = _after_an_edit(
        tmp_path / "project", "a method's default, in a class whose body has effects", changed, monkeypatch
    )
    assert next(entry for entry in reusing["mutants"] if entry["id"] == "OTHER")["reuse"]["reused"]
    ran = next(entry for entry in reusing["mutants"] if entry["id"] == "M")["reuse"]["ran"]
    assert list(ran) == ["tests/test_clamps.py::test_clamps"]
    assert not any(reason.startswith("effects:") for reason in ran["tests/test_clamps.py::test_clamps"])


def test_a_new_class_member_runs_again_only_the_tests_that_name_the_class(tmp_path, monkeypatch):
    """What collecting ran of a class's body is not evidence of a member it binds: OTHER's test, which
    only collecting ran the class for, keeps its outcome; M's names the class."""
    added = rewrite("src/pkg/config.py", "LIMIT = 15\n", "LIMIT = 15\n    SPARE = 3\n")
    kind = "a class attribute the code reads through self"
    reusing = _after_an_edit(tmp_path / "project", kind, added, monkeypatch)
    entry = next(entry for entry in reusing["mutants"] if entry["id"] == "M")
    assert entry["reuse"]["ran"] == {
        "tests/test_clamps.py::test_clamps": ["name:pkg.config:Settings", "name:test_clamps:Settings"]
    }
    assert next(entry for entry in reusing["mutants"] if entry["id"] == "OTHER")["reuse"]["reused"]


def test_an_editable_install_pointed_at_another_checkout_runs_again(tmp_path):
    """A `.pth` in a virtual environment names the dependency's checkout; pointed at another with
    another value, M's fate changes: the key's `packages` part says so."""
    from tests.mutcheck.site_venvs import venv_seeing_ours

    root = tmp_path / "project"
    make(root, {"src/pkg/config.py": USES_THE_DEPENDENCY, "tests/test_clamps.py": CONFIGURED})
    python, site = venv_seeing_ours(tmp_path / "venv")
    for name, value in (("one", 15), ("two", 5)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "reusedep.py").write_text(f"VALUE = {value}\n", encoding="utf-8")
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    environment.pop("PYTHONPATH", None)

    def runs() -> tuple[dict, dict]:
        found = []
        for extra in ((), ("--fresh",)):
            path = tmp_path / f"results{len(found)}.json"
            command = [str(python), "-m", "mutcheck", "run", "--project", str(root), "--json", str(path), *extra]
            done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=300)
            assert done.returncode in (0, 1), done.stdout + done.stderr
            found.append(json.loads(path.read_text(encoding="utf-8")))
        return found[0], found[1]

    (site / "reusedep.pth").write_text(str(tmp_path / "one") + "\n", encoding="utf-8")
    first, _ = runs()
    assert verdicts(first)["M"][0] == "killed"
    (site / "reusedep.pth").write_text(str(tmp_path / "two") + "\n", encoding="utf-8")
    reusing, fresh = runs()
    assert verdicts(reusing) == verdicts(fresh) and verdicts(fresh)["M"][0] == "survived"
    assert "key:packages" in next(entry for entry in reusing["mutants"] if entry["id"] == "M")["reuse"]["changed"]


def test_a_symlink_retargeted_runs_again(tmp_path, monkeypatch):
    root = tmp_path / "project"
    _arrange(root, KINDS["a folder the tests reach through a symlink"], monkeypatch)
    write(root, {"elsewhere/value.txt": "5"})
    both(root)
    (root / "tests" / "data").unlink()
    (root / "tests" / "data").symlink_to("../elsewhere")
    reusing, fresh = both(root)
    assert verdicts(reusing) == verdicts(fresh) and verdicts(fresh)["M"][0] == "survived"


def test_the_compiler_finds_the_extension(tmp_path):
    """The C extension kind needs a C compiler and Python's headers: a missing one fails here, plainly."""
    root = tmp_path / "project"
    (root / "src" / "pkg").mkdir(parents=True)
    build_extension(root, 3)
    done = subprocess.run(
        [sys.executable, "-c", "from pkg import native; print(native.value())"],
        cwd=root / "src",
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "3"
    shutil.rmtree(root)
