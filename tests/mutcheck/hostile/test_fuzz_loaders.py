"""Fuzzing the loaders: whatever the catalog, families.toml or pyproject.toml holds, `mutcheck check`
ends in one of its documented exit statuses and prints no traceback."""

import math
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.engine_project import FAMILIES, GOOD_ENTRY, PYPROJECT, make_project

CHECK_STATUSES = {ExitCode.OK, ExitCode.EXPECTATION_FAILED, ExitCode.USAGE}  # what `check` documents
FILES = ("mutants/catalog.toml", "mutants/families.toml", "pyproject.toml")
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ_DEEP = settings(FUZZ, max_examples=30)  # a document that loads costs a pytest collection

# Strings a careless or hostile user might give a path, an id or a piece of code.
HOSTILE = st.sampled_from(
    [
        "",
        " ",
        "src/tiny.py",
        "/etc/passwd",
        "../../etc/passwd",
        "src/../../x.py",
        "a/b",
        "G1/../x",
        "<module>",
        "Counter",
        "clamp",
        "value < low",
        "return 5",
        "value <=",
        "a) or (b",
        "\x00",
        "\u202e",
        "é",
        "tests",
        "src",
        "--no-such-option",
        "-x",
        "en",
        "zh",
        "#1",
        "https://example.com",
        "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
    ]
)
# Numbers at the edges of what a setting accepts.
EDGES = st.sampled_from([0, -1, 1, 2**63 - 1, 0.0, -0.5, 1.5, math.inf, -math.inf, math.nan])
SCALARS = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(),
    st.text(max_size=20),
    HOSTILE,
    EDGES,
)
VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8) | HOSTILE, children, max_size=3)
    ),
    max_leaves=8,
)


def toml_string(text: str) -> str:
    escaped = "".join(
        "\\\\"
        if char == "\\"
        else '\\"'
        if char == '"'
        else f"\\u{ord(char):04x}"
        if ord(char) < 32 or char == "\x7f"
        else char
        for char in text
    )
    return f'"{escaped}"'


def toml_value(value: object) -> str:
    """A value as inline TOML, which tomllib reads back as the same value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return "{" + ", ".join(f"{toml_string(key)} = {toml_value(item)}" for key, item in value.items()) + "}"


def toml_document(document: dict[str, object]) -> str:
    return "".join(f"{toml_string(key)} = {toml_value(value)}\n" for key, value in document.items())


@st.composite
def edited(draw: st.DrawFn, table: dict[str, object], keys: list[str]) -> dict[str, object]:
    """`table` with a few of `keys` (or new ones) given other values or removed."""
    table = dict(table)
    for key in draw(st.lists(st.sampled_from(keys) | st.text(max_size=8), max_size=3)):
        if draw(st.booleans()):
            table[key] = draw(EDGES | HOSTILE | st.lists(HOSTILE | st.text(max_size=10), max_size=3) | VALUES)
        else:
            table.pop(key, None)
    return table


GOOD = tomllib.loads(GOOD_ENTRY)["mutant"][0]
ENTRY_KEYS = [*GOOD, "aliases", "survives", "tracked", "equivalent", "hint", "delete"]
CATALOGS = st.lists(edited(GOOD, ENTRY_KEYS), min_size=1, max_size=3).map(lambda tables: {"mutant": tables})
FAMILY_DOCUMENTS = st.builds(
    lambda families: {"family": families},
    st.dictionaries(
        st.text(max_size=8) | st.just("boundary"), edited({"en": "b", "zh": "边"}, ["en", "zh"]), max_size=3
    ),
) | edited(tomllib.loads(FAMILIES), ["family"])
MUTCHECK = tomllib.loads(PYPROJECT)["tool"]["mutcheck"]
SETTING_KEYS = [*MUTCHECK, "catalog", "pytest_args", "baseline_rounds", "generic", "strict_generic", "languages"]
PYPROJECTS = st.builds(
    lambda settings, pytest_table: {
        "project": {"name": "fuzz"},
        "tool": {"mutcheck": settings, "pytest": pytest_table},
    },
    edited(MUTCHECK, SETTING_KEYS),
    st.just({"ini_options": {"pythonpath": ["src"]}}),
) | edited(tomllib.loads(PYPROJECT), ["tool", "project"])
DOCUMENTS = dict(zip(FILES, (CATALOGS, FAMILY_DOCUMENTS, PYPROJECTS), strict=True))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(tmp_path_factory.mktemp("fuzz"))


@contextmanager
def holding(project: Path, name: str, content: bytes) -> Iterator[None]:
    """The project with one file's bytes replaced for the duration of the block."""
    path = project / name
    original = path.read_bytes()
    path.write_bytes(content)
    try:
        yield
    finally:
        path.write_bytes(original)


def assert_checked_without_traceback(project: Path) -> None:
    result = CliRunner().invoke(main, ["check", "--project", str(project)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback (most recent call last)" not in result.output
    assert result.exit_code in CHECK_STATUSES, result.output


@pytest.mark.parametrize("name", FILES)
@FUZZ
@given(content=st.binary(max_size=200))
def test_any_bytes(project, name, content):
    with holding(project, name, content):
        assert_checked_without_traceback(project)


@pytest.mark.parametrize("name", FILES)
@FUZZ
@given(text=st.text(max_size=200))
def test_any_text(project, name, text):
    with holding(project, name, text.encode("utf-8", "surrogatepass")):
        assert_checked_without_traceback(project)


@pytest.mark.parametrize("name", FILES)
@FUZZ_DEEP
@given(data=st.data())
def test_valid_toml_with_any_values(project, name, data):
    document = data.draw(DOCUMENTS[name])
    text = toml_document(document)
    assert tomllib.loads(text) == document or any(  # nan is not equal to itself
        isinstance(value, float) and math.isnan(value) for value in _leaves(document)
    )
    with holding(project, name, text.encode("utf-8")):
        assert_checked_without_traceback(project)


def _leaves(value: object) -> Iterator[object]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value
