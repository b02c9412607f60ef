"""The stages' import contract (pyproject.toml's [tool.importlinter]) holds, and breaks on an upward
import; what a saved results file and the pytest host load, measured in a fresh interpreter."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
GOLDEN = REPOSITORY / "tests/mutcheck/golden/results.json"
LINT_IMPORTS = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports over the package under `root`/src, with that tree's contracts."""
    assert LINT_IMPORTS, "lint-imports is installed with the dev extra"
    environment = {**os.environ, "PYTHONPATH": str(root / "src")}
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_repository_keeps_every_contract():
    linted = _lint_imports(REPOSITORY)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert "0 broken" in linted.stdout


@pytest.mark.parametrize(
    ("module", "added", "contract"),
    [
        ("core/problems.py", "from mutcheck.report import render", "stages import only the stages below them"),
        ("host/clock.py", "import mutcheck.catalog.catalog", "the host loads neither"),
        ("report/view.py", "from mutcheck.results import matrix", "the reports render a results file without"),
        ("harden/project_child.py", "import mutcheck.catalog.catalog", "harden's child, in the project's interpreter"),
    ],
)
def test_an_import_against_the_contract_breaks_it(tmp_path, module, added, contract):
    shutil.copytree(REPOSITORY / "src/mutcheck", tmp_path / "src/mutcheck", symlinks=True)
    shutil.copy(REPOSITORY / "pyproject.toml", tmp_path / "pyproject.toml")
    source = tmp_path / "src/mutcheck" / module
    source.write_text(source.read_text(encoding="utf-8") + f"\n{added}  # deliberately against the contract\n")
    linted = _lint_imports(tmp_path)
    assert linted.returncode == 1, linted.stdout + linted.stderr
    broken = linted.stdout.split("Broken contracts", 1)[1]
    assert " ".join(broken.split()).count(contract) == 1
    assert f"mutcheck.{module[:-3].replace('/', '.')} -> mutcheck." in broken


def _loaded_after(code: str) -> list[str]:
    """The modules a fresh interpreter has loaded after running `code`."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    completed = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120, cwd=REPOSITORY
    )
    return json.loads(completed.stdout.splitlines()[-1])


def _heavy(loaded: list[str], names: tuple[str, ...]) -> list[str]:
    return [name for name in loaded if name in names or name.startswith(tuple(f"{n}." for n in names))]


def test_rendering_a_saved_results_file_in_every_format_loads_neither_libcst_nor_the_engine():
    loaded = _loaded_after(
        "from pathlib import Path\n"
        "from mutcheck.report.render import render\n"
        "from mutcheck.results.results import load_results\n"
        f"results = load_results(Path({str(GOLDEN)!r}))\n"
        "for fmt in ('text', 'markdown', 'html', 'stryker'):\n"
        "    assert render(results, fmt, ('en', 'zh'))\n"
    )
    assert "mutcheck.report.html" in loaded and "jinja2" in loaded  # it did render
    engine_side = ("libcst", "unidiff", "mutmut", "mutcheck.engine", "mutcheck.mutation", "mutcheck.host")
    assert _heavy(loaded, engine_side) == []


def test_the_pytest_host_loads_neither_libcst_the_catalog_unidiff_nor_the_reports():
    loaded = _loaded_after("import mutcheck.host.host")
    assert "mutcheck.host.scheduler" in loaded
    others = ("libcst", "unidiff", "mutmut", "jinja2", "mutcheck.catalog", "mutcheck.report", "mutcheck.results")
    assert _heavy(loaded, others) == []


def _shards(tmp_path: Path) -> list[Path]:
    """The golden run cut into two `--shard k/n` results, mutant by mutant."""
    document = json.loads(GOLDEN.read_text(encoding="utf-8"))
    paths = []
    for part in (0, 1):
        shard = {**document, "run": {**document["run"], "shard": f"{part + 1}/2"}}
        shard["mutants"] = [m for index, m in enumerate(document["mutants"]) if index % 2 == part]
        paths.append(tmp_path / f"shard{part + 1}.json")
        paths[-1].write_text(json.dumps(shard), encoding="utf-8")
    return paths


@pytest.mark.parametrize("command", ["report", "merge", "comment"])
def test_the_commands_that_read_a_saved_results_file_load_neither_the_engine_the_host_nor_libcst(tmp_path, command):
    shards = _shards(tmp_path)
    arguments = {
        "report": [str(GOLDEN), "--format", "markdown", "-o", str(tmp_path / "comment.md")],
        "merge": [*map(str, shards), "-o", str(tmp_path / "merged.json")],
        # no server listens on port 9: the command reads the file and renders before it is refused
        "comment": ["--repo", "octo/repo", "--pr", "1", "--results", str(GOLDEN), "--api-url", "http://127.0.0.1:9"],
    }[command]
    code = (
        "import os\n"
        "os.environ['GITHUB_TOKEN'] = 'token'\n"
        "from mutcheck.cli import main\n"
        "try:\n"
        f"    main({[command, *arguments]!r}, standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "except Exception as error:\n"
        "    print(type(error).__name__)\n"
    )
    loaded = _loaded_after(code)
    if command != "comment":
        assert list(tmp_path.glob("merged.json" if command == "merge" else "comment.md")), "the command did its work"
    engine_side = ("libcst", "mutmut", "mutcheck.engine", "mutcheck.mutation", "mutcheck.host", "mutcheck.reuse")
    assert _heavy(loaded, (*engine_side, "mutcheck.runner")) == []
    assert "mutcheck.results.results" in loaded  # it read the results file


def test_show_loads_neither_the_engine_the_pytest_host_nor_reuse():
    """`show` applies today's entry to today's code to draw its diff (LibCST, and the host's code-object
    comparison that says whether the mutant can be swapped in); it runs nothing."""
    code = (
        "import contextlib, io\n"
        "from mutcheck.cli import main\n"
        "shown = io.StringIO()\n"
        "with contextlib.redirect_stdout(shown):\n"
        "    try:\n"
        f"        main(['show', 'G1', '--project', {str(REPOSITORY)!r}], standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "assert '+++ b/src/consolidation/' in shown.getvalue(), shown.getvalue()\n"
    )
    loaded = _loaded_after(code)
    assert "mutcheck.showing" in loaded and "libcst" in loaded  # it drew the diff
    engine_side = (
        "mutcheck.engine",
        "mutcheck.host",
        "mutcheck.reuse",
        "mutcheck.runner",
        "mutmut",
        "pytest",
        "_pytest",
    )
    assert _heavy(loaded, engine_side) == ["mutcheck.host", "mutcheck.host.swap"]
