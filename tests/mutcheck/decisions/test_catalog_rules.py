"""The catalog's rules, one by one: each broken rule is exactly one line naming file, entry and field."""

import json
from pathlib import Path

import pytest

from mutcheck.catalog.catalog import joined_catalogs, load_catalog, unknown_killers
from mutcheck.core.problems import InputError
from tests.mutcheck.decisions.problems import lines_of, problem_lines

LANGUAGES = ("en", "zh")
TEXT = {"en": "t", "zh": "文"}
ENTRY = {
    "id": "A1",
    "family": "gate",
    "file": "src/a.py",
    "scope": "f",
    "match": "x > 0",
    "replace": "x >= 0",
    "killed_by": ["tests/test_a.py::test_x"],
    "origin": "review",
    "title": TEXT,
    "why": TEXT,
}
SOURCE = "mutants/a.toml"


def toml(value: object) -> str:
    """A TOML value (JSON strings are TOML basic strings)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key)} = {toml(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def entry_text(**changes: object) -> str:
    """One [[mutant]] table: ENTRY with `changes` (None removes a key)."""
    table = {key: value for key, value in {**ENTRY, **changes}.items() if value is not None}
    return "[[mutant]]\n" + "".join(f"{key} = {toml(value)}\n" for key, value in table.items())


def write_catalog(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root / "mutants"


def problems(root: Path, files: dict[str, str]) -> list[str]:
    with pytest.raises(InputError) as error:
        load_catalog(write_catalog(root, files), root, LANGUAGES)
    return problem_lines(error.value)


def entry_problems(root: Path, **changes: object) -> list[str]:
    return problems(root, {SOURCE: entry_text(**changes)})


def test_a_valid_entry_loads_with_every_field(tmp_path):
    text = entry_text(hint=TEXT, aliases=["M-1"]) + entry_text(
        id="A2", killed_by=None, survives=TEXT, tracked="#12", replace=None, delete=True
    )
    catalog = load_catalog(write_catalog(tmp_path, {SOURCE: text}), tmp_path, LANGUAGES)
    first, second = catalog.mutants
    assert (first.id, first.family, first.file, first.scope, first.match, first.replace) == (
        "A1",
        "gate",
        "src/a.py",
        "f",
        "x > 0",
        "x >= 0",
    )
    assert (first.killed_by, first.origin, first.title, first.why, first.hint, first.aliases, first.source) == (
        ("tests/test_a.py::test_x",),
        "review",
        TEXT,
        TEXT,
        TEXT,
        ("M-1",),
        SOURCE,
    )
    assert (first.equivalent, first.survives, first.tracked, first.generic) == (None, None, None, False)
    assert (second.replace, second.killed_by, second.survives, second.tracked) == (None, (), TEXT, "#12")
    assert catalog.families == {"gate": {"en": "gate", "zh": "gate"}}  # no families file: titled by id
    assert catalog.find("M-1") is first and catalog.find("A2") is second and catalog.find("gate") is None
    assert catalog.select([]) == [first, second]
    assert catalog.select(["gate"]) == [first, second]
    assert catalog.select(["M-1", "nope"]) == [first]


@pytest.mark.parametrize("field", ["id", "family", "file", "scope", "match", "origin", "title", "why"])
def test_every_required_field_must_be_there(tmp_path, field):
    entry = "entry #1" if field == "id" else "A1"
    assert entry_problems(tmp_path, **{field: None}) == [f"{SOURCE}: {entry}: {field}: missing field"]


def test_an_unknown_key_is_named(tmp_path):
    assert entry_problems(tmp_path, kiled_by=["t"]) == [f"{SOURCE}: A1: kiled_by: unknown key"]


@pytest.mark.parametrize("field", ["family", "file", "scope", "match", "replace", "origin"])
@pytest.mark.parametrize("value", ["", "  ", 3])
def test_a_string_field_must_be_a_non_empty_string(tmp_path, field, value):
    assert entry_problems(tmp_path, **{field: value}) == [f"{SOURCE}: A1: {field}: must be a non-empty string"]


@pytest.mark.parametrize("value", ["", " ", 3])
def test_an_empty_or_non_string_id_names_the_entry_by_its_position(tmp_path, value):
    lines = problems(tmp_path, {SOURCE: entry_text(id="B0") + entry_text(id=value)})
    assert lines == [f"{SOURCE}: entry #2: id: must be a non-empty string"]


@pytest.mark.parametrize("field", ["title", "why", "hint", "survives"])
def test_a_text_must_be_a_table_with_every_language(tmp_path, field):
    extra = {"killed_by": None} if field == "survives" else {}
    assert entry_problems(tmp_path, **{field: "t", **extra}) == [
        f"{SOURCE}: A1: {field}: must be a table with en and zh"
    ]
    assert entry_problems(tmp_path, **{field: {"en": "t"}, **extra}) == [
        f"{SOURCE}: A1: {field}.zh: missing translation"
    ]
    assert entry_problems(tmp_path, **{field: {"en": " ", "zh": 1}, **extra}) == [
        f"{SOURCE}: A1: {field}.en: missing translation",
        f"{SOURCE}: A1: {field}.zh: missing translation",
    ]
    assert entry_problems(tmp_path, **{field: {**TEXT, "fr": "t"}, **extra}) == [
        f"{SOURCE}: A1: {field}.fr: language not in tool.mutcheck.languages (expected en and zh)"
    ]


def test_an_equivalence_proof_is_a_text_too(tmp_path):
    assert entry_problems(tmp_path, killed_by=None, equivalent={"zh": "证"}) == [
        f"{SOURCE}: A1: equivalent.en: missing translation"
    ]


def test_delete_must_be_true_and_exactly_one_of_replace_or_delete(tmp_path):
    assert entry_problems(tmp_path, replace=None, delete=False) == [f"{SOURCE}: A1: delete: must be true when present"]
    assert entry_problems(tmp_path, delete=True) == [f"{SOURCE}: A1: replace: give exactly one of replace or delete"]
    assert entry_problems(tmp_path, replace=None) == [f"{SOURCE}: A1: replace: give exactly one of replace or delete"]


def test_exactly_one_expectation(tmp_path):
    message = f"{SOURCE}: A1: killed_by: give exactly one of killed_by, equivalent or survives"
    assert entry_problems(tmp_path, killed_by=None) == [message]
    assert entry_problems(tmp_path, survives=TEXT) == [message]
    assert entry_problems(tmp_path, killed_by=None, survives=TEXT, equivalent=TEXT) == [message]


def test_killed_by_names_at_least_one_test_by_its_id(tmp_path):
    assert entry_problems(tmp_path, killed_by=[]) == [f"{SOURCE}: A1: killed_by: must name at least one test"]
    assert entry_problems(tmp_path, killed_by="tests/t.py::x") == [
        f"{SOURCE}: A1: killed_by: must be a list of test ids"
    ]
    assert entry_problems(tmp_path, killed_by=["t", 3]) == [f"{SOURCE}: A1: killed_by: must be a list of test ids"]


@pytest.mark.parametrize("tracked", ["#12", "https://example.com/issues/3", "http://tracker/7"])
def test_a_known_gap_is_tracked_by_an_issue_number_or_url(tmp_path, tracked):
    catalog = load_catalog(
        write_catalog(tmp_path, {SOURCE: entry_text(killed_by=None, survives=TEXT, tracked=tracked)}),
        tmp_path,
        LANGUAGES,
    )
    assert catalog.mutants[0].tracked == tracked


@pytest.mark.parametrize("tracked", ["12", "#", "#12 and more", "https://", "ftp://x/1", 12])
def test_anything_else_tracked_is_an_error(tmp_path, tracked):
    assert entry_problems(tmp_path, killed_by=None, survives=TEXT, tracked=tracked) == [
        f"{SOURCE}: A1: tracked: must be an issue as #N or an http(s) URL"
    ]


def test_only_a_known_gap_is_tracked(tmp_path):
    assert entry_problems(tmp_path, tracked="#1") == [f"{SOURCE}: A1: tracked: only a known gap (survives) is tracked"]


def test_only_a_known_gap_awaits_review_and_reviewed_is_a_boolean(tmp_path):
    assert entry_problems(tmp_path, reviewed=False) == [
        f"{SOURCE}: A1: reviewed: only a known gap (survives) awaits review"
    ]
    assert entry_problems(tmp_path, killed_by=None, survives=TEXT, reviewed="no") == [
        f"{SOURCE}: A1: reviewed: must be true or false"
    ]
    catalog = load_catalog(
        write_catalog(tmp_path, {SOURCE: entry_text(killed_by=None, survives=TEXT, reviewed=False)}),
        tmp_path,
        LANGUAGES,
    )
    assert catalog.mutants[0].reviewed is False


def test_a_known_gap_a_person_wrote_is_reviewed(tmp_path):
    """Without the key, a person wrote the gap (or accepted it): it is an expectation as it stands."""
    catalog = load_catalog(
        write_catalog(tmp_path, {SOURCE: entry_text(killed_by=None, survives=TEXT)}), tmp_path, LANGUAGES
    )
    assert catalog.mutants[0].reviewed is True


def test_aliases_are_a_list_of_names(tmp_path):
    assert entry_problems(tmp_path, aliases="M1") == [f"{SOURCE}: A1: aliases: must be a list of strings"]
    assert entry_problems(tmp_path, aliases=["M1", 2]) == [f"{SOURCE}: A1: aliases: must be a list of strings"]
    assert entry_problems(tmp_path, aliases=["ok", "-x", "a b"]) == [
        f"{SOURCE}: A1: aliases: '-x': a name is letters, digits, '.', '_' and '-', starting with a letter or digit",
        f"{SOURCE}: A1: aliases: 'a b': a name is letters, digits, '.', '_' and '-', starting with a letter or digit",
    ]


@pytest.mark.parametrize("value", ["a b", "_x", "x/y", "é"])
def test_an_id_is_a_name(tmp_path, value):
    rule = "a name is letters, digits, '.', '_' and '-', starting with a letter or digit"
    assert entry_problems(tmp_path, id=value) == [f"{SOURCE}: entry #1: id: {value!r}: {rule}"]


def test_the_mutated_file_must_be_inside_the_project(tmp_path):
    (line,) = entry_problems(tmp_path, file="../outside.py")
    assert line.startswith(f"{SOURCE}: A1: file: ") and "outside" in line


def test_ids_and_aliases_are_unique_across_files(tmp_path):
    files = {
        "mutants/a.toml": entry_text(aliases=["X"]),
        "mutants/b.toml": entry_text() + entry_text(id="B2", aliases=["X", "A1b"]) + entry_text(id="X"),
    }
    assert problems(tmp_path, files) == [
        "mutants/b.toml: A1: id: duplicate id 'A1', also in mutants/a.toml",
        "mutants/b.toml: B2: id: duplicate id 'X', also in mutants/a.toml",
        "mutants/b.toml: X: id: duplicate id 'X', also in mutants/a.toml",
    ]


def test_an_entry_with_problems_is_reported_with_all_of_them_at_once(tmp_path):
    lines = entry_problems(tmp_path, scope=None, kind="x", killed_by=[])
    assert lines == [
        f"{SOURCE}: A1: kind: unknown key",
        f"{SOURCE}: A1: scope: missing field",
        f"{SOURCE}: A1: killed_by: must name at least one test",
    ]


def test_a_declared_family_is_required_and_titled_in_every_language(tmp_path):
    families = '[family.gate]\nen = "Gate"\nzh = "门"\n[family.order]\nen = "Order"\nzh = "序"\n'
    files = {"mutants/families.toml": families, SOURCE: entry_text(family="gates")}
    assert problems(tmp_path, files) == [f"{SOURCE}: A1: family: unknown family 'gates' (known: gate, order)"]
    files[SOURCE] = entry_text()
    catalog = load_catalog(write_catalog(tmp_path, files), tmp_path, LANGUAGES)
    assert catalog.families == {
        "gate": {"en": "Gate", "zh": "门"},
        "order": {"en": "Order", "zh": "序"},
    }


def test_the_family_of_the_revert_mutants_is_no_catalog_family_declared_or_not(tmp_path):
    families = '[family.change-guard]\nen = "Guard"\nzh = "守护"\n'
    expected = [f"{SOURCE}: A1: family: 'change-guard' is the family of --revert's mutants"]
    files = {"mutants/families.toml": families, SOURCE: entry_text(family="change-guard")}
    assert problems(tmp_path, files) == expected
    assert problems(tmp_path / "undeclared", {SOURCE: entry_text(family="change-guard")}) == expected


def test_an_empty_families_file_declares_none(tmp_path):
    files = {"mutants/families.toml": "", SOURCE: entry_text()}
    assert problems(tmp_path, files) == [f"{SOURCE}: A1: family: unknown family 'gate' (known: none declared)"]


def test_a_families_file_is_family_tables_titled_in_every_language(tmp_path):
    lines = problems(tmp_path, {"mutants/families.toml": "family = 3\nother = 1\n", SOURCE: entry_text()})
    assert lines == [
        "mutants/families.toml: other: unknown key",
        "mutants/families.toml: family: must be [family.NAME] tables",
        f"{SOURCE}: A1: family: unknown family 'gate' (known: none declared)",
    ]
    lines = problems(tmp_path, {"mutants/families.toml": '[family.gate]\nen = "Gate"\n', SOURCE: entry_text()})
    assert lines == ["mutants/families.toml: gate: title.zh: missing translation"]


def test_a_catalog_file_holds_mutant_tables_only(tmp_path):
    assert problems(tmp_path, {SOURCE: "x = 1\n" + entry_text()}) == [
        f"{SOURCE}: x: unknown key (entries are [[mutant]] tables)"
    ]
    assert problems(tmp_path, {SOURCE: "mutant = 3\n"}) == [f"{SOURCE}: mutant: must be [[mutant]] tables"]
    assert problems(tmp_path, {SOURCE: "mutant = [1]\n"}) == [f"{SOURCE}: mutant: must be [[mutant]] tables"]


def test_a_missing_catalog_folder_is_named(tmp_path):
    with pytest.raises(InputError) as error:
        load_catalog(tmp_path / "mutants", tmp_path, LANGUAGES)
    assert problem_lines(error.value) == ["mutants: catalog directory not found"]


def test_only_toml_files_at_the_top_of_the_folder_are_entries(tmp_path):
    files = {SOURCE: entry_text(), "mutants/notes.md": "x", "mutants/self/b.toml": entry_text(id="B1")}
    catalog = load_catalog(write_catalog(tmp_path, files), tmp_path, LANGUAGES)
    assert [mutant.id for mutant in catalog.mutants] == ["A1"]


def test_an_equivalent_entry_carries_its_proof(tmp_path):
    text = entry_text(killed_by=None, equivalent={"en": "proof", "zh": "证明"})
    (mutant,) = load_catalog(write_catalog(tmp_path, {SOURCE: text}), tmp_path, LANGUAGES).mutants
    assert (mutant.equivalent, mutant.killed_by, mutant.survives) == ({"en": "proof", "zh": "证明"}, (), None)


def test_a_catalog_file_without_entries_adds_none_and_files_after_the_families_file_load(tmp_path):
    families = '[family.gate]\nen = "Gate"\nzh = "门"\n'
    files = {"mutants/a.toml": "# nothing yet\n", "mutants/families.toml": families, "mutants/z.toml": entry_text()}
    catalog = load_catalog(write_catalog(tmp_path, files), tmp_path, LANGUAGES)
    assert [(mutant.id, mutant.source) for mutant in catalog.mutants] == [("A1", "mutants/z.toml")]


def test_toml_syntax_errors_name_the_file(tmp_path):
    lines = problems(tmp_path, {"mutants/families.toml": "[family\n", "mutants/b.toml": "[[mutant]\n"})
    assert [line.split(": ", 1)[0] for line in lines] == ["mutants/families.toml", "mutants/b.toml"]


def test_every_family_s_title_problem_is_reported(tmp_path):
    families = '[family.gate]\nen = "Gate"\n[family.order]\nzh = "序"\n'
    assert problems(tmp_path, {"mutants/families.toml": families, SOURCE: entry_text()}) == [
        "mutants/families.toml: gate: title.zh: missing translation",
        "mutants/families.toml: order: title.en: missing translation",
    ]


def test_entries_without_a_valid_id_never_clash_with_each_other(tmp_path):
    lines = problems(tmp_path, {"mutants/a.toml": entry_text(id=""), "mutants/b.toml": entry_text(id="")})
    assert lines == [
        "mutants/a.toml: entry #1: id: must be a non-empty string",
        "mutants/b.toml: entry #1: id: must be a non-empty string",
    ]


def test_aliases_that_are_not_a_list_take_no_name(tmp_path):
    lines = problems(tmp_path, {SOURCE: entry_text(aliases="XY") + entry_text(id="X")})
    assert lines == [f"{SOURCE}: A1: aliases: must be a list of strings"]


def test_killers_must_be_tests_the_suite_collects(tmp_path):
    text = entry_text(killed_by=["tests/t.py::test_a", "tests/t.py::test_b", "tests/t.py::test_c[2]", "tests/u.py"])
    catalog = load_catalog(write_catalog(tmp_path, {SOURCE: text}), tmp_path, LANGUAGES)
    collected = {"tests/t.py::test_a", "tests/t.py::test_b[1]", "tests/t.py::test_b[2]", "tests/t.py::test_c[1]"}
    assert lines_of(unknown_killers(catalog, collected)) == [
        f"{SOURCE}: A1: killed_by: no such test in the suite: tests/t.py::test_c[2]",
        f"{SOURCE}: A1: killed_by: no such test in the suite: tests/u.py",
    ]
    assert unknown_killers(catalog, collected | {"tests/t.py::test_c[2]", "tests/u.py"}) == []
    nested = {"tests/t.py::test_a", "tests/t.py::test_b[x[1]]", "tests/t.py::test_c[2]", "tests/u.py"}
    assert unknown_killers(catalog, nested) == []  # a parametrization's id may hold brackets itself


def test_mutmuts_copy_of_a_root_file_in_the_catalog_folder_is_set_aside_and_the_rest_loads(tmp_path):
    pyproject = '[project]\nname = "x"\n'
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    files = {SOURCE: entry_text(), "mutants/pyproject.toml": pyproject, "mutants/z.toml": entry_text(id="Z1")}
    catalog = load_catalog(write_catalog(tmp_path, files), tmp_path, LANGUAGES)
    assert catalog.ignored == ("mutants/pyproject.toml",)
    assert [mutant.id for mutant in catalog.mutants] == ["A1", "Z1"]
    assert load_catalog(tmp_path / "mutants", tmp_path, LANGUAGES).mutants == catalog.mutants


def test_a_toml_file_that_only_shares_a_root_file_s_name_is_read_as_a_catalog_file(tmp_path):
    (tmp_path / "a.toml").write_text("# the root's own a.toml\n", encoding="utf-8")
    catalog = load_catalog(write_catalog(tmp_path, {SOURCE: entry_text()}), tmp_path, LANGUAGES)
    assert (catalog.ignored, [mutant.id for mutant in catalog.mutants]) == ((), ["A1"])


def test_a_catalog_folder_that_is_the_root_itself_reads_its_files(tmp_path):
    catalog = load_catalog(write_catalog(tmp_path, {"a.toml": entry_text()}).parent, tmp_path, LANGUAGES)
    assert (catalog.ignored, [mutant.id for mutant in catalog.mutants]) == ((), ["A1"])


def test_several_targets_catalogs_join_in_order_and_agree_on_every_id_and_family(tmp_path):
    gate = '[family.gate]\nen = "Gate"\nzh = "门"\n'
    first = write_catalog(tmp_path, {"mutants/a/families.toml": gate, "mutants/a/a.toml": entry_text(aliases=["X"])})
    write_catalog(tmp_path, {"mutants/b/families.toml": gate + '[family.loop]\nen = "Loop"\nzh = "环"\n'})
    write_catalog(tmp_path, {"mutants/b/b.toml": entry_text(id="B1", family="loop") + entry_text(id="B2")})
    (tmp_path / "mutants/b/pyproject.toml").write_text("[project]\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[project]\n", encoding="utf-8")  # mutmut's copy, ignored
    catalogs = {
        "mutants/a": load_catalog(first / "a", tmp_path, LANGUAGES),
        "mutants/b": load_catalog(first / "b", tmp_path, LANGUAGES),
    }
    joined = joined_catalogs(catalogs)
    assert [mutant.id for mutant in joined.mutants] == ["A1", "B1", "B2"]
    assert joined.families == {"gate": {"en": "Gate", "zh": "门"}, "loop": {"en": "Loop", "zh": "环"}}
    assert joined.ignored == ("mutants/b/pyproject.toml",)
    assert joined.find("X").id == "A1"


def test_an_id_alias_or_family_two_targets_catalogs_use_differently_is_refused(tmp_path):
    root = write_catalog(tmp_path, {"mutants/a/a.toml": entry_text(aliases=["X"])})
    write_catalog(tmp_path, {"mutants/b/b.toml": entry_text(id="X", aliases=["A1"]) + entry_text(id="B2")})
    write_catalog(tmp_path, {"mutants/b/families.toml": '[family.gate]\nen = "Other"\nzh = "别"\n'})
    catalogs = {
        name: load_catalog(root / name.split("/")[1], tmp_path, LANGUAGES) for name in ("mutants/a", "mutants/b")
    }
    with pytest.raises(InputError) as error:
        joined_catalogs(catalogs)
    assert problem_lines(error.value) == [
        "mutants/b/b.toml: X: id: duplicate id 'X', also in mutants/a/a.toml",
        "mutants/b/b.toml: X: id: duplicate id 'A1', also in mutants/a/a.toml",
        "mutants/b/families.toml: gate: family: declared in mutants/a too, with another title: give each its own id",
    ]


ENGLISH = {"en": "t"}
FAMILY_IN_ENGLISH = '[family.gate]\nen = "gate"\n'


def test_a_language_no_entry_has_is_one_line_naming_the_setting_first_and_the_rest_stays(tmp_path):
    files = {
        "mutants/families.toml": FAMILY_IN_ENGLISH,  # its own missing title is its own line
        "mutants/a.toml": entry_text(title=ENGLISH, why=ENGLISH, colour="red"),
        "mutants/b.toml": entry_text(id="B1", match="x < 9", title=ENGLISH, why=ENGLISH),
    }
    assert problems(tmp_path, files) == [
        "pyproject.toml: tool.mutcheck.languages: no catalog entry has a 'zh' text (4 missing, the first "
        'mutants/a.toml: A1: title.zh): write them, or set languages = ["en"] in [tool.mutcheck]',
        "mutants/families.toml: gate: title.zh: missing translation",
        "mutants/a.toml: A1: colour: unknown key",
    ]


def test_a_language_one_file_has_is_a_missing_translation_in_another(tmp_path):
    files = {
        "mutants/a.toml": entry_text(),  # both languages
        "mutants/b.toml": entry_text(id="B1", match="x < 9", title=ENGLISH, why=ENGLISH),  # English alone
    }
    assert problems(tmp_path, files) == [
        "mutants/b.toml: B1: title.zh: missing translation",
        "mutants/b.toml: B1: why.zh: missing translation",
    ]


def test_no_text_in_any_configured_language_is_said_entry_by_entry(tmp_path):
    assert entry_problems(tmp_path, title={"fr": "t"}, why={"fr": "t"}) == [
        "mutants/a.toml: A1: title.en: missing translation",
        "mutants/a.toml: A1: title.zh: missing translation",
        "mutants/a.toml: A1: title.fr: language not in tool.mutcheck.languages (expected en and zh)",
        "mutants/a.toml: A1: why.en: missing translation",
        "mutants/a.toml: A1: why.zh: missing translation",
        "mutants/a.toml: A1: why.fr: language not in tool.mutcheck.languages (expected en and zh)",
    ]
