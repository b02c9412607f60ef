"""Catalog loading and `mutcheck check`: every problem is named by file, entry id and field."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.catalog import LANGUAGES, load_catalog
from mutcheck.cli import main
from mutcheck.exit_code import ExitCode
from tests.mutcheck.engine_project import GOOD_ENTRY, entry, make_project

REPOSITORY = Path(__file__).resolve().parents[2]
CATALOG_FILE = "mutants/catalog.toml"


def check(project: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", "--project", str(project)])
    return result.exit_code, result.output


def test_good_fixture_catalog_checks(tmp_path):
    code, output = check(make_project(tmp_path))
    assert code == ExitCode.OK, output
    assert "1 mutants in 1 families" in output


@pytest.mark.parametrize(
    ("catalog", "expected"),
    [
        (entry(colour='"red"'), f"{CATALOG_FILE}: B1: colour: unknown key"),
        (entry(scope=None), f"{CATALOG_FILE}: B1: scope: missing field"),
        (entry(family='"nope"'), f"{CATALOG_FILE}: B1: family: unknown family 'nope' (known: boundary)"),
        (
            entry(killed_by='["tests/test_tiny.py::test_missing"]'),
            f"{CATALOG_FILE}: B1: killed_by: no such test in the suite: tests/test_tiny.py::test_missing",
        ),
        (
            entry(equivalent='{ en = "p", zh = "证" }'),
            f"{CATALOG_FILE}: B1: killed_by: give exactly one of killed_by or equivalent",
        ),
        (entry(killed_by=None), f"{CATALOG_FILE}: B1: killed_by: give exactly one of killed_by or equivalent"),
        (entry(replace=None), f"{CATALOG_FILE}: B1: replace: give exactly one of replace or delete"),
        (entry(title='{ en = "only english" }'), f"{CATALOG_FILE}: B1: title.zh: missing translation"),
        (entry(why='{ en = "why", zh = "" }'), f"{CATALOG_FILE}: B1: why.zh: missing translation"),
        (entry(why='{ en = "why", zh = "原因", fr = "x" }'), f"{CATALOG_FILE}: B1: why.fr: unknown language"),
        (entry(replace='"value <="'), f"{CATALOG_FILE}: B1: replace: does not parse as an expression"),
        (
            entry(replace='"value  <  low"'),
            f"{CATALOG_FILE}: B1: replace: rejected: the edit leaves the code unchanged",
        ),
        (entry(match='"value < middle"'), f"{CATALOG_FILE}: B1: match: not found in clamp; candidates:"),
        (entry(match='"high"'), f"{CATALOG_FILE}: B1: match: found 3 times in clamp"),
        (entry(scope='"clamp_all"'), f"{CATALOG_FILE}: B1: scope: no function or class 'clamp_all' in src/tiny.py"),
        (entry(file='"src/other.py"'), f"{CATALOG_FILE}: B1: file: no such file: src/other.py"),
        (entry(delete="false", replace=None), f"{CATALOG_FILE}: B1: delete: must be true when present"),
        (GOOD_ENTRY + GOOD_ENTRY, f"{CATALOG_FILE}: B1: id: duplicate id 'B1', also in {CATALOG_FILE}"),
        ("[mutant]\nid = 1\n", f"{CATALOG_FILE}: mutant: must be [[mutant]] tables"),
        ("[[mutant\n", f"{CATALOG_FILE}: not valid TOML"),
    ],
)
def test_broken_catalog_names_file_id_and_field(tmp_path, catalog, expected):
    code, output = check(make_project(tmp_path, catalog))
    assert code == ExitCode.USAGE
    assert f"error: {expected}" in output


def test_every_problem_is_listed_at_once(tmp_path):
    catalog = entry(colour='"red"', scope=None) + entry(id='"B2"', family='"nope"').replace(
        "[[mutant]]\n", "[[mutant]]\n", 1
    )
    code, output = check(make_project(tmp_path, catalog))
    assert code == ExitCode.USAGE
    assert f"{CATALOG_FILE}: B1: colour: unknown key" in output
    assert f"{CATALOG_FILE}: B1: scope: missing field" in output
    assert f"{CATALOG_FILE}: B2: family: unknown family" in output
    assert "3 problem(s) found" in output


def test_missing_families_file_is_reported(tmp_path):
    project = make_project(tmp_path)
    (project / "mutants/families.toml").unlink()
    code, output = check(project)
    assert code == ExitCode.USAGE
    assert "mutants/families.toml: missing: declare each family" in output


def test_family_without_chinese_title_is_reported(tmp_path):
    code, output = check(make_project(tmp_path, families='[family.boundary]\nen = "boundary"\n'))
    assert code == ExitCode.USAGE
    assert "mutants/families.toml: boundary: title.zh: missing translation" in output


def test_killed_by_mutant_that_compiles_identically_is_reported(tmp_path):
    code, output = check(make_project(tmp_path, entry(match='"value > high"', replace='"(value > high)"')))
    assert code == ExitCode.USAGE
    assert "B1: replace: rejected" in output


def test_repository_catalog_checks():
    code, output = check(REPOSITORY)
    assert code == ExitCode.OK, output


def test_repository_catalog_is_fully_bilingual():
    catalog = load_catalog(REPOSITORY / "mutants", REPOSITORY)
    assert len(catalog.mutants) >= 50
    for mutant in catalog.mutants:
        texts = [mutant.title, mutant.why] + [text for text in (mutant.hint, mutant.equivalent) if text]
        for text in texts:
            assert set(text) == set(LANGUAGES), mutant.id
            assert text["zh"] != text["en"], f"{mutant.id}: Chinese text is a copy of the English"
            assert any("\u4e00" <= character <= "\u9fff" for character in text["zh"]), f"{mutant.id}: no Chinese"
    for family, title in catalog.families.items():
        assert any("\u4e00" <= character <= "\u9fff" for character in title["zh"]), family


def test_repository_catalog_covers_every_required_family_three_times():
    catalog = load_catalog(REPOSITORY / "mutants", REPOSITORY)
    counts = {family: sum(m.family == family for m in catalog.mutants) for family in catalog.families}
    required = ["episode-split", "trailing-only-drop", "predicate-swap", "leading-thinking-scope"]
    required += ["ordering", "recording", "retry-gate"]
    assert all(counts[family] >= 3 for family in required), counts


def test_select_by_id_alias_and_family():
    catalog = load_catalog(REPOSITORY / "mutants", REPOSITORY)
    assert [m.id for m in catalog.select(["000-M1"])] == ["G1"]
    assert catalog.find("R4-1").id == "G27"
    assert {m.family for m in catalog.select(["retry-gate"])} == {"retry-gate"}
    assert catalog.find("nope") is None
