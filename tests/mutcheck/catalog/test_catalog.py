"""Catalog loading and `mutcheck check`: every problem is named by file, entry id and field."""

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from mutcheck.catalog.catalog import load_catalog
from mutcheck.catalog.config import load_config
from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from tests.mutcheck.engine_project import ENGLISH_ONLY, GOOD_ENTRY, english_project, entry, make_project
from tests.mutcheck.paths import REPOSITORY

CATALOG_FILE = "mutants/catalog.toml"
LANGUAGES = ("en", "zh")  # the default of [tool.mutcheck] languages, which this repository uses


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
            f"{CATALOG_FILE}: B1: killed_by: give exactly one of killed_by, equivalent or survives",
        ),
        (
            entry(killed_by=None),
            f"{CATALOG_FILE}: B1: killed_by: give exactly one of killed_by, equivalent or survives",
        ),
        (entry(replace=None), f"{CATALOG_FILE}: B1: replace: give exactly one of replace or delete"),
        (entry(title='{ en = "only english" }'), f"{CATALOG_FILE}: B1: title.zh: missing translation"),
        (entry(why='{ en = "why", zh = "" }'), f"{CATALOG_FILE}: B1: why.zh: missing translation"),
        (
            entry(why='{ en = "why", zh = "原因", fr = "x" }'),
            f"{CATALOG_FILE}: B1: why.fr: language not in tool.mutcheck.languages (expected en and zh)",
        ),
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
    assert "3 problems found" in output


def test_without_a_families_file_a_family_is_titled_by_its_id(tmp_path):
    project = make_project(tmp_path)
    (project / "mutants/families.toml").unlink()
    code, output = check(project)
    assert code == ExitCode.OK, output
    assert "1 mutants in 1 families" in output
    catalog = load_catalog(project / "mutants", project, LANGUAGES)
    assert catalog.families == {"boundary": {"en": "boundary", "zh": "boundary"}}


GAP = '{ en = "no test looks at the low bound yet", zh = "尚无测试检查下界" }'


def test_a_known_gap_loads_with_its_reason_and_tracking_issue(tmp_path):
    project = make_project(tmp_path, entry(killed_by=None, survives=GAP, tracked='"#12"'))
    code, output = check(project)
    assert code == ExitCode.OK, output
    (mutant,) = load_catalog(project / "mutants", project, LANGUAGES).mutants
    assert mutant.survives == {"en": "no test looks at the low bound yet", "zh": "尚无测试检查下界"}
    assert (mutant.tracked, mutant.killed_by, mutant.equivalent) == ("#12", (), None)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"survives": GAP}, "B1: killed_by: give exactly one of killed_by, equivalent or survives"),
        (
            {"killed_by": None, "survives": GAP, "equivalent": '{ en = "p", zh = "证" }'},
            "B1: killed_by: give exactly one of killed_by, equivalent or survives",
        ),
        ({"killed_by": None, "survives": '{ en = "reason" }'}, "B1: survives.zh: missing translation"),
        ({"killed_by": None, "survives": '"reason"'}, "B1: survives: must be a table with en and zh"),
        (
            {"killed_by": None, "survives": GAP, "tracked": '"issue 12"'},
            "B1: tracked: must be an issue as #N or an http(s) URL",
        ),
        (
            {"killed_by": None, "survives": GAP, "tracked": '"javascript:alert(1)"'},
            "B1: tracked: must be an issue as #N or an http(s) URL",
        ),
        ({"killed_by": None, "survives": GAP, "tracked": "12"}, "B1: tracked: must be an issue as #N or an"),
        ({"tracked": '"#12"'}, "B1: tracked: only a known gap (survives) is tracked"),
    ],
)
def test_broken_known_gap_names_its_field(tmp_path, fields, expected):
    code, output = check(make_project(tmp_path, entry(**fields)))
    assert code == ExitCode.USAGE
    assert f"error: {CATALOG_FILE}: {expected}" in output


@pytest.mark.parametrize("tracked", ["#7832", "https://github.com/owner/repo/issues/7832", "http://tracker.test/7"])
def test_tracked_accepts_an_issue_number_or_a_web_address(tmp_path, tracked):
    code, output = check(make_project(tmp_path, entry(killed_by=None, survives=GAP, tracked=f'"{tracked}"')))
    assert code == ExitCode.OK, output


def test_configured_languages_are_the_ones_every_text_needs(tmp_path):
    project = english_project(tmp_path)
    code, output = check(project)
    assert code == ExitCode.OK, output
    catalog = load_catalog(project / "mutants", project, ("en",))
    assert catalog.mutants[0].title == {"en": "low bound inclusive"}
    assert catalog.families == {"boundary": {"en": "boundary"}}


@pytest.mark.parametrize(
    ("catalog", "expected"),
    [
        (
            entry(title='{ en = "low bound inclusive", zh = "下界包含" }', why='{ en = "why" }'),
            f"{CATALOG_FILE}: B1: title.zh: language not in tool.mutcheck.languages (expected en)",
        ),
        (
            entry(title='{ en = "t" }', why='{ en = "why" }', hint='{ en = "h", zh = "提示" }'),
            f"{CATALOG_FILE}: B1: hint.zh: language not in tool.mutcheck.languages (expected en)",
        ),
        (
            entry(title='{ zh = "下界包含" }', why='{ en = "why" }'),
            f"{CATALOG_FILE}: B1: title.en: missing translation",
        ),
    ],
)
def test_a_text_in_a_language_not_configured_is_an_error(tmp_path, catalog, expected):
    code, output = check(english_project(tmp_path, catalog))
    assert code == ExitCode.USAGE
    assert f"error: {expected}" in output


def test_declared_families_follow_the_configured_languages(tmp_path):
    project = english_project(tmp_path)
    (project / "mutants/families.toml").write_text('[family.boundary]\nen = "bounds"\nzh = "边界"\n')
    code, output = check(project)
    assert code == ExitCode.USAGE
    assert "mutants/families.toml: boundary: title.zh: language not in tool.mutcheck.languages" in output


def test_family_without_chinese_title_is_reported(tmp_path):
    code, output = check(make_project(tmp_path, families='[family.boundary]\nen = "boundary"\n'))
    assert code == ExitCode.USAGE
    assert "mutants/families.toml: boundary: title.zh: missing translation" in output


def test_a_catalog_written_without_a_configured_language_is_one_problem_naming_the_setting(tmp_path):
    second = ENGLISH_ONLY.replace('id = "B1"', 'id = "B2"').replace('"value > low"', '"value != low"')
    code, output = check(make_project(tmp_path, ENGLISH_ONLY + "\n" + second))
    assert code == ExitCode.USAGE
    assert output.splitlines() == [
        "error: pyproject.toml: tool.mutcheck.languages: no catalog entry has a 'zh' text (4 missing, the first "
        f'{CATALOG_FILE}: B1: title.zh): write them, or set languages = ["en"] in [tool.mutcheck]'
    ]


def test_a_language_some_entries_have_is_a_missing_translation_where_it_is_missing(tmp_path):
    code, output = check(make_project(tmp_path, GOOD_ENTRY + "\n" + ENGLISH_ONLY.replace('id = "B1"', 'id = "B2"')))
    assert code == ExitCode.USAGE
    assert f"{CATALOG_FILE}: B2: title.zh: missing translation" in output and "languages =" not in output


def test_killed_by_mutant_that_compiles_identically_is_reported(tmp_path):
    code, output = check(make_project(tmp_path, entry(match='"value > high"', replace='"(value > high)"')))
    assert code == ExitCode.USAGE
    assert "B1: replace: rejected" in output


def test_repository_catalog_checks():
    code, output = check(REPOSITORY)
    assert code == ExitCode.OK, output


def _assert_bilingual(text: dict[str, str], where: str) -> None:
    assert set(text) == set(LANGUAGES), where
    assert text["zh"] != text["en"], f"{where}: Chinese text is a copy of the English"
    assert any("\u4e00" <= character <= "\u9fff" for character in text["zh"]), f"{where}: no Chinese"


REPOSITORY_TABLE = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["tool"]["mutcheck"]
REPOSITORY_CATALOGS = [("target", name) for name in REPOSITORY_TABLE["targets"]]
REPOSITORY_CATALOGS += [("profile", name) for name in REPOSITORY_TABLE["profile"]]


@pytest.mark.parametrize(("kind", "name"), REPOSITORY_CATALOGS)
def test_repository_catalog_is_fully_bilingual(kind, name):
    """Every catalog the repository configures (each target's and each profile's), every text of every entry."""
    if kind == "target":
        config = load_config(REPOSITORY).chosen_targets((name,)).each_target()[0]
    else:
        config = load_config(REPOSITORY, profile=name)
    catalog = load_catalog(config.catalog_dir, REPOSITORY, config.languages)
    assert config.languages == LANGUAGES and len(catalog.mutants) >= 50
    for mutant in catalog.mutants:
        for field in ("title", "why", "hint", "equivalent", "survives"):
            if text := getattr(mutant, field):
                _assert_bilingual(text, f"{mutant.id}.{field}")
    for family, title in catalog.families.items():
        _assert_bilingual(title, family)


def test_repository_catalog_covers_every_required_family_three_times():
    catalog = load_catalog(REPOSITORY / "mutants", REPOSITORY, LANGUAGES)
    counts = {family: sum(m.family == family for m in catalog.mutants) for family in catalog.families}
    required = ["episode-split", "trailing-only-drop", "predicate-swap", "leading-thinking-scope"]
    required += ["ordering", "recording", "retry-gate"]
    assert all(counts[family] >= 3 for family in required), counts


def test_select_by_id_alias_and_family():
    catalog = load_catalog(REPOSITORY / "mutants", REPOSITORY, LANGUAGES)
    assert [m.id for m in catalog.select(["G1"])] == [m.id for m in catalog.select(["000-M1"])] == ["G1"]
    assert catalog.find("R4-1").id == "G27"
    assert [m.id for m in catalog.select(["retry-gate"])] == ["R1", "R2", "R3", "EQ8", "R5", "R6", "R7"]
    assert [m.id for m in catalog.select(["G27", "retry-gate", "000-M1"])] == [
        m.id for m in catalog.mutants if m.id in ("G1", "G27") or m.family == "retry-gate"
    ]
    assert catalog.find("nope") is None
