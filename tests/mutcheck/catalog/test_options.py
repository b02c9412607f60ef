"""A run's options: every setting marked by what it can change, and each one reaching what its mark
says — the reuse key's settings, a whole run's request, the run facts — and nothing else."""

import os
import shutil
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import pytest

from mutcheck.catalog.config import Config, Target
from mutcheck.catalog.options import RunOptions, RunRequest
from mutcheck.catalog.setting_kind import CHOICE, CONFIGURED, OUTCOME, PLACE, kind_of, setting, settings_of
from mutcheck.results.model import RunFacts
from mutcheck.reuse.key import run_key
from mutcheck.reuse.whole import request_digest


def _project(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "mutants").mkdir()
    (root / "mutants/a.toml").write_text("# no entry\n", encoding="utf-8")
    (root / "pyproject.toml").write_text('[tool.mutcheck]\ntarget = ["src"]\n', encoding="utf-8")
    return root


def _other(value: object, name: str) -> object:
    """A value of the same type as `value`, different from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, Path):
        return value / "elsewhere"
    if isinstance(value, str):
        return value + "-other"
    if isinstance(value, tuple):
        return (*value, Target("extra", ("src",), ("tests",), "more")) if name == "targets" else (*value, "other")
    assert value is None, f"{name}: no other value for {value!r}"
    return "other"


def test_every_setting_of_the_configuration_and_the_command_line_is_marked():
    for settings in (Config, RunRequest):
        kinds = {each.name: kind_of(each) for each in fields(settings)}
        assert set(kinds.values()) <= {OUTCOME, CHOICE, PLACE, CONFIGURED}
    configured = {each.name for each in fields(RunRequest) if kind_of(each) == CONFIGURED}
    assert configured <= {each.name for each in fields(Config)}  # each one overrides the field of its name
    assert {"timeout_factor", "jobs", "generic"} <= configured


def test_a_setting_added_without_a_mark_is_refused_by_name():
    @dataclass(frozen=True)
    class Settings:
        marked: int = setting(OUTCOME, 1)
        forgotten: int = 2
        wrongly: int = field(default=3, metadata={"kind": "sometimes"})

    with pytest.raises(TypeError, match="'forgotten' has no kind"):
        settings_of(Settings(), OUTCOME)
    with pytest.raises(ValueError, match="unknown setting kind 'sometimes'"):
        setting("sometimes", 1)


@pytest.mark.parametrize("name", [each.name for each in fields(Config)])
def test_a_configuration_setting_reaches_what_its_mark_says(tmp_path, name):
    config = Config(root=_project(tmp_path / "project"), jobs=2)
    before = RunOptions(config, RunRequest(config.root))
    other = _other(getattr(config, name), name)
    if name == "root":  # the same project elsewhere: no result depends on where it lies
        other = shutil.copytree(config.root, tmp_path / "elsewhere")
    changed = RunOptions(replace(config, **{name: other}), before.request)
    _reaches_by_kind(before, changed, kind_of(next(each for each in fields(Config) if each.name == name)))


@pytest.mark.parametrize("name", [each.name for each in fields(RunRequest) if kind_of(each) != CONFIGURED])
def test_a_command_line_setting_reaches_what_its_mark_says(tmp_path, name):
    request = RunRequest(_project(tmp_path))
    before = RunOptions(Config(root=tmp_path, jobs=2), request)
    changed = replace(before, request=replace(request, **{name: _other(getattr(request, name), name)}))
    _reaches_by_kind(before, changed, kind_of(next(each for each in fields(RunRequest) if each.name == name)))


def _reaches_by_kind(before: RunOptions, changed: RunOptions, kind: str) -> None:
    environment = dict(os.environ)
    key, other_key = run_key(before, environment), run_key(changed, environment)
    if kind == OUTCOME:
        assert changed.outcomes() != before.outcomes() and changed.choices() == before.choices()
        assert other_key["settings"] != key["settings"]
    elif kind == CHOICE:
        assert changed.choices() != before.choices() and changed.outcomes() == before.outcomes()
        assert other_key["settings"] == key["settings"]
    else:
        assert changed.settings() == before.settings()
        assert other_key["settings"] == key["settings"]
    # a whole run is taken only with the same choices (the outcomes reach it through the key)
    assert (request_digest(changed) != request_digest(before)) == (kind == CHOICE)


def test_the_command_line_overrides_the_configuration_and_reaches_by_the_configuration_s_mark(tmp_path):
    request = RunRequest(_project(tmp_path), timeout_factor=9.0, generic=True, jobs=1)
    config = request.config()
    assert (config.timeout_factor, config.generic, config.jobs) == (9.0, True, 1)
    plain = RunOptions(RunRequest(tmp_path).config(), RunRequest(tmp_path))
    given = RunOptions(config, request)
    assert given.outcomes()["timeout_factor"] == 9.0 != plain.outcomes()["timeout_factor"]
    assert given.choices()["generic"] is True and plain.choices()["generic"] is False


def test_the_run_facts_take_the_run_s_settings_of_their_names(tmp_path):
    request = RunRequest(_project(tmp_path), only=("B1",), chosen_targets=(), shard="1/2", bail=True)
    options = RunOptions(Config(root=tmp_path, jobs=0, baseline_rounds=2, languages=("zh", "en")), request)
    settings = options.settings()
    facts = {each.name for each in fields(RunFacts)} & set(settings)
    assert {"jobs", "bail", "baseline_rounds", "shard", "only", "diff_base", "revert_base"} <= facts
    assert {"generic", "strict_generic", "languages", "chosen_targets"} <= facts
    assert settings["jobs"] == (os.cpu_count() or 1)  # 0 in the configuration: one worker per CPU
    assert (settings["only"], settings["bail"], settings["baseline_rounds"]) == (["B1"], True, 2)
    assert settings["languages"] == ["zh", "en"]


def test_suggest_and_harden_runs_take_the_configuration_as_it_stands(tmp_path):
    config = Config(root=_project(tmp_path), timeout_constant=3.0, profile="quick")
    options = RunOptions.of(config)
    assert options.request == RunRequest(tmp_path, "quick")
    assert options.outcomes()["timeout_constant"] == 3.0 and options.outcomes()["bail"] is False
