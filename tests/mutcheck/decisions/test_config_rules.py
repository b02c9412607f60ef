"""`[tool.mutcheck]` and its profiles: each bad setting is one line naming where it was given."""

import os
from pathlib import Path

import pytest

from mutcheck.catalog.config import load_config
from mutcheck.core.problems import InputError
from tests.mutcheck.decisions.problems import problem_lines


def project(root: Path, text: str) -> Path:
    root.mkdir(exist_ok=True)
    (root / "pyproject.toml").write_text(text, encoding="utf-8")
    for folder in ("src", "tests", "other", "mutants/self"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    return root


def config_problems(root: Path, overrides: dict | None = None, profile: str | None = None) -> list[str]:
    with pytest.raises(InputError) as error:
        load_config(root, overrides, profile)
    return problem_lines(error.value)


PROFILES = """
[tool.mutcheck]
tests = ["tests"]
jobs = 1

[tool.mutcheck.profile.self]
catalog = "mutants/self"
tests = ["other"]
timeout_factor = 2.5

[tool.mutcheck.profile.quick]
baseline_rounds = 2
"""


def test_a_profile_s_keys_apply_over_the_table_and_options_over_both(tmp_path):
    root = project(tmp_path, PROFILES)
    plain = load_config(root)
    assert (plain.catalog, plain.tests, plain.timeout_factor, plain.profile) == ("mutants", ("tests",), 5.0, None)
    chosen = load_config(root, {"timeout_factor": 9.0, "jobs": None}, "self")
    assert (chosen.catalog, chosen.tests, chosen.jobs, chosen.profile) == ("mutants/self", ("other",), 1, "self")
    assert chosen.timeout_factor == 9.0
    assert chosen.catalog_dir == root / "mutants/self"
    assert load_config(root, profile="quick").baseline_rounds == 2


def test_a_profile_s_jobs_are_capped_at_the_cpu_count_like_the_table_s(tmp_path):
    root = project(tmp_path, "[tool.mutcheck]\n[tool.mutcheck.profile.wide]\njobs = 100000\n")
    assert load_config(root, profile="wide").jobs == os.cpu_count()
    assert load_config(root, {"jobs": 100000}, "wide").jobs == 100000


def test_an_unknown_profile_names_the_known_ones(tmp_path):
    root = project(tmp_path, PROFILES)
    assert config_problems(root, profile="slef") == [
        "--profile: slef: no [tool.mutcheck.profile.slef] in pyproject.toml (known: quick, self)"
    ]
    bare = project(tmp_path / "bare", "[tool.mutcheck]\n")
    assert config_problems(bare, profile="self") == [
        "--profile: self: no [tool.mutcheck.profile.self] in pyproject.toml (known: none)"
    ]


def test_a_bad_setting_in_a_profile_is_named_by_the_profile_chosen_or_not(tmp_path):
    root = project(tmp_path, PROFILES.replace("baseline_rounds = 2", "baseline_rounds = 0\ncolour = 1"))
    expected = [
        "pyproject.toml: tool.mutcheck.profile.quick.baseline_rounds: must be positive",
        "pyproject.toml: tool.mutcheck.profile.quick.colour: unknown key",
    ]
    assert config_problems(root) == expected
    assert config_problems(root, profile="self") == expected
    assert config_problems(root, profile="quick") == expected


def test_profiles_must_be_tables(tmp_path):
    root = project(tmp_path, "[tool.mutcheck]\nprofile = 3\n")
    assert config_problems(root) == ["pyproject.toml: tool.mutcheck.profile: must be a table of tables"]
    root = project(tmp_path, "[tool.mutcheck.profile]\nself = 3\n")
    assert config_problems(root) == ["pyproject.toml: tool.mutcheck.profile.self: must be a table"]


def test_an_option_given_on_the_command_line_is_named_as_the_option(tmp_path):
    root = project(tmp_path, "[tool.mutcheck]\n")
    assert config_problems(root, {"timeout_factor": float("inf")}) == ["--timeout-factor: must be a finite number"]
    assert config_problems(root, {"baseline_rounds": 0}) == ["--baseline-rounds: must be positive"]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("jobs = 0", "tool.mutcheck.jobs: must be positive"),
        ("jobs = -2", "tool.mutcheck.jobs: must be positive"),
        ("jobs = true", "tool.mutcheck.jobs: must be an integer"),
        ("timeout_factor = -1", "tool.mutcheck.timeout_factor: must not be negative"),
        ("timeout_constant = nan", "tool.mutcheck.timeout_constant: must be a finite number"),
        ("timeout_constant = true", "tool.mutcheck.timeout_constant: must be a number"),
        ("generic = 1", "tool.mutcheck.generic: must be true or false"),
        ("strict_generic = 'yes'", "tool.mutcheck.strict_generic: must be true or false"),
        ('tests = ["missing"]', "tool.mutcheck.tests: no such file or directory: 'missing'"),
        ('target = "src/nope.py"', "tool.mutcheck.target: no such file or directory: 'src/nope.py'"),
        ('pytest_args = ["-x\\u0000"]', "tool.mutcheck.pytest_args: must not contain a NUL character"),
        ('pytest_args = "-x"', None),
        ('tests = ["tests::test_a"]', None),
        ("timeout_factor = 0", None),
    ],
)
def test_each_setting_is_checked(tmp_path, setting, message):
    root = project(tmp_path, f"[tool.mutcheck]\n{setting}\n")
    if message is None:
        load_config(root)
        return
    assert config_problems(root) == [f"pyproject.toml: {message}"]


def test_every_test_has_a_time_limit(tmp_path):
    root = project(tmp_path, "[tool.mutcheck]\ntimeout_factor = 0\ntimeout_constant = 0\n")
    message = "timeout_factor and timeout_constant are both 0: every test would time out"
    assert config_problems(root) == [f"pyproject.toml: tool.mutcheck.timeout_constant: {message}"]
    assert config_problems(root, {"timeout_constant": 0.0}) == [f"--timeout-constant: {message}"]
    assert load_config(root, {"timeout_constant": 0.5}).timeout_constant == 0.5


def test_settings_are_held_as_their_kinds(tmp_path):
    root = project(tmp_path, '[tool.mutcheck]\njobs = 2.0\ntimeout_factor = 3\npytest_args = "-q"\ntarget = "src"\n')
    config = load_config(root)
    assert (config.jobs, type(config.jobs), config.timeout_factor, type(config.timeout_factor)) == (2, int, 3.0, float)
    assert (config.pytest_args, config.target) == (("-q",), ("src",))


def test_an_unknown_profile_is_reported_with_every_other_problem(tmp_path):
    root = project(tmp_path, "[tool.mutcheck]\njobs = 0\n[tool.mutcheck.profile.ci]\ncolour = 1\n")
    assert config_problems(root, profile="cd") == [
        "--profile: cd: no [tool.mutcheck.profile.cd] in pyproject.toml (known: ci)",
        "pyproject.toml: tool.mutcheck.profile.ci.colour: unknown key",
        "pyproject.toml: tool.mutcheck.jobs: must be positive",
    ]
