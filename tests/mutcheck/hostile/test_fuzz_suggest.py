"""Fuzzing `suggest` with the standard library's own Python: every proposal applies as a catalog
mutant whose diff, compiled code and written entry are right, or is refused in one line; and
`mutcheck suggest` on a copy of a standard-library module ends in a documented status."""

import ast
import dataclasses
import subprocess
import sys
import tomllib
from pathlib import Path

import libcst as cst
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from mutcheck.core.source_text import read_source
from mutcheck.mutation.mutate import MutationError, apply_to_text
from mutcheck.suggest.entries import entry_table, mutant_of, render
from mutcheck.suggest.operators import function_scopes, propose
from mutcheck.suggest.suggest import edit_of
from tests.mutcheck.engine_project import families, pyproject
from tests.mutcheck.spans import patched

STDLIB = Path(ast.__file__).parent
SIZE_LIMIT = 6000  # bytes: proposing costs about a second for each few kilobytes
STDLIB_FILES = sorted(
    str(path.relative_to(STDLIB))
    for path in STDLIB.rglob("*.py")
    if not {"site-packages", "dist-packages"} & set(path.relative_to(STDLIB).parts)
    and path.stat().st_size <= SIZE_LIMIT
)
LANGUAGES = ("en", "zh")
OUT = "mutants/suggested.toml"
FUZZ = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DOCUMENTED = {0, 1, 2, 3}  # ok, expectations failed, bad input, baseline failed


def stdlib_source(name: str) -> tuple[str, str]:
    """A standard-library file's text and encoding; the example is rejected when this Python does not
    compile it (test data of lib2to3) or LibCST does not parse it (`suggest` refuses it: exit 2)."""
    try:
        text, encoding = read_source(STDLIB / name)
        compile(text, name, "exec")
        cst.parse_module(text)
    except (SyntaxError, UnicodeDecodeError, ValueError, cst.ParserSyntaxError):
        reject()
    return text, encoding


def scope_names(text: str) -> list[str]:
    """What `suggest FILE::SCOPE` accepts: each function's name and the classes and functions around it."""
    names = function_scopes(cst.parse_module(text))
    return sorted({".".join(name.split(".")[:end]) for name in names for end in range(1, name.count(".") + 2)})


def in_scope(name: str, scope: str) -> bool:
    return name == scope or name.startswith(scope + ".")


def assert_applies_as_proposed(proposal, name: str, text: str, encoding: str) -> None:
    """The proposal as `suggest` applies it; a refusal is one line; an applied mutant's diff gives its
    text, which compiles, and its entry as written to the catalog file makes the same edit."""
    mutant = mutant_of(proposal, name, OUT, LANGUAGES)
    try:
        applied = apply_to_text(mutant, text, encoding)
    except MutationError as error:
        assert len(str(error.problem).splitlines()) == 1, str(error.problem)
        return
    mutated = applied.mutated
    assert patched(text, applied.diff) == mutated, applied.diff
    compile(mutated, name, "exec")
    edit_of(applied)  # how suggest tells edits apart parses the edited statement
    (written,) = tomllib.loads(render([entry_table(mutant, None, LANGUAGES, None)]))["mutant"]
    reread = dataclasses.replace(mutant, match=written["match"], replace=written.get("replace"))
    assert apply_to_text(reread, text, encoding).mutated == mutated, written


@FUZZ
@given(name=st.sampled_from(STDLIB_FILES), data=st.data())
def test_every_proposal_for_a_standard_library_file_applies_or_is_refused_in_one_line(name, data):
    text, encoding = stdlib_source(name)
    everywhere = propose(text)
    names = scope_names(text)
    chosen = data.draw(st.lists(st.sampled_from(names), max_size=2, unique=True) if names else st.just([]))
    for scope in chosen:
        proposals = propose(text, scope)
        assert proposals == [proposal for proposal in everywhere if in_scope(proposal.scope, scope)]
        for proposal in proposals:
            assert_applies_as_proposed(proposal, name, text, encoding)


TRIVIAL_TESTS = "def test_nothing():\n    assert True\n"
# colorsys: small, pure, and the same in every Python mutcheck supports; its test kills some proposals.
COLORSYS_TESTS = """\
import pytest
from stdlib_colorsys import hls_to_rgb, rgb_to_hls, rgb_to_hsv


def test_round_trip():
    assert rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)
    assert hls_to_rgb(*rgb_to_hls(0.2, 0.4, 0.6)) == pytest.approx((0.2, 0.4, 0.6))
"""


def suggest_in_a_project(root: Path, name: str, tests: str) -> subprocess.CompletedProcess:
    """`mutcheck suggest` on a project whose only target file is a copy of a standard-library file
    (under a name of its own: it must not hide the module itself)."""
    target = f"src/stdlib_{Path(name).stem}.py"
    files = {
        "pyproject.toml": pyproject("stdlib-fixture", timeout_constant=1.0).encode(),
        target: (STDLIB / name).read_bytes(),
        "tests/test_target.py": tests.encode(),
        "mutants/families.toml": families("boundary", "boundary conditions", "边界条件").encode(),
    }
    for relative, content in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(content)
    return subprocess.run(
        [sys.executable, "-m", "mutcheck", "suggest", target],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )


def assert_documented(done: subprocess.CompletedProcess) -> None:
    output = done.stdout + done.stderr
    assert done.returncode in DOCUMENTED, (done.returncode, output[-3000:])
    assert "Traceback" not in output and "internal error" not in output, output[-3000:]


def test_suggest_on_a_copy_of_colorsys_writes_its_entries(tmp_path):
    done = suggest_in_a_project(tmp_path, "colorsys.py", COLORSYS_TESTS)
    assert_documented(done)
    assert done.returncode == 0, done.stdout + done.stderr
    written = tomllib.loads((tmp_path / "mutants/suggested_stdlib_colorsys.toml").read_text(encoding="utf-8"))
    assert {"rgb_to_hsv", "rgb_to_hls"} <= {table["scope"] for table in written["mutant"]}


@settings(FUZZ, max_examples=3)
@given(name=st.sampled_from(STDLIB_FILES))
def test_suggest_on_a_copy_of_any_standard_library_file_ends_in_a_documented_status(tmp_path_factory, name):
    stdlib_source(name)
    assert_documented(suggest_in_a_project(tmp_path_factory.mktemp("stdlib"), name, TRIVIAL_TESTS))
