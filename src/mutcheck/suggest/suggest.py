"""`mutcheck suggest`: proposals applied, no-ops and catalogued edits skipped, one engine run, entries written."""

import ast
import os
from collections import Counter
from collections.abc import Callable, Iterator, Set
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import libcst as cst
from rich.console import Console

from mutcheck.catalog.catalog import FAMILIES_FILE
from mutcheck.catalog.config import Config, load_config
from mutcheck.catalog.options import RunOptions
from mutcheck.catalog.project_catalog import catalog_of
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.project_paths import outside_project
from mutcheck.core.rewrite import read_as_kept, rewrite
from mutcheck.core.source_text import read_source
from mutcheck.core.toml_file import read_toml
from mutcheck.core.verdicts import KILLED, SURVIVED, TIMEOUT
from mutcheck.engine.engine import Prepared
from mutcheck.engine.session import engine_options, run_with_progress
from mutcheck.mutation.mutate import AppliedMutant, MutationError, apply_mutant, file_code_of
from mutcheck.results.build import baseline_section
from mutcheck.results.matrix import MutantResult, build_matrix
from mutcheck.results.model import Baseline
from mutcheck.suggest.entries import (
    entry_table,
    family_tables,
    foreign_content,
    most_specific,
    mutant_of,
    read_previous,
    render,
)
from mutcheck.suggest.operators import Proposal, function_scopes, one_per_line, propose, rank

DUPLICATE = "duplicate"
ARID = "arid"
NOT_APPLICABLE = "not_applicable"


@dataclass(frozen=True)
class SuggestRequest:
    root: Path
    targets: tuple[str, ...]  # each FILE, FILE::SCOPE or FOLDER, relative to the working directory
    out: Path | None  # default: <catalog>/suggested_<stem>.toml
    every: bool  # --all: every proposal, not one per line
    cwd: Path
    profile: str | None = None


@dataclass
class Suggestions:
    """What one `suggest` did: the file and scope, each run proposal's result, the counts per operator."""

    file: str
    scope: str | None
    out: str
    lang: str  # the terminal's language: the first configured
    results: list[MutantResult] = field(default_factory=list)
    proposals: dict[str, Proposal] = field(default_factory=dict)  # by mutant id
    skipped: dict[str, Counter[str]] = field(default_factory=dict)  # operator -> {duplicate, arid, not_applicable}
    written: int = 0
    kept: int = 0
    out_written: bool = False  # False: nothing to write, and no file was made
    families_added: list[str] = field(default_factory=list)
    families_undeclared: list[str] = field(default_factory=list)  # not added: the output is outside the project
    families_file: str = ""  # where they were added, or would be
    baseline: Baseline | None = None  # the results' baseline section, when it failed
    declared_families: dict[str, dict[str, str]] = field(default_factory=dict)  # every target's, by id

    def skip(self, proposal: Proposal, reason: str) -> None:
        self.skipped.setdefault(proposal.operator, Counter())[reason] += 1


def _project_path(root: Path, cwd: Path, given: str, name: str) -> str:
    """A path given on the command line (relative to the working directory) as relative to the root."""
    path = (cwd / given).absolute()
    try:
        relative = str(path.relative_to(root))
    except ValueError:
        relative = given if not Path(given).is_absolute() else str(path)
    if reason := outside_project(root, relative):
        raise InputError([Problem(name, given, "", reason)])
    return relative


def _targets(request: SuggestRequest, config: Config) -> list[tuple[str, str | None, str]]:
    """Each file to suggest for, its scope (None: every function) and its text: a folder gives the
    Python files under it that a target of the project holds; InputError naming what is wrong."""
    chosen: dict[str, tuple[str | None, str]] = {}
    problems = []
    for target in request.targets:
        given, _, scope = target.partition("::")
        place = _project_path(config.root, request.cwd, given, "FILE")
        folder = config.root / place
        if folder.is_dir() and not scope:
            files = [str(path.relative_to(config.root)) for path in sorted(folder.rglob("*.py"))]
            files = [file for file in files if config.holds(file)]
            if not files:
                problems.append(Problem(place, "", "", "holds no Python file of a target of the project"))
        else:
            files = [place]
        for file in (file for file in files if file not in chosen):  # a file given twice is read once
            try:
                chosen[file] = _read_target(config, file, scope or None)
            except InputError as error:
                problems += error.problems
    if problems:
        raise InputError(problems)
    return [(file, scope, text) for file, (scope, text) in chosen.items()]


def _read_target(config: Config, file: str, scope: str | None) -> tuple[str | None, str]:
    path = config.root / file
    if not path.is_file():
        raise InputError([Problem(file, "", "", "no such file")])
    try:
        text, _ = read_source(path)
        scopes = function_scopes(cst.parse_module(text))
    except (SyntaxError, UnicodeDecodeError, cst.ParserSyntaxError) as error:
        message = f"cannot be read as Python source: {str(error).splitlines()[0]}"
        raise InputError([Problem(file, "", "", message)]) from error
    if scope and not any(name == scope or name.startswith(scope + ".") for name in scopes):
        known = ", ".join(scopes) or "none"
        raise InputError([Problem(file, scope, "scope", f"no function or class of that name (known: {known})")])
    return scope, text


def _out(request: SuggestRequest, config: Config, file: str) -> str:
    """The output file: relative to the root inside the project, absolute outside it (a place the
    user chose). It must be one `suggest` owns, and no link may lead it, or the families file
    `suggest` appends to, out of the project: InputError naming the file, before anything runs."""
    families = str((config.catalog_dir / FAMILIES_FILE).relative_to(config.root))
    if request.out is None:
        out = str(Path(config.catalog) / f"suggested_{Path(file).stem}.toml")
        named = Problem(out, "", "", "")
    else:
        path = Path(os.path.abspath(request.cwd / request.out))  # `..` taken lexically: where the user points
        out = str(path.relative_to(config.root)) if path.is_relative_to(config.root) else str(path)
        named = Problem("--out", str(request.out), "", "")
        if not out.endswith(".toml") or Path(out).name == FAMILIES_FILE:
            raise InputError([replace(named, message=f"must be a .toml file other than {FAMILIES_FILE}")])
    for written, problem in ((out, named), (families, Problem(families, "", "", ""))):
        if not Path(written).is_absolute() and (reason := outside_project(config.root, written)):
            raise InputError([replace(problem, message=reason)])
    if foreign := foreign_content(config.root / out, out):
        message = f"holds {foreign}, which rewriting it would lose: name a new file, or one suggest wrote"
        raise InputError([replace(named, message=message)])
    return out


def edit_of(applied: AppliedMutant) -> str:
    """An edit as the catalog compares edits: the mutated file's syntax tree (see `FileCode.edit_key`)."""
    file_code = file_code_of(applied)
    if file_code is None:
        return ast.dump(ast.parse(applied.mutated))
    return file_code.edit_key(applied.span, applied.replacement)


def catalogued(config: Config, file: str, out: str) -> tuple[set[str], set[str]]:
    """The edit of every catalog entry for `file` (the output file's own left out: it is being
    rewritten), and the ids of the entries for other files."""
    catalog = catalog_of(config)
    edits, problems = set(), []
    others = {mutant.id for mutant in catalog.mutants if mutant.file != file}
    for mutant in catalog.mutants:
        if mutant.file == file and mutant.source != out:
            try:
                edits.add(edit_of(apply_mutant(mutant, config.root)))
            except MutationError as error:
                problems.append(error.problem)
    if problems:
        raise InputError(problems)
    return edits, others


def applied_proposals(
    config: Config, file: str, out: str, proposals: list[Proposal], taken: Set[str] = frozenset()
) -> Iterator[tuple[Proposal, AppliedMutant | None]]:
    """Each proposal that is neither arid nor a no-op, applied; None when it does not apply or
    changes no byte code. `taken`: the ids of the catalog's entries for other files."""
    for proposal in proposals:
        if proposal.arid or proposal.no_op:
            continue
        try:
            applied = apply_mutant(mutant_of(proposal, file, out, config.languages, taken), config.root)
        except MutationError:
            yield proposal, None
            continue
        yield proposal, None if applied.equivalent_by_compilation else applied


def _applied(
    config: Config,
    suggestions: Suggestions,
    proposals: list[Proposal],
    every: bool,
    on_progress: Callable[[str, Any], None],
) -> list[AppliedMutant]:
    """Each proposal that applies, changes the byte code (and not only as the syntax shows it
    cannot) and is not in the catalog yet; one per line unless `every`. `on_progress` hears how
    many proposals are applied, and of how many."""
    catalogued_here, taken = catalogued(config, suggestions.file, suggestions.out)
    for proposal in proposals:
        if proposal.arid:
            suggestions.skip(proposal, ARID)
        elif proposal.no_op:
            suggestions.skip(proposal, NOT_APPLICABLE)
    seen: set[str] = set()
    kept: list[tuple[Proposal, AppliedMutant]] = []
    by_rank = sorted(proposals, key=rank)  # of two proposals with one edit, the more guard-like stays
    total = sum(not proposal.arid for proposal in proposals)
    on_progress("applying", (0, total))
    for done, (proposal, applied) in enumerate(
        applied_proposals(config, suggestions.file, suggestions.out, by_rank, taken), 1
    ):
        on_progress("applying", (done, total))
        edit = None if applied is None else edit_of(applied)
        if edit is None or edit in seen:
            suggestions.skip(proposal, NOT_APPLICABLE)
        elif edit in catalogued_here:
            suggestions.skip(proposal, DUPLICATE)
        else:
            seen.add(edit)
            kept.append((proposal, applied))
    if not every:
        best = {id(proposal) for proposal in one_per_line([proposal for proposal, _ in kept])}
        kept = [(proposal, applied) for proposal, applied in kept if id(proposal) in best]
    kept.sort(key=lambda pair: (pair[0].line, rank(pair[0])))
    suggestions.proposals = {applied.mutant.id: proposal for proposal, applied in kept}
    return [applied for _, applied in kept]


def _write(config: Config, suggestions: Suggestions) -> None:
    """The output file: this run's killed and surviving suggestions, with what the user wrote in an
    entry of the same id kept, and the file's entries for other files and scopes as they were."""
    path = config.root / suggestions.out
    previous = read_previous(path, suggestions.out)
    by_id = {table.get("id"): table for table in previous}
    kills = Counter(
        test for result in suggestions.results if result.verdict in (KILLED, TIMEOUT) for test in result.killers
    )
    tables = []
    for result in suggestions.results:
        if result.verdict not in (KILLED, TIMEOUT, SURVIVED):
            continue
        mutant = result.applied.mutant
        killers = most_specific(result.killers, kills) if result.verdict != SURVIVED else None
        tables.append(entry_table(mutant, killers, config.languages, by_id.get(mutant.id), result.killers))
    others = [table for table in previous if not _examined(table, suggestions)]
    if not tables and not path.exists():  # nothing proposed: no empty catalog file left behind
        return
    _declare_families(config, suggestions, {str(table["family"]) for table in tables})
    path.parent.mkdir(parents=True, exist_ok=True)
    rewrite(path, render([*tables, *others]))
    suggestions.written, suggestions.kept, suggestions.out_written = len(tables), len(others), True


def _declare_families(config: Config, suggestions: Suggestions, families: set[str]) -> None:
    """Families the catalog does not declare yet, appended to its families file (when it has one)."""
    path = config.catalog_dir / FAMILIES_FILE
    source = str(path.relative_to(config.root))
    if not path.is_file():
        return
    document, problems = read_toml(path, source)
    if problems:
        raise InputError(problems)
    declared = document.get("family", {})
    missing = sorted(families - set(declared if isinstance(declared, dict) else ()))
    if missing and Path(suggestions.out).is_absolute():  # written outside: the project stays as it is
        suggestions.families_undeclared, suggestions.families_file = missing, source
    elif missing:
        # A family another target declares keeps its title: the joined catalog refuses one id with two.
        rewrite(path, read_as_kept(path) + family_tables(missing, config.languages, suggestions.declared_families))
        suggestions.families_added, suggestions.families_file = missing, source


def _examined(table: dict[str, object], suggestions: Suggestions) -> bool:
    """An entry of the output file for the file and scope this run suggested for (it is replaced)."""
    scope = str(table.get("scope", ""))
    in_scope = suggestions.scope is None or scope == suggestions.scope or scope.startswith(suggestions.scope + ".")
    return table.get("file") == suggestions.file and in_scope


def _prepared(
    config: Config,
    made: list[Suggestions],
    proposals: dict[str, list[Proposal]],
    every: bool,
    on_progress: Callable[[str, Any], None],
) -> Prepared:
    """The mutants of one engine run: each file's applied proposals, file after file."""
    return Prepared(
        [mutant for one in made for mutant in _applied(config, one, proposals[one.file], every, on_progress)]
    )


def suggest(request: SuggestRequest, console: Console) -> tuple[list[Suggestions], ExitCode]:
    """Propose, run and write, one engine run per target for all its files: the suggestions of
    each file and the exit status (a failing baseline stops it)."""
    project = load_config(request.root, profile=request.profile)
    chosen = _targets(request, project)
    if request.out is not None and len(chosen) > 1:
        message = f"names one catalog file, and {len(chosen)} files were given: leave --out out, or give one FILE"
        raise InputError([Problem("--out", str(request.out), "", message)])
    groups: dict[str, tuple[Config, list[Suggestions]]] = {}  # by the catalog of the target that holds the file
    texts = {}
    for file, scope, text in chosen:
        config = project.target_of(file)  # its tests run it, its catalog gets the entries
        made = groups.setdefault(config.catalog, (config, []))[1]
        made.append(Suggestions(file, scope, _out(request, config, file), project.languages[0]))
        texts[file] = text
    declared = dict(catalog_of(project).families)  # every target's
    everything = [suggestions for _, made in groups.values() for suggestions in made]
    for config, made in groups.values():
        for suggestions in made:
            suggestions.declared_families = declared
        proposals = {one.file: propose(texts[one.file], one.scope) for one in made}

        prepare = partial(_prepared, config, made, proposals, request.every)
        files = [one.file for one in made]
        engine_run, prepared = run_with_progress(config, files, prepare, engine_options(RunOptions.of(config)), console)
        matrix = build_matrix(engine_run, prepared.mutants, bail=False)
        if not matrix.baseline_ok:
            made[0].baseline = baseline_section(engine_run)
            return everything[: everything.index(made[0]) + 1], ExitCode.BASELINE_FAILED
        for suggestions in made:
            suggestions.results = [r for r in matrix.results if r.applied.mutant.file == suggestions.file]
            _write(config, suggestions)
    return everything, ExitCode.OK
