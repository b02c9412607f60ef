"""The results of a run as types: every section of the results file, read from its JSON and written
back as it; the schema stays the file's format, these are what every reader and writer handles."""

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from mutcheck.core.line_reach import LineReach
from mutcheck.core.reuse_words import NOT_STORED
from mutcheck.core.source_text import Span
from mutcheck.core.verdicts import Unmet

FORMAT = "mutcheck-results"
VERSION = 1

Text = dict[str, str]  # a text in each language of the run


@dataclass(frozen=True)
class CopyFacts:
    files: int
    bytes: int
    seconds: float


@dataclass(frozen=True)
class ControlFacts:
    runs: int
    tests: int


@dataclass(frozen=True)
class RunFacts:
    """What was run, where and how long it took (see the schema's `run` for each field)."""

    mutcheck_version: str
    python: str
    head_sha: str | None
    catalog_digest: str
    seconds: float
    mutant_phase_seconds: float
    jobs: int
    bail: bool
    baseline_rounds: int
    shard: str | None
    only: list[str]
    diff_base: str | None
    generic: bool
    # Fields version 1 gained later: their defaults are what a file written before them means.
    ci: bool = False
    uncommitted_changes: bool | None = None
    revert_base: str | None = None
    strict_generic: bool = False
    languages: list[str] = field(default_factory=lambda: ["en", "zh"])
    targets: list[str] = field(default_factory=list)  # several targets' names; empty: one target
    chosen_targets: list[str] = field(default_factory=list)  # --target's names; empty: every target
    timings: dict[str, float] | None = None  # None: not recorded (an older file, or a merge of one)
    copy: CopyFacts | None = None
    controls: ControlFacts | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "RunFacts":
        """A fact this version does not know (the schema allows more, as a newer version writes) is left out."""
        copy, controls = data.get("copy"), data.get("controls")
        return cls(
            **{
                **_known(cls, data),
                "copy": CopyFacts(**_known(CopyFacts, copy)) if copy is not None else None,
                "controls": ControlFacts(**_known(ControlFacts, controls)) if controls is not None else None,
            }
        )

    def to_json(self) -> dict[str, Any]:
        # A fact not recorded is left out: the schema has no null for it; one target names none.
        data = {key: value for key, value in asdict(self).items() if value is not None or key in _NULLABLE_RUN_FACTS}
        for key in ("targets", "chosen_targets"):
            if not data[key]:
                del data[key]
        return data


def _known(kind: type, data: dict[str, Any]) -> dict[str, Any]:
    names = {each.name for each in fields(kind)}
    return {key: value for key, value in data.items() if key in names}


_NULLABLE_RUN_FACTS = {"head_sha", "shard", "diff_base", "uncommitted_changes", "revert_base"}


@dataclass(frozen=True)
class BaselineFailure:
    test: str
    outcome: str
    witness: str | None


@dataclass(frozen=True)
class Baseline:
    """The unmutated suite: whether it passed, and what failed, flaked or depended on order."""

    ok: bool
    rounds: int
    durations: list[float]
    failures: list[BaselineFailure]
    flaky: list[str]
    collection_error: str | None
    order_dependent: list[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Baseline":
        return cls(**{**data, "failures": [BaselineFailure(**failure) for failure in data["failures"]]})


@dataclass(frozen=True)
class Fallback:
    """Why a mutant could not be swapped into the live functions, and the test that showed it."""

    reason: str
    test: str | None
    where: str | None = None  # "copy": a fresh host in a copy of the project; "fork": one the fork server made


@dataclass(frozen=True)
class Reused:
    """What the reuse store said of a mutant, test by test: `reused` when every test's outcome was
    taken from it (evidence unchanged); else `ran` names each test that ran again and what changed
    for it (`changed`: all of that), and `kept` counts the tests whose outcomes were taken.
    `source`: the commit of the run compared with (JSON: `from`)."""

    reused: bool
    source: str | None
    changed: list[str]
    ran: dict[str, list[str]] = field(default_factory=dict)
    kept: int = 0

    def to_json(self) -> dict[str, Any]:
        data = {"reused": self.reused, "from": self.source, "changed": list(self.changed)}
        return data | {"ran": {test: list(why) for test, why in self.ran.items()}, "kept": self.kept}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Reused":
        return cls(data["reused"], data["from"], data["changed"], data.get("ran", {}), data.get("kept", 0))


@dataclass(frozen=True)
class Hardened:
    """A test `mutcheck harden` wrote and proved for a survivor: its node id, the file it went to,
    and its source (imports and function) as a reviewer would paste it."""

    test: str
    file: str
    source: str


@dataclass(frozen=True)
class MutantEntry:
    """One mutant of the run: what it changed, what the catalog expects, and what the tests said.
    `outcomes` and `witnesses` are keyed by the test's index in `Results.tests`."""

    id: str
    order: int
    generic: bool
    operator: str | None
    aliases: list[str]
    family: str
    file: str
    scope: str
    span: Span
    diff: str
    origin: str
    title: Text
    why: Text
    hint: Text | None
    equivalent: Text | None
    killed_by: list[str]
    path: str
    verdict: str
    expectation_met: bool
    problems: list[Unmet]
    killers: list[str]
    selected: list[int]
    outcomes: dict[int, str]
    witnesses: dict[int, str]
    seconds: float
    time_limit: float
    # Fields version 1 gained later, as above.
    revert: bool = False
    replacement: str | None = None  # None: not recorded (a file written before it)
    survives: Text | None = None
    tracked: str | None = None
    reviewed: bool = True
    broken: str | None = None
    fallback: Fallback | None = None
    target: str | None = None  # when the run had several targets
    reuse: Reused | None = None  # None: the run consulted no store (--fresh, or a file written before it)
    hardened: Hardened | None = None  # set by `mutcheck harden --results`
    line_reach: LineReach | None = None  # None: not seen (then `selected` stands in), or a file written before it

    @property
    def reached(self) -> list[int]:
        """The tests that ran its code: its own lines where those were seen, else its function."""
        return self.line_reach.tests if self.line_reach is not None else self.selected

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "MutantEntry":
        fallback, reuse, hardened = data.get("fallback"), data.get("reuse"), data.get("hardened")
        line_reach = data.get("line_reach")
        return cls(
            **{
                **data,
                "line_reach": LineReach(**line_reach) if line_reach is not None else None,
                "reuse": Reused.from_json(reuse) if reuse else None,
                "hardened": Hardened(**hardened) if hardened else None,
                "span": Span(**data["span"]),
                "problems": [Unmet(**problem) for problem in data["problems"]],
                "outcomes": {int(index): outcome for index, outcome in data["outcomes"].items()},
                "witnesses": {int(index): witness for index, witness in data["witnesses"].items()},
                "fallback": Fallback(**fallback) if fallback is not None else None,
            }
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["outcomes"] = {str(index): outcome for index, outcome in sorted(self.outcomes.items())}
        data["witnesses"] = {str(index): witness for index, witness in sorted(self.witnesses.items())}
        data["reuse"] = self.reuse.to_json() if self.reuse else None
        if self.fallback is not None and self.fallback.where is None:  # a file written before the field
            del data["fallback"]["where"]
        # not recorded, a run of one target, no store consulted, no test written for it, lines not seen
        for key in ("replacement", "target", "reuse", "hardened", "line_reach"):
            if data[key] is None:
                del data[key]
        return data

    @property
    def known_gap(self) -> bool:
        """Catalogued with `survives`, and it did survive (or no test reached it), as expected."""
        return self.survives is not None and self.expectation_met

    @property
    def unreviewed_gap(self) -> bool:
        """A gap `mutcheck suggest` found that no person has accepted yet (it survived, as proposed)."""
        return any(problem.kind == "unreviewed-gap" for problem in self.problems)

    def has_problem(self, kind: str) -> bool:
        return any(problem.kind == kind for problem in self.problems)


@dataclass(frozen=True)
class GenericSummary:
    mutants: int
    verdicts: dict[str, int]


@dataclass(frozen=True)
class Summary:
    """Counts for the catalog's mutants, generic operator mutants apart, and the run's exit status."""

    mutants: int
    verdicts: dict[str, int]
    generic: GenericSummary
    expectations_unmet: int
    exit_code: int
    known_gaps: int = 0
    unreviewed_gaps: int = 0
    drifted: int = 0
    reused: int = 0  # mutants whose stored outcomes were reused, every one of their tests', generic ones too
    reused_tests: int = 0  # tests (of all mutants) whose stored outcome under a mutant was reused
    reuse_considered: int = 0  # tests (of all mutants) the store was asked about

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Summary":
        return cls(**{**data, "generic": GenericSummary(**data["generic"])})


def reused_from_store(results: "Results") -> bool:
    """Whether the run found earlier outcomes of any of its mutants in the reuse store (a first
    run, or one with --fresh, found none: it has nothing to say of reuse)."""
    return any(mutant.reuse is not None and mutant.reuse.changed != [NOT_STORED] for mutant in results.mutants)


@dataclass(frozen=True)
class SkippedHunk:
    """A hunk of the change with no revert mutant, and why."""

    id: str
    file: str
    first_line: int
    line_count: int
    reason: str
    diff: str
    reverted_with: str | None


@dataclass(frozen=True)
class ChangeGuard:
    """What `--revert BASE` compared, the hunks it skipped, and what each test that fails with the
    whole change reverted asserts (one line each)."""

    base: str
    merge_base: str
    files: list[str]
    skipped: list[SkippedHunk]
    about: dict[str, str]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ChangeGuard":
        return cls(**{**data, "skipped": [SkippedHunk(**hunk) for hunk in data["skipped"]]})


@dataclass(frozen=True)
class Proposal:
    """The fields that would make a drifted entry apply again (`replace` None: a deletion)."""

    scope: str
    match: str
    replace: str | None


@dataclass(frozen=True)
class DriftEntry:
    """A catalog entry the change moved away from: why it no longer applies, and its proposal."""

    id: str
    source: str
    file: str
    scope: str
    title: Text
    field: str
    message: str
    diff: str
    proposal: Proposal | None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "DriftEntry":
        proposal = data["proposal"]
        return cls(**{**data, "proposal": Proposal(**proposal) if proposal is not None else None})


@dataclass(frozen=True)
class Results:
    """One run's results (or merged shards'): the document every reporter, `merge`, `comment` and
    the saved state read."""

    run: RunFacts
    tests: list[str]
    baseline: Baseline
    families: dict[str, Text]
    sources: dict[str, str]
    mutants: list[MutantEntry]
    summary: Summary
    change_guard: ChangeGuard | None = None
    drift: list[DriftEntry] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Results":
        """From a document the schema accepted."""
        guard = data.get("change_guard")
        return cls(
            run=RunFacts.from_json(data["run"]),
            tests=list(data["tests"]),
            baseline=Baseline.from_json(data["baseline"]),
            families=dict(data["families"]),
            sources=dict(data["sources"]),
            mutants=[MutantEntry.from_json(mutant) for mutant in data["mutants"]],
            summary=Summary.from_json(data["summary"]),
            change_guard=ChangeGuard.from_json(guard) if guard is not None else None,
            drift=[DriftEntry.from_json(entry) for entry in data.get("drift", [])],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "run": self.run.to_json(),
            "tests": self.tests,
            "baseline": asdict(self.baseline),
            "families": self.families,
            "sources": self.sources,
            "mutants": [mutant.to_json() for mutant in self.mutants],
            "summary": asdict(self.summary),
            "change_guard": asdict(self.change_guard) if self.change_guard is not None else None,
            "drift": [asdict(entry) for entry in self.drift],
        }

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages the run's texts are written in, the first one leading every report."""
        return tuple(self.run.languages)

    @property
    def catalogued(self) -> list[MutantEntry]:
        """The catalog's mutants (and the change's reverts), generic operator mutants left out."""
        return [mutant for mutant in self.mutants if not mutant.generic]
