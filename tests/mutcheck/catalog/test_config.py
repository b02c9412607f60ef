"""`[tool.mutcheck]`: defaults, overrides, and a clear error per bad key."""

import pytest

from mutcheck.catalog.config import find_project_root, load_config
from mutcheck.core.problems import InputError


def write(tmp_path, table: str):
    (tmp_path / "pyproject.toml").write_text(f"[tool.mutcheck]\n{table}\n", encoding="utf-8")
    return tmp_path


def test_defaults_and_overrides(tmp_path):
    (tmp_path / "t").mkdir()
    config = load_config(write(tmp_path, 'tests = "t"\njobs = 3'), {"jobs": 1, "baseline_rounds": None})
    assert config.tests == ("t",)
    assert config.jobs == 1
    assert config.baseline_rounds == 1
    assert config.catalog_dir == tmp_path / "mutants"
    assert config.languages == ("en", "zh")


def test_languages_are_configurable(tmp_path):
    assert load_config(write(tmp_path, 'languages = ["en"]')).languages == ("en",)
    assert load_config(write(tmp_path, 'languages = ["zh", "en"]')).languages == ("zh", "en")


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("colour = 1", "pyproject.toml: tool.mutcheck.colour: unknown key"),
        ("jobs = 1.5", "pyproject.toml: tool.mutcheck.jobs: must be an integer"),
        ('timeout_factor = "x"', "pyproject.toml: tool.mutcheck.timeout_factor: must be a number"),
        ("baseline_rounds = 0", "pyproject.toml: tool.mutcheck.baseline_rounds: must be positive"),
        ("tests = [1]", "pyproject.toml: tool.mutcheck.tests: must be a string or a list of strings"),
        ("catalog = 3", "pyproject.toml: tool.mutcheck.catalog: must be a string"),
        ("jobs = ", "pyproject.toml: not valid TOML"),
        ("languages = []", "pyproject.toml: tool.mutcheck.languages: must be a non-empty list of language codes"),
        ('languages = "en"', "pyproject.toml: tool.mutcheck.languages: must be a non-empty list of language codes"),
        ('languages = ["en", "fr"]', "pyproject.toml: tool.mutcheck.languages: unknown language 'fr' (known: en, zh)"),
        ('languages = ["en", "en"]', "pyproject.toml: tool.mutcheck.languages: 'en' is listed twice"),
    ],
)
def test_bad_values_name_the_key(tmp_path, table, message):
    with pytest.raises(InputError) as raised:
        load_config(write(tmp_path, table))
    assert str(raised.value).startswith(message)


def test_project_root_is_found_upwards(tmp_path):
    write(tmp_path, "")
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    assert find_project_root(nested) == tmp_path


def test_missing_project_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match=r"no pyproject\.toml here or in any parent"):
        find_project_root(tmp_path)
