"""A run's options, resolved once: what the command line asked for over the project's configuration.
Every field is marked by what it can change (see `setting_kind`); what is made from them — the
configuration's overrides, the settings every reuse key takes, a whole run's request, the results'
run facts, the engine's options — takes them by kind, never from a list written out by hand."""

import os
from dataclasses import asdict, dataclass, is_dataclass
from pathlib import Path
from typing import Any

from mutcheck.catalog.config import Config, load_config
from mutcheck.catalog.setting_kind import CHOICE, CONFIGURED, OUTCOME, PLACE, setting, settings_of


@dataclass(frozen=True)
class RunRequest:
    """What the command line asked for; None leaves a setting to the configuration."""

    root: Path = setting(PLACE)
    profile: str | None = setting(PLACE, None)
    only: tuple[str, ...] = setting(CHOICE, ())
    diff_base: str | None = setting(CHOICE, None)
    revert_base: str | None = setting(CHOICE, None)
    shard: str | None = setting(CHOICE, None)
    bail: bool = setting(OUTCOME, False)
    generic: bool | None = setting(CONFIGURED, None)
    strict_generic: bool | None = setting(CONFIGURED, None)
    jobs: int | None = setting(CONFIGURED, None)
    timeout_factor: float | None = setting(CONFIGURED, None)
    timeout_constant: float | None = setting(CONFIGURED, None)
    baseline_rounds: int | None = setting(CONFIGURED, None)
    json_path: Path | None = setting(PLACE, None)
    markdown_path: Path | None = setting(PLACE, None)
    html_path: Path | None = setting(PLACE, None)
    stryker_path: Path | None = setting(PLACE, None)
    chosen_targets: tuple[str, ...] = setting(CHOICE, ())  # --target: only these of the project's targets
    fresh: bool = setting(PLACE, False)  # --fresh: reuse no stored outcome (the run still keeps its own)

    def config(self) -> Config:
        """The project's configuration, this request's values over it (see `load_config`)."""
        return load_config(self.root, settings_of(self, CONFIGURED), self.profile)


def _plain(value: Any) -> Any:
    """A setting as JSON holds it: tuples as lists, a target's table as a mapping, a path as text."""
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if is_dataclass(value) and not isinstance(value, type):
        return _plain(asdict(value))
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return str(value) if isinstance(value, Path) else value


@dataclass(frozen=True)
class RunOptions:
    """One target's run: its configuration (the command line's values applied) and the request."""

    config: Config
    request: RunRequest

    @classmethod
    def of(cls, config: Config) -> "RunOptions":
        """A run of `config` with nothing asked on the command line (`suggest`'s and `harden`'s)."""
        return cls(config, RunRequest(config.root, config.profile))

    @property
    def jobs(self) -> int:
        """How many workers run mutants (the configuration's 0: one per CPU)."""
        return self.config.jobs or os.cpu_count() or 1

    def outcomes(self) -> dict[str, Any]:
        """Every setting that can change a test's outcome under a mutant: every reuse key takes them."""
        return _plain({**settings_of(self.config, OUTCOME), **settings_of(self.request, OUTCOME)})

    def choices(self) -> dict[str, Any]:
        """Every setting that chooses the mutants or what the results say, the worker count resolved:
        a run taken whole had the same."""
        return _plain({**settings_of(self.config, CHOICE), **settings_of(self.request, CHOICE), "jobs": self.jobs})

    def settings(self) -> dict[str, Any]:
        """Every setting a result can depend on, by name (the results' run facts name theirs so)."""
        return {**self.outcomes(), **self.choices()}
