"""The `mutcheck` command line: parse, call, exit."""

import subprocess
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.syntax import Syntax
from rich.table import Table

from mutcheck import __version__
from mutcheck.catalog import Catalog, load_catalog, unknown_killers
from mutcheck.collect import collect_test_ids
from mutcheck.config import Config, find_project_root, load_config
from mutcheck.exit_code import ExitCode
from mutcheck.mutate import MutationError, apply_mutant
from mutcheck.problems import InputError, Problem

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


def _catalog(config: Config) -> Catalog:
    return load_catalog(config.catalog_dir, config.root)


@click.group()
@click.version_option(__version__, prog_name="mutcheck")
def main() -> None:
    """Guard-mutation testing: which tests kill which catalogued mutant."""


@main.command("list")
@click.option("--family", "families", multiple=True, help="Only these families (repeatable).")
@project_option
@_reports_input_errors
def list_command(families: tuple[str, ...], project: Path | None) -> None:
    """List the catalog: id, family, location and expectation."""
    catalog = _catalog(_config(project))
    table = Table("id", "family", "location", "expectation", box=None, pad_edge=False)
    for mutant in catalog.mutants:
        if families and mutant.family not in families:
            continue
        expectation = "equivalent" if mutant.equivalent else f"killed by {len(mutant.killed_by)}"
        table.add_row(mutant.id, mutant.family, f"{mutant.file}::{mutant.scope}", expectation)
    Console(width=200).print(table)


@main.command()
@click.argument("mutant_id")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True)
@project_option
@_reports_input_errors
def show(mutant_id: str, lang: str, project: Path | None) -> None:
    """Show one mutant: its diff and why it matters."""
    config = _config(project)
    catalog = _catalog(config)
    mutant = catalog.find(mutant_id)
    if mutant is None:
        raise InputError([Problem(str(config.catalog), mutant_id, "id", "no mutant with this id or alias")])
    try:
        applied = apply_mutant(mutant, config.root)
    except MutationError as error:
        raise InputError([error.problem]) from error
    console = Console(highlight=False, soft_wrap=True)
    heading = f"{escape(mutant.id)}[/bold] {escape(mutant.title[lang])}  ({mutant.family}; {escape(mutant.origin)})"
    console.print(f"[bold]{heading}", markup=True)
    if console.is_terminal:
        console.print(Syntax(applied.diff, "diff", theme="ansi_dark", background_color="default", word_wrap=True))
    else:
        console.print(applied.diff, markup=False, end="")
    console.print(mutant.why[lang], markup=False)
    if mutant.equivalent:
        console.print(f"equivalent: {mutant.equivalent[lang]}", markup=False)
    else:
        console.print("killed by: " + ", ".join(mutant.killed_by), markup=False)
    if mutant.hint:
        console.print(f"hint: {mutant.hint[lang]}", markup=False)


@main.command()
@project_option
@_reports_input_errors
def check(project: Path | None) -> None:
    """Validate the catalog and apply every entry, without running tests."""
    config = _config(project)
    catalog = _catalog(config)
    problems = unknown_killers(catalog, collect_test_ids(config))
    for mutant in catalog.mutants:
        try:
            applied = apply_mutant(mutant, config.root)
        except MutationError as error:
            problems.append(error.problem)
            continue
        if applied.equivalent_by_compilation and mutant.killed_by:
            message = "compiles to the original byte code (equivalent by compilation); no test can kill it"
            problems.append(Problem(mutant.source, mutant.id, "killed_by", message))
    if problems:
        raise InputError(problems)
    click.echo(f"{len(catalog.mutants)} mutants in {len(catalog.families)} families: every entry applies")


@main.command()
def run() -> None:
    """Run the suite unmutated (the engine that runs every mutant is not wired in yet)."""
    completed = subprocess.run([sys.executable, "-m", "pytest", "-q", "tests/consolidation"], check=False)
    click.echo("baseline " + ("passed" if completed.returncode == 0 else "FAILED"))
    sys.exit(ExitCode.OK if completed.returncode == 0 else ExitCode.BASELINE_FAILED)
