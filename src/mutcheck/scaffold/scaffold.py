"""What `mutcheck init` writes into a project: the [tool.mutcheck] table, a catalog skeleton,
.gitignore lines and, on request, the two GitHub workflows; it never overwrites a file."""

import json
import re
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import tomlkit
import tomlkit.exceptions

from mutcheck.catalog.config import Config, load_config
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.project_paths import outside_project
from mutcheck.core.rewrite import in_its_line_endings
from mutcheck.core.toml_file import read_toml
from mutcheck.engine.fresh_install import install_problem
from mutcheck.host.pytest_ini import ini_settings
from mutcheck.scaffold.declared import declared_project
from mutcheck.scaffold.install_set import install_set
from mutcheck.scaffold.suite_needs import suite_needs

CATALOG = "mutants"
CATALOG_EXAMPLE = "guards.toml"
IGNORED = ("/mutcheck-results/",)  # where the actions and the README's commands put reports
_SCRIPTS = {"setup", "conftest", "noxfile", "tasks", "fabfile", "manage", "conf", "docs"}  # no module to mutate
NOT_PACKAGES = {"tests", "test", "testing", "docs", "doc", "examples", "benchmarks", "scripts", "build", "dist"}
LOWEST_PYTHON = 11  # mutcheck needs Python 3.11 or later
_GITHUB = re.compile(r"^([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})@([A-Za-z0-9._/-]{1,200})$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
# The words a README or a help text puts where the real repository and commit go.
_PLACEHOLDERS = {"OWNER", "REPO", "REPOSITORY", "NAME", "USER", "ORG", "REF", "SHA", "COMMIT", "BRANCH", "TAG"}


@dataclass(frozen=True)
class ActionSource:
    """Where the workflows take mutcheck's actions from: OWNER/REPO at REF."""

    repository: str
    ref: str

    @classmethod
    def parse(cls, text: str) -> "ActionSource":
        match = _GITHUB.match(text)
        if not match or ".." in text:
            raise InputError([Problem("--github", text, "", "expected OWNER/REPO@REF, e.g. octo/mutcheck@<commit>")])
        if placeholders := [part for part in match.groups() if part.upper() in _PLACEHOLDERS]:
            message = (
                f"{', '.join(placeholders)}: a placeholder; name the repository that holds mutcheck's actions "
                "(where you installed mutcheck from) and one of its commits"
            )
            raise InputError([Problem("--github", text, "", message)])
        return cls(f"{match.group(1)}/{match.group(2)}", match.group(3))


@dataclass(frozen=True)
class Choice:
    value: tuple[str, ...] | str
    reason: str


def _pyproject(root: Path) -> dict[str, object]:
    path = root / "pyproject.toml"
    if not path.exists():
        return {}
    document, problems = read_toml(path, "pyproject.toml")
    if problems:
        raise InputError(problems)
    return document


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def detect_target(root: Path, document: dict[str, object]) -> Choice:
    """The package the catalog mutates: the one named like the project, else every package found."""
    found = {
        pattern: sorted(
            path.parent.relative_to(root).as_posix()
            for path in root.glob(pattern)
            if path.parent.name not in NOT_PACKAGES
            and "test" not in path.parent.name.lower()  # integration_tests/, testing_utils/: not the target
            and not path.parent.name.startswith(".")
        )
        for pattern in ("src/*/__init__.py", "*/__init__.py")
    }
    candidates = found["src/*/__init__.py"] or found["*/__init__.py"]  # a src/ layout says where the code is
    project = declared_project(root, document).get("project")
    name = project.get("name") if isinstance(project, dict) else None
    if not candidates:
        return _single_module(root, name)
    if isinstance(name, str):
        named = [path for path in candidates if _normalized(Path(path).name) == _normalized(name)]
        if named:
            return Choice((named[0],), f'the package named like the project, "{name}"')
    if len(candidates) == 1:
        return Choice(tuple(candidates), "the only package" + (" under src/" if found["src/*/__init__.py"] else ""))
    return Choice(tuple(candidates), "every package found; none is named like the project")


def _single_module(root: Path, name: object) -> Choice:
    """A project of one module (`pygtrie.py` at the root or under src/): the one named like the
    project, else the only module that is neither a test nor a build or tool script."""
    modules = sorted(
        path.relative_to(root).as_posix()
        for pattern in ("src/*.py", "*.py")
        for path in root.glob(pattern)
        if not _is_test_file(path.name) and path.stem not in _SCRIPTS
    )
    if isinstance(name, str):
        named = [module for module in modules if _normalized(Path(module).stem) == _normalized(name)]
        if named:
            return Choice((named[0],), f'the module named like the project, "{name}"')
    if len(modules) == 1:
        return Choice(tuple(modules), "the only module")
    message = "no package found (src/NAME/__init__.py or NAME/__init__.py), nor one module to mutate; give --target"
    raise InputError([Problem(str(root), "", "target", message)])


def _is_test_file(name: str) -> bool:
    """A file pytest collects by its default `python_files`, or one named test.py or tests.py."""
    return name.startswith("test_") or name.endswith("_test.py") or name in ("test.py", "tests.py")


def _ini_testpaths(path: Path) -> list[str] | None:
    value = ini_settings(path).get("testpaths")
    return value.split() if isinstance(value, str) else None


def detect_tests(root: Path, document: dict[str, object]) -> Choice:
    """The tests run per mutant: pytest's testpaths, read where pytest reads them, else tests/ or test/."""
    tool = document.get("tool")
    pytest_tables = tool.get("pytest") if isinstance(tool, dict) else None
    found: list[tuple[str, object]] = []
    if (root / "pytest.ini").is_file():
        found.append(("testpaths in pytest.ini", _ini_testpaths(root / "pytest.ini")))
    if isinstance(pytest_tables, dict):
        found.append(("testpaths in [tool.pytest]", pytest_tables.get("testpaths")))
        ini_options = pytest_tables.get("ini_options")
        if isinstance(ini_options, dict):
            found.append(("testpaths in [tool.pytest.ini_options]", ini_options.get("testpaths")))
    for name in ("tox.ini", "setup.cfg"):
        if (root / name).is_file():
            found.append((f"testpaths in {name}", _ini_testpaths(root / name)))
    for reason, value in found:
        paths = [value] if isinstance(value, str) else value
        if isinstance(paths, list) and paths and all(isinstance(path, str) for path in paths):
            existing = [path for path in paths if (root / path).exists() and outside_project(root, path) is None]
            if existing:
                return Choice(tuple(existing), reason)
    for name in ("tests", "test"):
        if (root / name).is_dir():
            return Choice((name,), f"the {name}/ directory")
    beside = sorted(path.name for path in root.glob("*.py") if _is_test_file(path.name))
    if beside:
        return Choice(tuple(beside), "the test files at the project's root")
    message = "no tests found (pytest testpaths, tests/ or test/, test files at the root); give --tests"
    raise InputError([Problem(str(root), "", "tests", message)])


def detect_python(document: dict[str, object]) -> Choice:
    """The workflow's Python: the lowest the project allows, but at least mutcheck's 3.11."""
    project = document.get("project")
    requires = project.get("requires-python") if isinstance(project, dict) else None
    match = re.search(r">=\s*3\.([0-9]+)", requires) if isinstance(requires, str) else None
    if match and int(match.group(1)) > LOWEST_PYTHON:
        return Choice(f"3.{match.group(1)}", f"the lowest the project's requires-python allows ({requires})")
    return Choice(f"3.{LOWEST_PYTHON}", "the lowest Python mutcheck runs on")


def _given(root: Path, paths: tuple[str, ...], option: str) -> Choice:
    problems = [
        Problem(option, path, "", reason)
        for path in paths
        if (reason := outside_project(root, path) or (None if (root / path).exists() else "does not exist"))
    ]
    if problems:
        raise InputError(problems)
    return Choice(paths, f"given with {option}")


def _given_targets(root: Path, targets: tuple[str, ...]) -> Choice:
    """--target's paths; a package's name that is no path but a package under src/ means that folder."""

    def resolved(target: str) -> str:
        in_src = not (root / target).exists() and (root / "src" / target / "__init__.py").is_file()
        return f"src/{target}" if in_src else target

    under_src = tuple(resolved(target) for target in targets)
    choice = _given(root, under_src, "--target")
    return choice if under_src == targets else Choice(under_src, "given with --target, the package under src/")


def _template(*parts: str) -> str:
    return files("mutcheck").joinpath("templates", *parts).read_text(encoding="utf-8")


def _filled(text: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    return text


def _first(root: Path, directories: tuple[str, ...], pattern: str, fallback: str) -> str:
    for directory in directories:
        for path in sorted((root / directory).rglob(pattern)):
            return path.relative_to(root).as_posix()
    return fallback


_DEPENDENCY_PATTERNS = ("setup.cfg", "setup.py", "requirements*.txt", "requirements/*.txt", "*.lock")
_JOB_MINUTES = 60  # a run job's time limit in the workflow: a hung test stops there, not at GitHub's 6 hours


def _toml_list(values: tuple[str, ...]) -> str:
    return "[" + ", ".join(json.dumps(value) for value in values) + "]"  # JSON strings are TOML strings


class _Writer:
    """Plans new files and additions to the two files it may extend, then writes them all or none
    (`commit`), saying what it did or skipped. A file's bytes it does not add to stay as they were,
    whatever their encoding."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.steps: list[tuple[str | None, str, str]] = []  # (path or None for a line alone, new text, line)

    def note(self, *lines: str) -> None:
        self.steps += [(None, "", line) for line in lines]

    def say_notes(self, report: Callable[[str], None]) -> None:
        """The choices noted so far, said now (before something slow); the writes stay planned."""
        for _, _, line in (step for step in self.steps if step[0] is None):
            report(line)
        self.steps = [step for step in self.steps if step[0] is not None]

    def create(self, relative: str, text: str, what: str = "") -> None:
        path = self.root / relative
        if path.exists() or path.is_symlink():
            self.note(f"skipped {relative}: it exists")
            return
        self.steps.append((relative, text, f"wrote {relative}{what}"))

    def append(self, relative: str, text: str, what: str, joined: str | None = None) -> None:
        """`text` after the file's own; `joined`: the whole new text, where plain appending cannot do."""
        if joined is None:
            old = read_kept(self.root / relative)
            joined = old + ("" if not old or old.endswith("\n") else "\n") + "\n" + text
        self.steps.append((relative, joined, f"wrote {relative}: {what}"))

    def commit(self, report: Callable[[str], None]) -> None:
        """Every planned write, each reported as it is done; on a failure, the files written so far
        are put back as they were, and the failure is one line naming the file."""
        done: list[tuple[Path, bytes | None]] = []
        made: list[Path] = []  # folders made for new files, removed again on a failure
        unread: list[BrokenPipeError] = []  # nobody reads the lines (`| head`): the writes still all happen

        def say(line: str) -> None:
            if not unread:
                try:
                    report(line)
                except BrokenPipeError as error:
                    unread.append(error)

        try:
            for relative, text, line in self.steps:
                if relative is None:
                    say(line)
                    continue
                path = self.root / relative
                before = path.read_bytes() if path.exists() else None
                for folder in reversed(path.parents):
                    if folder.is_relative_to(self.root) and not folder.exists():
                        folder.mkdir()
                        made.append(folder)
                if before is not None:  # what it adds ends its lines as the file's own lines do
                    text = in_its_line_endings(text, before.decode("utf-8", errors="surrogateescape"))
                path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
                done.append((path, before))
                say(line)
        except OSError as error:
            for path, before in reversed(done):
                if before is None:
                    path.unlink()
                else:
                    path.write_bytes(before)
            for folder in reversed(made):
                folder.rmdir()
            where = str(Path(error.filename).relative_to(self.root)) if error.filename else "init"
            message = f"cannot be written ({error.strerror}); nothing was written"
            raise InputError([Problem(where, "", "", message)]) from error
        if unread:
            raise unread[0]


def read_kept(path: Path) -> str:
    """A text file as it is, bytes that are not UTF-8 kept to be written back unchanged."""
    return path.read_bytes().decode("utf-8", errors="surrogateescape")


def _with_mutcheck_table(root: Path, table: str, values: dict[str, object]) -> str:
    """pyproject.toml with [tool.mutcheck] added: appended as text where that gives valid TOML
    with exactly `values` there (every other byte kept), else through a TOML editor (a `tool`
    written as an inline table, say); InputError where neither can."""
    old = read_kept(root / "pyproject.toml")
    appended = old + ("" if not old or old.endswith("\n") else "\n") + "\n" + table
    for attempt in (lambda: appended, lambda: _edited(old, values)):
        try:
            text = attempt()
            if tomllib.loads(text).get("tool", {}).get("mutcheck") == values:
                return text
        except (tomllib.TOMLDecodeError, tomlkit.exceptions.TOMLKitError, UnicodeEncodeError, AttributeError):
            continue
    raise InputError([Problem("pyproject.toml", "", "tool", "cannot add [tool.mutcheck] to it: nothing was written")])


def _edited(old: str, values: dict[str, object]) -> str:
    document = tomlkit.parse(old)
    tool = document.setdefault("tool", tomlkit.table())
    tool["mutcheck"] = values
    return tomlkit.dumps(document)


def init_project(
    root: Path,
    source: ActionSource | None,
    shards: int | None,
    target: tuple[str, ...] = (),
    tests: tuple[str, ...] = (),
    report: Callable[[str], None] = print,
    prove_install: bool = True,
) -> None:
    """Set the project up for mutcheck, all or nothing; `report` gets one line per choice made and
    per file written (as it is written) or skipped. With `prove_install`, the workflow's install
    line is first proven in a fresh environment (InputError, nothing written, when it fails)."""
    document = _pyproject(root)
    writer = _Writer(root)
    if isinstance(document.get("tool"), dict) and "mutcheck" in document["tool"]:
        writer.note("skipped pyproject.toml: it already has [tool.mutcheck]")
        target_choice = tests_choice = None
    else:
        target_choice = _given_targets(root, target) if target else detect_target(root, document)
        tests_choice = _given(root, tests, "--tests") if tests else detect_tests(root, document)
        table = "\n".join(
            [
                "[tool.mutcheck]",
                "# The code the catalog mutates, where the catalog lives, and the tests run per mutant.",
                f"target = {_toml_list(target_choice.value)}",
                f'catalog = "{CATALOG}"',
                f"tests = {_toml_list(tests_choice.value)}",
                "# Every catalog text is written in each of these languages; reports show them, the first first.",
                f"languages = {_toml_list(Config.languages)}",
                "",
            ]
        )
        values = tomllib.loads(table)["tool"]["mutcheck"]  # what we append must parse on its own
        writer.note(
            f"target: {', '.join(target_choice.value)} ({target_choice.reason})",
            f"tests: {', '.join(tests_choice.value)} ({tests_choice.reason})",
        )
        if (root / "pyproject.toml").exists():
            joined = _with_mutcheck_table(root, table, values)
            writer.append("pyproject.toml", table, "[tool.mutcheck]", joined)
        else:
            writer.create("pyproject.toml", table, ": [tool.mutcheck]")
    target_file = _first(root, target_choice.value if target_choice else (), "*.py", "src/package/module.py")
    test_file = _first(root, tests_choice.value if tests_choice else (), "test_*.py", "tests/test_module.py")
    writer.create(f"{CATALOG}/families.toml", _template("init", "families.toml"))
    example = _filled(_template("init", "example.toml"), {"TARGET_FILE": target_file, "TEST_FILE": test_file})
    writer.create(f"{CATALOG}/{CATALOG_EXAMPLE}", example, " (one commented example entry)")
    _ignore(writer)
    if source is not None:  # the tests whose needs the install line holds: those chosen, or those configured
        suite = Config(root, tests=tests_choice.value) if tests_choice else load_config(root)
        _workflows(writer, document, source, shards, suite, report if prove_install else None)
    writer.commit(report)
    report(f"next: add entries to {CATALOG}/{CATALOG_EXAMPLE}, then `mutcheck check` and `mutcheck run`")


def _ignore(writer: _Writer) -> None:
    path = writer.root / ".gitignore"
    present = set(read_kept(path).splitlines()) if path.is_file() else set()
    missing = [line for line in IGNORED if line not in present]
    if not missing:
        writer.note("skipped .gitignore: it already ignores mutcheck's files")
        return
    text = "\n".join(["# mutcheck's reports", *missing, ""])
    if path.exists():
        writer.append(".gitignore", text, ", ".join(missing))
    else:
        writer.create(".gitignore", text, ": " + ", ".join(missing))


def _dependency_files(root: Path) -> list[str]:
    """The project's files that say what it installs (pyproject.toml always: init writes it)."""
    found = {"pyproject.toml"}
    for pattern in _DEPENDENCY_PATTERNS:
        found.update(path.relative_to(root).as_posix() for path in root.glob(pattern) if path.is_file())
    return sorted(found)


def _workflows(
    writer: _Writer,
    document: dict[str, object],
    source: ActionSource,
    shards: int | None,
    suite: Config,
    proving: Callable[[str], None] | None,
) -> None:
    """The two workflows; the run's installs the project with what collecting `suite`'s tests needs,
    proven first where `proving` is given (it hears that the proof began)."""
    declared = declared_project(writer.root, document)  # setup.cfg's, where pyproject.toml declares nothing
    install, python = install_set(declared, suite_needs(suite)), detect_python(declared)
    writer.note(
        f"install: {install.line} ({install.reason})",
        "install: pip's arguments"
        + (" (--group needs pip 25.1 or later)" if "--group" in install.line else "")
        + ", yours to edit in .github/workflows/mutcheck.yml",
        f"python: {python.value} ({python.reason})",
    )
    if proving is None:
        writer.note("install: not proven (--skip-install-proof): CI is the first to build an environment from it")
    else:
        writer.say_notes(proving)  # what was chosen, before the proof's minutes
        proving(f"install: proving `{install.line}`: a fresh environment built from it must collect the tests ...")
        started = time.monotonic()
        if problem := install_problem(suite, install.line):
            message = (
                f"`{install.line}` does not give CI an environment that collects the tests: {problem}; "
                "add what provides it to an extra or a dependency group of the project and run init again "
                "(or --skip-install-proof to write the line unproven)"
            )
            raise InputError([Problem(".github/workflows/mutcheck.yml", "", "install", message)])
        seconds = time.monotonic() - started
        writer.note(f"install: proven: a fresh environment built from it collects the tests ({seconds:.0f} s)")
    if not _COMMIT.match(source.ref):
        writer.note(f"warning: {source.ref} is not a commit SHA; pin one so the workflows run what you reviewed")
    values = {
        "ACTIONS": source.repository,
        "REF": source.ref,
        "INSTALL": install.line,
        "GENERIC": "true" if suite.generic else "false",
        "DEPENDENCY_FILES": "\n            ".join(_dependency_files(writer.root)),  # a YAML block's lines
        "TIMEOUT": str(_JOB_MINUTES),
        "PYTHON": str(python.value),
        "SHARDS": str(shards or 1),
        "SHARD_LIST": ", ".join(str(k) for k in range(1, (shards or 1) + 1)),
    }
    run_template = "mutcheck-sharded.yml" if shards else "mutcheck.yml"
    pinned = f" (actions from {source.repository}@{source.ref})"
    writer.create(".github/workflows/mutcheck.yml", _filled(_template("workflows", run_template), values), pinned)
    comment = _filled(_template("workflows", "mutcheck-comment.yml"), values)
    writer.create(".github/workflows/mutcheck-comment.yml", comment, pinned)
