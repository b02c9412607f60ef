"""`mutcheck harden`: each surviving mutant's reaching tests recorded, the calls replayed on the mutant,
a witness written as a test, the test proven, kept, and (asked) named in the catalog."""

import dataclasses
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
from rich.console import Console

from mutcheck.catalog.catalog import Mutant
from mutcheck.catalog.catalog_edit import Edits, edit_catalog_file
from mutcheck.catalog.config import Config, load_config
from mutcheck.catalog.options import RunOptions
from mutcheck.catalog.project_catalog import catalog_of
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.module_scope import MODULE_SCOPE
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.project_paths import outside_project
from mutcheck.core.rewrite import read_as_kept, rewrite
from mutcheck.core.verdicts import NO_COVERAGE, SURVIVED
from mutcheck.engine.engine import Prepared
from mutcheck.engine.session import engine_options, run_with_progress
from mutcheck.harden.child_process import ChildFailed, Lab, run_child
from mutcheck.harden.proof import fails_in_checkout, mutant_in, prove
from mutcheck.harden.tests_file import merged_file, ours
from mutcheck.harden.variations import donors, edit_constants, novel, variations
from mutcheck.harden.wire import (
    RECORD,
    REPLAY,
    TOO_LARGE,
    Call,
    ChildSpec,
    Located,
    Observed,
    RecordAnswer,
    ReplayAnswer,
)
from mutcheck.harden.witness import (
    NOT_REPRODUCED,
    RECORDED,
    SAME,
    TWO_CHANGES,
    UNBUILDABLE,
    UNFINISHED,
    UNSTEADY,
    UNWRITABLE_RESULT,
    VARIATION,
    Witness,
    without_places,
    witnesses,
)
from mutcheck.harden.witness_source import WrittenTest, same_checks, snippet, write_test
from mutcheck.mutation.mutate import AppliedMutant, MutationError, apply_mutant
from mutcheck.report.terminal import baseline_failures
from mutcheck.results.build import baseline_section
from mutcheck.results.matrix import MutantResult, build_matrix
from mutcheck.results.model import Hardened
from mutcheck.results.results import load_results, rewrite_results
from mutcheck.sandbox.lab import scratch_folder
from mutcheck.sandbox.scratch import copy_project

HARDENED, GAVE_UP, NOT_A_SURVIVOR = "hardened", "gave-up", "not-a-survivor"
EQUIVALENT_IN_PRACTICE = "equivalent-in-practice"
_SEED = 1  # the replays' string hashing: fixed, so the original's first replay and the mutant's agree on it
# recorded calls never compared (the first is the recording child's): while one is left, the mutant
# is not called equivalent in practice
_UNTRIED = (
    "an argument cannot be written as source",
    TOO_LARGE,
    UNWRITABLE_RESULT,
    UNBUILDABLE,
    UNSTEADY,
    NOT_REPRODUCED,
    UNFINISHED,
)
_RECORD_TIMEOUT = 600.0
_REPLAY_TIMEOUT = 120.0  # and _REPLAY_PER_CALL more for each call of the batch
_REPLAY_PER_CALL = 0.1
_CALL_LIMIT = 5.0  # one replayed call's: a mutant that loops forever is left, the batch goes on
_ORIGINS = {
    RECORDED: "a recorded call",
    VARIATION: "a variation of a recorded call",
    TWO_CHANGES: "a recorded call with two changes",
}
PLACED = "it holds a path of the scratch copy or the checkout, or a memory address"
_PROVEN_TRIES = 3  # witnesses written and proven per mutant before giving up on it
_ENTRIES = 3  # the functions the tests reached a mutated function through, most used first, tried


@dataclass(frozen=True)
class HardenRequest:
    root: Path
    ids: tuple[str, ...]
    all_survivors: bool
    out: Path  # as given, relative to `cwd`
    update_catalog: bool
    cwd: Path
    profile: str | None = None
    results: Path | None = None  # a results document whose survivors gain the tests written for them


@dataclass
class Hardening:
    """What `harden` did for one mutant."""

    id: str
    status: str  # HARDENED, GAVE_UP, EQUIVALENT_IN_PRACTICE or NOT_A_SURVIVOR
    reason: str
    test: str | None = None  # the kept test's node id
    witness: str = ""  # what tells the mutant apart: "a recorded call: its result"
    calls: int = 0  # recorded calls replayed
    variations: int = 0
    calls_scope: bool = False  # its reaching tests call the mutated function (by its name)
    written: WrittenTest | None = field(default=None, repr=False)


def _out(request: HardenRequest, config: Config) -> str:
    """The tests file, relative to the root: a .py file in the project that is new or `harden`'s own."""
    path = Path(os.path.abspath(request.cwd / request.out))
    given = ("--out", str(request.out), "")
    if path.suffix != ".py" or not path.is_relative_to(config.root):
        raise InputError([Problem(*given, "must be a .py file inside the project")])
    out = str(path.relative_to(config.root))
    if request.update_catalog and not any(_under(out, tests) for one in config.each_target() for tests in one.tests):
        message = "with --update-catalog, must be under the suite's tests (it names the test in the catalog)"
        raise InputError([Problem(*given, f"{message}: {', '.join(config.tests)}")])
    if reason := outside_project(config.root, out):
        raise InputError([Problem(*given, reason)])
    if path.exists():
        text = path.read_text(encoding="utf-8", errors="replace")
        if not ours(text):
            message = "holds code harden did not write, which it never rewrites: name a new file, or one harden wrote"
            raise InputError([Problem(*given, message)])
        try:
            cst.parse_module(text)
        except cst.ParserSyntaxError as error:  # its tests are kept by parsing it
            raise InputError([Problem(*given, f"does not parse (line {error.raw_line}): mend it first")]) from error
    return out


def _under(path: str, folder: str) -> bool:
    """Whether a relative path is `folder` or inside it (a test path may name a file)."""
    return Path(path) == Path(folder) or Path(folder) in Path(path).parents


def _selected(request: HardenRequest, config: Config) -> list[Mutant]:
    catalog = catalog_of(config)
    if request.all_survivors:
        return [mutant for mutant in catalog.mutants if mutant.survives is not None and not mutant.generic]
    problems, found = [], []
    for name in request.ids:
        mutant = catalog.find(name)
        if mutant is None:
            problems.append(Problem("harden", name, "", "no mutant with this id or alias"))
        elif mutant.revert:
            problems.append(Problem(mutant.source, mutant.id, "", "a revert mutant: harden works on catalog entries"))
        elif mutant not in found:
            found.append(mutant)
    if problems:
        raise InputError(problems)
    return found


def _summary(skipped: Counter[str]) -> str:
    return "; ".join(f"{reason} ({count}×)" for reason, count in skipped.most_common(3))


class _Hardener:
    def __init__(self, lab: Lab, config: Config, out: str) -> None:
        self.lab, self.config, self.out = lab, config, out
        self.previous = read_as_kept(config.root / out) if (config.root / out).is_file() else None
        self.kept: list[WrittenTest] = []
        # what differs where the test will live: a value holding one of these would not hold there
        folders = (lab.folder, lab.root)
        self.places = tuple(sorted({str(path) for folder in folders for path in (folder, folder.resolve())}))

    def _write(self) -> None:
        """The tests file in the project: what it held, and every test proven so far (written whole, then moved)."""
        path = self.config.root / self.out
        if not self.kept and self.previous is None:  # the one test written was taken back: no file
            path.unlink(missing_ok=True)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        rewrite(path, merged_file(self.previous, self.kept))

    def _replays(
        self, located: Located, calls: list[Call], applied: AppliedMutant
    ) -> tuple[list[list[Observed]], list[list[Observed]]]:
        """Each call made twice on the original (the lines it ran traced the first time) and once on
        the mutant; what each did. The mutant's replay hashes strings as the original's first one
        does, so a set's order is no difference between them; the original's second replay hashes
        them otherwise, so a result that depends on that order is seen to change."""
        spec = ChildSpec(REPLAY, [], located=located, calls=calls, rounds=1, call_limit=_CALL_LIMIT)
        timeout = _REPLAY_TIMEOUT + _REPLAY_PER_CALL * len(calls)
        first = run_child(self.lab, dataclasses.replace(spec, trace=True), ReplayAnswer, timeout, hash_seed=_SEED)
        second = run_child(self.lab, spec, ReplayAnswer, timeout, hash_seed=_SEED + 1)
        with mutant_in(self.lab, applied):
            mutants = run_child(self.lab, spec, ReplayAnswer, timeout, hash_seed=_SEED)
        for answer in (first, second, mutants):
            if answer.refused is not None:
                raise ChildFailed(answer.refused)
        originals = [one + other for one, other in zip(first.observed, second.observed, strict=True)]
        return originals, mutants.observed

    def harden(self, result: MutantResult, tests: list[str]) -> Hardening:
        """A witness among the tests' calls of the mutated function; failing one, where not every call
        could be compared, among their calls of the module's functions they reached it through."""
        applied = result.applied
        hardening = Hardening(applied.mutant.id, GAVE_UP, "")
        if not tests:
            hardening.reason = "no test reaches it: there is nothing to record"
            return hardening
        # A nested function is called through the function around it: its calls carry the mutant's effect
        called = applied.scope_qualname.split(".<locals>.")[0]
        line = applied.original.count("\n", 0, applied.edited_range()[0]) + 1  # a property's getter, or not
        entries = self._through(hardening, applied, tests, called, line)
        if hardening.status != GAVE_UP:
            return hardening
        for entry, _count in entries.most_common(_ENTRIES):
            attempt = Hardening(hardening.id, GAVE_UP, "")
            self._through(attempt, applied, tests, entry, None)  # a property read on the way: its getter
            if attempt.status == HARDENED:
                attempt.witness += f", through {entry}, which calls {called}"
                attempt.calls_scope = hardening.calls_scope
                return attempt
            hardening.reason += f"; through {entry}: {attempt.reason}"
        return hardening

    def _through(
        self, hardening: Hardening, applied: AppliedMutant, tests: list[str], called: str, line: int | None
    ) -> Counter[str]:
        """`hardening` decided by the tests' calls of `called` (its status, reason and test); the
        module's functions through which they reached it, with how often. `line`: the mutant's, which
        picks a property's getter or refuses its setter (None: any getter)."""
        file = str(self.lab.project / applied.mutant.file)
        spec = ChildSpec(RECORD, tests, file=file, qualname=called, line=line)
        try:
            recorded = run_child(self.lab, spec, RecordAnswer, _RECORD_TIMEOUT)
        except ChildFailed as error:
            hardening.reason = f"recording its tests {error}"
            return Counter()
        if recorded.refused:
            hardening.reason = f"{called}: {recorded.refused}"
            return Counter()
        entries, calls, skipped = Counter(recorded.entries), recorded.calls, Counter(recorded.skipped)
        hardening.calls, hardening.calls_scope = len(calls), bool(calls) or bool(skipped)
        if not calls:
            hardening.reason = _summary(skipped) or f"its tests never call {called} by its name"
            return entries
        located = recorded.located
        assert located is not None, "a call is recorded only once the function was located"
        try:
            found, of_recorded = self._search(hardening, located, calls, applied, skipped)
        except ChildFailed as error:
            hardening.reason = f"replaying its calls {error}"
            return entries
        if not found:
            hardening.status = without_witness(of_recorded, skipped)
            hardening.reason = f"{len(calls)} recorded calls, {hardening.variations} variations: " + _summary(skipped)
            return entries
        self._proven(hardening, applied, located, found)
        return entries

    def _search(
        self,
        hardening: Hardening,
        located: Located,
        calls: list[Call],
        applied: AppliedMutant,
        skipped: Counter[str],
    ) -> tuple[list[Witness], Counter[str]]:
        """The witnesses among the recorded calls; failing those, among their variations; failing
        those, among second changes to the variations that ran lines their recorded call did not.
        Also why each recorded call (not a variation) was no witness."""
        found, lines = self._witnesses(located, calls, applied, RECORDED, skipped)
        of_recorded = Counter(skipped)
        if found:
            return found, of_recorded
        constants = edit_constants(applied.original[slice(*applied.edited_range())], applied.replacement)
        pool = donors(calls)
        varied = variations(calls, *constants, pool=pool)
        hardening.variations = len(varied)
        if not varied:
            return [], of_recorded
        found, varied_lines = self._witnesses(located, varied, applied, VARIATION, skipped)
        bases = novel(varied, varied_lines, lines)
        if found or not bases:
            return found, of_recorded
        again = variations(bases, *constants, pool=pool, known=[*calls, *varied])
        hardening.variations += len(again)
        return (self._witnesses(located, again, applied, TWO_CHANGES, skipped)[0] if again else []), of_recorded

    def _witnesses(
        self,
        located: Located,
        calls: list[Call],
        applied: AppliedMutant,
        origin: str,
        skipped: Counter[str],
    ) -> tuple[list[Witness], list[list[int]]]:
        """The witnesses among `calls`, and the lines each ran on the original."""
        originals, mutants = self._replays(located, calls, applied)
        lines = [rounds[0].get("lines", []) for rounds in originals]
        found = []
        for witness in witnesses(calls, originals, mutants, origin, skipped):
            placed = without_places(witness, self.places)
            if placed is None:
                skipped[PLACED] += 1
            else:
                found.append(placed)
        return found, lines

    def _proven(
        self, hardening: Hardening, applied: AppliedMutant, located: Located, found: list[Witness]
    ) -> Hardening:
        reasons = []
        for witness in found[:_PROVEN_TRIES]:
            written = write_test(applied.mutant, self.config.languages, located, witness)
            # a test this run kept for another mutant that checks the same is proven against this one, not repeated
            twin = next((kept for kept in self.kept if same_checks(kept, written)), None)
            candidate, tests = (twin, self.kept) if twin else (written, [*self.kept, written])
            nodeid, why_not = prove(self.lab, applied, self.out, merged_file(self.previous, tests), candidate.name)
            if nodeid and twin is None:
                self.kept.append(written)
                self._write()  # at once: an interrupted harden keeps every test it proved
                if failed := fails_in_checkout(self.lab, nodeid):
                    self.kept.pop()
                    self._write()
                    reasons.append(f"{written.name}, in the checkout: {failed}")
                    continue
            if nodeid:
                call = _ORIGINS[witness.origin]
                hardening.status, hardening.test, hardening.written = HARDENED, nodeid, candidate
                hardening.witness = f"{call}: {', '.join(witness.differs)} differs"
                hardening.witness += "; the test written for another mutant checks the same" if twin else ""
                return hardening
            reasons.append(why_not)
        hardening.reason = f"{len(reasons)} written tests did not prove: {reasons[0]}"
        return hardening


def without_witness(of_recorded: Counter[str], skipped: Counter[str]) -> str:
    """A survivor's status when no call told it apart (`of_recorded`: why each recorded call was none;
    `skipped`: why each recorded or varied call was none): equivalent in practice only when every
    recorded call was compared, none held a place, and the mutant did the same; else given up. A
    variation left uncompared (its result not written) was an input no test gave, and blocks nothing."""
    untried = any(reason.startswith(_UNTRIED) for reason in of_recorded) or skipped[PLACED]
    return EQUIVALENT_IN_PRACTICE if of_recorded[SAME] and not untried else GAVE_UP


def _update_catalog(config: Config, mutants: dict[str, Mutant], hardenings: list[Hardening]) -> None:
    """Each hardened gap's entry: `survives` (and what goes with it) replaced by `killed_by` its test."""
    by_file: dict[str, Edits] = {}
    for hardening in hardenings:
        mutant = mutants[hardening.id]
        if hardening.status == HARDENED and mutant.survives is not None and hardening.test:
            edits = {"survives": None, "tracked": None, "reviewed": None, "killed_by": [hardening.test]}
            by_file.setdefault(mutant.source, {})[mutant.id] = edits
    for source, edits in by_file.items():
        edit_catalog_file(config.root, source, edits)


def harden(request: HardenRequest, console: Console) -> tuple[list[Hardening], ExitCode]:
    """Every selected mutant hardened where it can be; the tests kept written to `--out`."""
    config = load_config(request.root, profile=request.profile)
    out = _out(request, config)
    mutants = _selected(request, config)
    problems, applied = [], []
    for mutant in mutants:
        try:
            applied.append(apply_mutant(mutant, config.root))
        except MutationError as error:
            problems.append(error.problem)
    if problems:
        raise InputError(problems)
    hardenings: list[Hardening] = []
    for one in applied:  # what cannot be recorded is said before any test runs, and not run
        if reason := _known_refusal(one):
            hardenings.append(Hardening(one.mutant.id, GAVE_UP, f"{reason} (known before any test ran)"))
            console.print(line_of(hardenings[-1]), highlight=False, markup=False, soft_wrap=True)
    refused = {hardening.id for hardening in hardenings}
    code = ExitCode.OK
    by_target: dict[Path, list[AppliedMutant]] = {}
    for one in applied:
        if one.mutant.id not in refused:
            by_target.setdefault(config.target_of(one.mutant.file).catalog_dir, []).append(one)
    with scratch_folder() as folder:
        project = folder / "project"
        copy_project(config.root, project)
        for group in by_target.values():
            target = config.target_of(group[0].mutant.file)
            files = sorted({one.mutant.file for one in group})
            engine_run, prepared = run_with_progress(
                target,
                files,
                lambda _progress, group=group: Prepared(group),
                engine_options(RunOptions.of(target)),
                console,
            )
            matrix = build_matrix(engine_run, prepared.mutants, bail=False)
            if not matrix.baseline_ok:  # the targets before it keep what they proved, in the catalog too
                console.print(
                    f"the suite of {', '.join(target.tests)} does not pass without any mutant: nothing to record"
                )
                baseline_failures(baseline_section(engine_run), target.languages[0], console)
                code = ExitCode.BASELINE_FAILED
                break
            lab = Lab(folder, project, config.root, target.pytest_args)
            hardener = _Hardener(lab, target, out)
            for result in matrix.results:
                hardenings.append(_one(hardener, result, engine_run.tests, console))
    survivors = [hardening for hardening in hardenings if hardening.status != NOT_A_SURVIVOR]
    gave_up = any(one.status == GAVE_UP for one in survivors)
    if code == ExitCode.OK and gave_up and not any(one.status == HARDENED for one in survivors):
        code = ExitCode.EXPECTATION_FAILED  # each survivor still needs a test a person writes
    if request.update_catalog:
        _update_catalog(config, {mutant.id: mutant for mutant in mutants}, hardenings)
    if request.results is not None:
        _annotate(request.results, out, hardenings)
    return hardenings, code


def _known_refusal(applied: AppliedMutant) -> str:
    """Why a mutant cannot be hardened, when its code says so before anything runs; "" when it may be."""
    mutant = applied.mutant
    if mutant.scope == MODULE_SCOPE or applied.writes:
        return "module-level code: there is no call of a function to record"
    return ""


def _annotate(path: Path, out: str, hardenings: list[Hardening]) -> None:
    """Each hardened mutant's entry in the results document gains its test (the comment offers it)."""
    proven = {
        hardening.id: Hardened(hardening.test, out, snippet(hardening.written))
        for hardening in hardenings
        if hardening.written is not None and hardening.test is not None
    }
    results = load_results(path)
    mutants = [
        dataclasses.replace(entry, hardened=proven[entry.id]) if entry.id in proven else entry
        for entry in results.mutants
    ]
    rewrite_results(path, dataclasses.replace(results, mutants=mutants))


def _one(hardener: _Hardener, result: MutantResult, tests: list[str], console: Console) -> Hardening:
    mutant = result.applied.mutant
    # one whose lines no test ran is still worth varying the tests that run its function
    if result.verdict != SURVIVED and not (result.verdict == NO_COVERAGE and result.run.selected):
        killers = f", first {result.killers[0]}" if result.killers else ""
        hardening = Hardening(mutant.id, NOT_A_SURVIVOR, f"{result.verdict} in this run{killers}")
    else:
        hardening = hardener.harden(result, [tests[index] for index in result.run.selected])
    console.print(line_of(hardening), highlight=False, markup=False, soft_wrap=True)
    return hardening


def line_of(hardening: Hardening) -> str:
    if hardening.status == HARDENED:
        return f"hardened: {hardening.id}  by {hardening.test} ({hardening.witness})"
    return f"{hardening.status}: {hardening.id}  {hardening.reason}"


def summary_line(hardenings: list[Hardening], out: str) -> str:
    survivors = [hardening for hardening in hardenings if hardening.status != NOT_A_SURVIVOR]
    hardened = sum(hardening.status == HARDENED for hardening in survivors)
    equivalent = sum(hardening.status == EQUIVALENT_IN_PRACTICE for hardening in survivors)
    calling = [hardening for hardening in survivors if hardening.calls_scope]
    hardened_calling = sum(hardening.status == HARDENED for hardening in calling)
    share = f", {hardened_calling} of the {len(calling)} whose tests call the mutated function" if calling else ""
    written = f"; the tests are in {out}" if hardened else ""
    return (
        f"hardened {hardened} of {len(survivors)} survivors{share}; {equivalent} equivalent in practice, "
        f"{len(survivors) - hardened - equivalent} gave up{written}"
    )
