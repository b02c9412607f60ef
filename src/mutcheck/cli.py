"""The `mutcheck` command line: parse, call, exit."""

import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape

from mutcheck import STARTED, __version__
from mutcheck.catalog import Catalog, Mutant, load_catalog, unknown_killers
from mutcheck.collect import collect_test_ids
from mutcheck.config import Config, find_project_root, load_config
from mutcheck.engine import EngineOptions, run_engine
from mutcheck.exit_code import ExitCode
from mutcheck.plan import Shard, changed_entries, changed_lines, in_diff
from mutcheck.problems import InputError, Problem

if TYPE_CHECKING:
    from rich.progress import Progress

    from mutcheck.mutate import AppliedMutant

# LibCST, jsonschema, Jinja2 and the reports load inside the commands that use them: `run`
# starts the pytest host first, and they load while it starts.

project_option = click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Project directory (default: the nearest one with a pyproject.toml).",
)


def _reports_input_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Print every configuration or catalog problem and exit 2."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except InputError as error:
            for problem in error.problems:
                click.echo(f"error: {problem}", err=True)
            click.echo(f"{len(error.problems)} problem(s) found", err=True)
            sys.exit(ExitCode.USAGE)

    return wrapper


def _config(project: Path | None) -> Config:
    return load_config(find_project_root((project or Path.cwd()).resolve()))


def _console() -> Console:
    """Rich on a terminal; wide, plain lines in logs (CI) so tables are not squeezed to 80 columns."""
    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=160)


def _catalog(config: Config) -> Catalog:
    return load_catalog(config.catalog_dir, config.root, config.languages)


@click.group()
@click.version_option(__version__, prog_name="mutcheck")
def main() -> None:
    """Guard-mutation testing: which tests kill which catalogued mutant."""


def _expectation(mutant: Mutant) -> str:
    if mutant.equivalent:
        return "equivalent"
    return "known gap" if mutant.survives else f"killed by {len(mutant.killed_by)}"


@main.command("list")
@click.option("--family", "families", multiple=True, help="Only these families (repeatable).")
@project_option
@_reports_input_errors
def list_command(families: tuple[str, ...], project: Path | None) -> None:
    """List the catalog: id, family, location and expectation."""
    from rich.table import Table

    catalog = _catalog(_config(project))
    table = Table("id", "family", "location", "expectation", box=None, pad_edge=False)
    for mutant in catalog.mutants:
        if families and mutant.family not in families:
            continue
        table.add_row(mutant.id, mutant.family, f"{mutant.file}::{mutant.scope}", _expectation(mutant))
    Console(width=200).print(table)


@main.command()
@click.argument("mutant_id")
@click.option("--lang", help="A language of [tool.mutcheck] languages (default: the first).")
@project_option
@_reports_input_errors
def show(mutant_id: str, lang: str | None, project: Path | None) -> None:
    """Show one mutant: its diff and why it matters."""
    from rich.syntax import Syntax

    from mutcheck.mutate import MutationError, apply_mutant

    config = _config(project)
    if lang is not None and lang not in config.languages:
        message = f"not in tool.mutcheck.languages ({', '.join(config.languages)})"
        raise InputError([Problem("--lang", lang, "", message)])
    lang = lang or config.languages[0]
    catalog = _catalog(config)
    mutant = catalog.find(mutant_id)
    if mutant is None:
        raise InputError([Problem(str(config.catalog), mutant_id, "id", "no mutant with this id or alias")])
    try:
        applied = apply_mutant(mutant, config.root)
    except MutationError as error:
        raise InputError([error.problem]) from error
    console = Console(highlight=False, soft_wrap=True)
    heading = (
        f"{escape(mutant.id)}[/bold] {escape(mutant.title[lang])}  ({escape(mutant.family)}; {escape(mutant.origin)})"
    )
    console.print(f"[bold]{heading}", markup=True)
    if console.is_terminal:
        console.print(Syntax(applied.diff, "diff", theme="ansi_dark", background_color="default", word_wrap=True))
    else:
        console.print(applied.diff, markup=False, end="")
    console.print(mutant.why[lang], markup=False)
    if mutant.equivalent:
        console.print(f"equivalent: {mutant.equivalent[lang]}", markup=False)
    elif mutant.survives:
        console.print(f"known gap: {mutant.survives[lang]}", markup=False)
        if mutant.tracked:
            console.print(f"tracked: {mutant.tracked}", markup=False)
    else:
        console.print("killed by: " + ", ".join(mutant.killed_by), markup=False)
    if mutant.hint:
        console.print(f"hint: {mutant.hint[lang]}", markup=False)


@main.command()
@project_option
@_reports_input_errors
def check(project: Path | None) -> None:
    """Validate the catalog and apply every entry, without running tests."""
    from mutcheck.mutate import MutationError, apply_mutant

    config = _config(project)
    catalog = _catalog(config)
    problems = unknown_killers(catalog, collect_test_ids(config))
    for mutant in catalog.mutants:
        try:
            applied = apply_mutant(mutant, config.root)
        except MutationError as error:
            problems.append(error.problem)
            continue
        if applied.equivalent_by_compilation and not mutant.equivalent:
            message = "compiles to the original byte code (equivalent by compilation); no test can kill it"
            problems.append(Problem(mutant.source, mutant.id, "survives" if mutant.survives else "killed_by", message))
    if problems:
        raise InputError(problems)
    click.echo(f"{len(catalog.mutants)} mutants in {len(catalog.families)} families: every entry applies")


def _tally(outcomes: Iterable[str], selected: int) -> str:
    """`3 of 9 tests failed, 1 timed out`: every outcome that detected the mutant, and the order-dependent."""
    counts = Counter(outcome if outcome != "error" else "failed" for outcome in outcomes)
    text = f"{counts['failed']} of {selected} tests failed"
    for outcome, words in (("timeout", "timed out"), ("order-dependent", "order-dependent")):
        if counts[outcome]:
            text += f", {counts[outcome]} {words}"
    return text


class _Progress:
    """A progress bar on a terminal; plain lines otherwise (CI logs)."""

    def __init__(self, console: Console, rounds: int) -> None:
        self.console = console
        self.rounds = rounds
        self.total = 0
        self.done = 0
        self.bar: Progress | None = None
        self.task: Any = None

    def __call__(self, kind: str, data: Any) -> None:
        if kind == "collected":
            self._say(f"collected {data} tests")
        elif kind == "baseline":
            self._say(f"baseline round {data}/{self.rounds} done")
        elif kind == "planned":
            self.total = data
            self._say(f"running {data} mutants")
            if self.console.is_terminal and data:
                from rich.progress import MofNCompleteColumn, Progress

                self.bar = Progress(*Progress.get_default_columns(), MofNCompleteColumn(), console=self.console)
                self.bar.start()
                self.task = self.bar.add_task("mutants", total=data)
        elif kind == "mutant":
            self.done += 1
            if self.bar is not None:
                self.bar.update(self.task, advance=1, description=data.id)
                if self.done == self.total:
                    self.bar.stop()
            else:
                self._say(f"[{self.done}/{self.total}] {data.id}: {_tally(data.outcomes.values(), len(data.selected))}")

    def _say(self, text: str) -> None:
        if self.bar is None:
            self.console.print(text, markup=False, highlight=False)


def _applied_mutants(config: Config, catalog: Catalog, only: tuple[str, ...]) -> list["AppliedMutant"]:
    from mutcheck.mutate import MutationError, apply_mutant

    known = {name for m in catalog.mutants for name in (m.id, m.family, *m.aliases)}
    if config.generic:
        known.add("generic")  # `--only generic`: the generic operator mutants alone
    problems = [Problem("--only", name, "", "no mutant id, alias or family of that name") for name in only]
    problems = [problem for problem in problems if problem.entry not in known]
    applied = []
    for mutant in catalog.select(list(only)):
        try:
            applied.append(apply_mutant(mutant, config.root))
        except MutationError as error:
            problems.append(error.problem)
    if problems:
        raise InputError(problems)
    return applied


@main.command()
@click.option("--only", multiple=True, help="Only this mutant id, alias or family (repeatable).")
@click.option("--diff", "diff_base", metavar="BASE", help="Only mutants touching lines changed since git BASE.")
@click.option("--shard", help="Run shard k of n (k/n), a deterministic partition of the mutants.")
@click.option("--bail", is_flag=True, help="Stop each mutant at its first killing test.")
@click.option("--generic/--no-generic", default=None, help="Also run mutmut's generic operator mutants.")
@click.option("--strict-generic", is_flag=True, default=None, help="Generic survivors fail the run too.")
@click.option("--jobs", type=click.IntRange(min=1), help="Parallel workers (default: CPU count).")
@click.option("--timeout-factor", type=click.FloatRange(min=0), help="Time limit = factor x baseline + constant.")
@click.option("--timeout-constant", type=click.FloatRange(min=0), help="Seconds added to every time limit.")
@click.option("--baseline-rounds", type=click.IntRange(min=1), help="Unmutated runs that must agree (default 1).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the results here.")
@click.option("--markdown", "markdown_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the comment.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the HTML report.")
@click.option("--stryker", "stryker_path", type=click.Path(dir_okay=False, path_type=Path), help="Write Stryker JSON.")
@project_option
@_reports_input_errors
def run(
    only: tuple[str, ...],
    diff_base: str | None,
    shard: str | None,
    bail: bool,
    generic: bool | None,
    strict_generic: bool | None,
    jobs: int | None,
    timeout_factor: float | None,
    timeout_constant: float | None,
    baseline_rounds: int | None,
    json_path: Path | None,
    markdown_path: Path | None,
    html_path: Path | None,
    stryker_path: Path | None,
    project: Path | None,
) -> None:
    """Run every catalogued mutant against the tests that reach it and check the expectations."""
    root = find_project_root((project or Path.cwd()).resolve())
    overrides = {
        "jobs": jobs,
        "timeout_factor": timeout_factor,
        "timeout_constant": timeout_constant,
        "baseline_rounds": baseline_rounds,
        "generic": generic,
        "strict_generic": strict_generic,
    }
    config = load_config(root, overrides)
    catalog = _catalog(config)

    def prepare() -> list["AppliedMutant"]:
        applied = _applied_mutants(config, catalog, only)
        if config.generic and (not only or "generic" in only):
            applied += generic.generate(config.root, generic_files)
        if diff_base:
            changed = changed_lines(config.root, diff_base)
            entries = changed_entries(config.root, changed, {mutant.source for mutant in catalog.mutants})
            applied = [mutant for mutant in applied if in_diff(mutant, changed, entries)]
        if shard:
            part = Shard.parse(shard)
            applied = [mutant for mutant in applied if part.keeps(mutant.mutant.id)]
        return applied

    options = EngineOptions(
        jobs=config.jobs or os.cpu_count() or 1,
        bail=bail,
        timeout_factor=config.timeout_factor,
        timeout_constant=config.timeout_constant,
        baseline_rounds=config.baseline_rounds,
    )
    console = _console()
    if config.generic:
        from mutcheck import generic  # mutmut and its parser load only when asked for

    generic_files = generic.target_files(config.root, config.target) if config.generic else []
    files = [mutant.file for mutant in catalog.select(list(only))] + generic_files
    engine_started = time.monotonic()
    engine_run, applied = run_engine(config, files, prepare, options, _Progress(console, options.baseline_rounds))
    engine_run.timings["startup"] = engine_started - STARTED
    if engine_run.collection_error:
        console.print(engine_run.log[-3000:], markup=False)
    unknown = unknown_killers(catalog, set(engine_run.tests)) if engine_run.tests else []
    if unknown:
        raise InputError(unknown)
    from mutcheck.actions import publish_in_actions
    from mutcheck.matrix import build_matrix
    from mutcheck.report import terminal
    from mutcheck.report.render import render
    from mutcheck.report.texts import run_languages
    from mutcheck.results import build_results, write_results

    matrix = build_matrix(engine_run, applied, bail, config.strict_generic)
    facts = {
        "jobs": options.jobs,
        "bail": bail,
        "baseline_rounds": options.baseline_rounds,
        "shard": shard,
        "only": list(only),
        "diff_base": diff_base,
        "generic": config.generic,
        "strict_generic": config.strict_generic,
        "languages": list(config.languages),
    }
    engine_run.timings["total"] = time.monotonic() - STARTED
    results = build_results(matrix, engine_run, catalog, config.root, facts)
    if json_path:
        write_results(json_path, results)
    for fmt, path in (("markdown", markdown_path), ("html", html_path), ("stryker", stryker_path)):
        if path:
            _write(path, render(results, fmt, run_languages(results)))
    terminal.render(results, console)
    if results["mutants"] and all(m["verdict"] == "no-coverage" for m in results["mutants"]):
        console.print(
            "warning: no test executed any mutated function. If the tests import the target from an installed "
            "copy (not an editable install), set pytest's pythonpath so they import the project's files.",
            markup=False,
        )
    publish_in_actions(results, sys.stdout)
    sys.exit(matrix.exit_code)


@main.command()
@click.argument("shards", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Merged file.")
@_reports_input_errors
def merge(shards: tuple[Path, ...], output: Path) -> None:
    """Combine the results of `--shard k/n` runs into one, as if run unsharded."""
    from mutcheck.report import terminal
    from mutcheck.results import load_results, merge_results, write_results

    merged = merge_results([(path, load_results(path)) for path in shards])
    write_results(output, merged)
    terminal.render(merged, _console())
    sys.exit(merged["summary"]["exit_code"])


@main.command()
@click.argument("results_path", metavar="RESULTS.json", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--format", "fmt", type=click.Choice(["text", "markdown", "html", "stryker"]), default="text", show_default=True
)
@click.option("--lang", help="One of the run's languages, or several joined by + (default: all of them).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write here (default: stdout).")
@_reports_input_errors
def report(results_path: Path, fmt: str, lang: str | None, output: Path | None) -> None:
    """Render a results file as text, a Markdown review comment, an HTML page or Stryker JSON."""
    from mutcheck.report.render import choose_languages, render
    from mutcheck.results import load_results

    results = load_results(results_path)
    text = render(results, fmt, choose_languages(results, lang))
    if output:
        _write(output, text)
    else:
        click.echo(text, nl=False)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@main.command()
@click.option("--repo", "repository", envvar="GITHUB_REPOSITORY", help="OWNER/NAME (in Actions: GITHUB_REPOSITORY).")
@click.option(
    "--pr", "pr_number", type=click.IntRange(min=1), help="Pull request number (in Actions: from GITHUB_REF)."
)
@click.option("--results", "results_path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--from-artifact",
    "artifact",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A directory uploaded by the untrusted run: results.json and pr-number.",
)
@click.option("--head-sha", help="The commit the run must have been made at (required with --from-artifact).")
@click.option("--api-url", envvar="GITHUB_API_URL", default="https://api.github.com", show_default=True)
@click.option("--author", help="Login our comments are posted as (default: the token's user; in Actions the bot).")
@click.option("--inline", is_flag=True, help="Also post each unexpected survivor in the diff as a review comment.")
@_reports_input_errors
def comment(
    repository: str | None,
    pr_number: int | None,
    results_path: Path | None,
    artifact: Path | None,
    head_sha: str | None,
    api_url: str,
    author: str | None,
    inline: bool,
) -> None:
    """Create or update mutcheck's one review comment on a pull request (token: GITHUB_TOKEN)."""
    from mutcheck.artifact import read_artifact
    from mutcheck.results import load_results

    if (results_path is None) == (artifact is None):
        raise InputError([Problem("comment", "", "--results", "give exactly one of --results or --from-artifact")])
    if artifact is not None:
        results, artifact_number = read_artifact(artifact)
        if head_sha is None:
            raise InputError([Problem("comment", "", "--head-sha", "required with --from-artifact")])
        if pr_number is not None and pr_number != artifact_number:
            raise InputError([Problem(str(artifact), "", "pr-number", f"says #{artifact_number}, not #{pr_number}")])
        pr_number = artifact_number
    else:
        results = load_results(results_path)
    if pr_number is None and (
        match := re.fullmatch(r"refs/pull/([0-9]+)/(?:merge|head)", os.environ.get("GITHUB_REF", ""))
    ):
        pr_number = int(match.group(1))  # inside Actions, on a pull_request event
    token = os.environ.get("GITHUB_TOKEN")
    missing = [
        name for name, value in (("--repo", repository), ("--pr", pr_number), ("GITHUB_TOKEN", token)) if not value
    ]
    if missing:
        raise InputError([Problem("comment", "", name, "required") for name in missing])
    from mutcheck.publish import PublishError, publish  # PyGithub loads only for this command

    try:
        outcome = publish(results, repository, pr_number, token, api_url, author, head_sha, inline)
    except PublishError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(ExitCode.PUBLISH_FAILED)
    click.echo(outcome)
