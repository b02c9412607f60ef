"""The `mutcheck` command line: parse, call, exit."""

import io
import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from mutcheck import __version__
from mutcheck.catalog.config import Config, find_project_root, load_config
from mutcheck.catalog.options import RunRequest
from mutcheck.core.exit_code import ExitCode
from mutcheck.core.internal_error import report_internal_error
from mutcheck.core.output_file import check_outputs, write_output
from mutcheck.core.problems import InputError, Problem
from mutcheck.sandbox.interrupt import interruption_in

# LibCST, jsonschema, Jinja2 and the reports load inside the commands that use them: `run`
# starts the pytest host first, and they load while it starts.


def project_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """`--project DIR` and `--profile NAME`: which project, and which of its configurations."""
    command = click.option(
        "--profile",
        envvar="MUTCHECK_PROFILE",
        help="Apply [tool.mutcheck.profile.NAME] over [tool.mutcheck] (env: MUTCHECK_PROFILE).",
    )(command)
    return click.option(
        "--project",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Project directory (default: the nearest one with a pyproject.toml).",
    )(command)


def _reports_input_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Print every configuration or catalog problem and exit 2."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except InputError as error:
            for problem in error.problems:
                click.echo(f"error: {problem}", err=True)
            if len(error.problems) > 1:  # one problem is one line
                click.echo(f"{len(error.problems)} problems found", err=True)
            sys.exit(ExitCode.USAGE)

    return wrapper


def _root(project: Path | None) -> Path:
    return find_project_root((project or Path.cwd()).resolve())


def _config(project: Path | None, profile: str | None) -> Config:
    return load_config(_root(project), profile=profile or None)  # an empty MUTCHECK_PROFILE chooses none


class _Console(Console):
    """Rich's console, ending like every other output when nobody reads it (rich would exit 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def _console() -> Console:
    """Rich on a terminal; wide, plain lines in logs (CI) so tables are not squeezed to 80 columns."""
    console = _Console(highlight=False)
    return console if console.is_terminal else _Console(highlight=False, width=160)


class _Commands(click.Group):
    """The commands; an exception none of them expects ends in one line and its own exit status."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            # Nobody reads on: end quietly, as shell tools do, and keep the exit flush from failing again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(ExitCode.OUTPUT_CLOSED)
        except Exception as error:
            if (interruption := interruption_in(error)) is not None:
                raise interruption from None  # a signal, not a defect of ours
            click.echo(report_internal_error(error), err=True)
            sys.exit(ExitCode.INTERNAL_ERROR)


@click.group(cls=_Commands)
@click.version_option(__version__, prog_name="mutcheck")
def main() -> None:
    """Guard-mutation testing: which tests kill which catalogued mutant."""
    # A file name that is not UTF-8 (kept by Python as surrogates) is printed as escapes, not a crash.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


@main.command()
@click.option(
    "--github",
    "action_source",
    metavar="OWNER/REPO@REF",
    help="Also write the two GitHub workflows, using mutcheck's actions from OWNER/REPO at REF (a commit).",
)
@click.option("--shards", type=click.IntRange(min=2), help="With --github: run the catalog in this many parallel jobs.")
@click.option(
    "--target",
    multiple=True,
    help="The package the catalog mutates: its folder, or its name under src/ (default: detected; repeatable).",
)
@click.option("--tests", multiple=True, help="The tests run per mutant (default: pytest's testpaths; repeatable).")
@click.option(
    "--skip-install-proof",
    is_flag=True,
    help="With --github: write the install line without first building a fresh environment from it (offline).",
)
@click.option(
    "--project",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=Path("."),
    help="The project to set up (default: the current directory).",
)
@_reports_input_errors
def init(
    action_source: str | None,
    shards: int | None,
    target: tuple[str, ...],
    tests: tuple[str, ...],
    skip_install_proof: bool,
    project: Path,
) -> None:
    """Set a project up for mutcheck: [tool.mutcheck], mutants/, .gitignore and (--github) workflows."""
    from mutcheck.scaffold.scaffold import ActionSource, init_project

    for flag, given in (("--shards", shards), ("--skip-install-proof", skip_install_proof)):
        if given and not action_source:
            raise InputError([Problem(flag, str(given), "", "only with --github (it shapes the workflow)")])
    source = ActionSource.parse(action_source) if action_source else None
    init_project(project.resolve(), source, shards, target, tests, click.echo, not skip_install_proof)


@main.command("list")
@click.option("--family", "families", multiple=True, help="Only these families (repeatable).")
@click.option("--only", multiple=True, help="Only this mutant id, alias or family (repeatable), as run selects.")
@click.option("--diff", "diff_base", metavar="BASE", help="Only the mutants `run --diff BASE` would run.")
@click.option("--shard", help="Only the mutants of shard k of n (k/n), as `run --shard` selects.")
@click.option("--json", "as_json", is_flag=True, help="Write one JSON document (a list of mutants) instead.")
@project_options
@_reports_input_errors
def list_command(
    families: tuple[str, ...],
    only: tuple[str, ...],
    diff_base: str | None,
    shard: str | None,
    as_json: bool,
    project: Path | None,
    profile: str | None,
) -> None:
    """List the catalog: id, family, location and expectation."""
    from mutcheck import listing
    from mutcheck.catalog.project_catalog import catalog_of

    config = _config(project, profile)
    listed = listing.listed_mutants(config, catalog_of(config), families, only, diff_base, shard, lines=as_json)
    if as_json:
        click.echo(listing.as_json(listed))
        return
    _Console(width=200).print(listing.table(listed))


@main.command()
@click.argument("mutant_id")
@click.option("--lang", help="A language of [tool.mutcheck] languages (default: the first).")
@project_options
@_reports_input_errors
def show(mutant_id: str, lang: str | None, project: Path | None, profile: str | None) -> None:
    """Show one mutant: its diff, why it matters, and its verdict in the last saved run."""
    from mutcheck.showing import show_mutant

    show_mutant(_config(project, profile), mutant_id, lang, _Console(highlight=False, soft_wrap=True))


@main.command()
@click.option(
    "--base",
    metavar="BASE",
    help="Entries that apply at git BASE's merge base but not here are findings of the change, not errors.",
)
@click.option("--update", is_flag=True, help="Rewrite such entries where their code's new place is clear (BASE: HEAD).")
@project_options
@_reports_input_errors
def check(base: str | None, update: bool, project: Path | None, profile: str | None) -> None:
    """Validate the catalog and apply every entry, without running tests."""
    from mutcheck.checking import check_catalog

    checked = check_catalog(_config(project, profile), base, update)
    for line in checked.lines:
        click.echo(line)
    if checked.failure:
        raise checked.failure
    sys.exit(checked.exit_code)


@main.command()
@click.argument("names", metavar="ID|FAMILY|FILE...", nargs=-1, required=True)
@project_options
@_reports_input_errors
def accept(names: tuple[str, ...], project: Path | None, profile: str | None) -> None:
    """Accept gaps `mutcheck suggest` found, once a person has read them: they become known gaps.
    A family, a catalog file or a target file accepts every gap awaiting review in it."""
    from mutcheck.catalog.catalog_edit import accept_gaps
    from mutcheck.catalog.project_catalog import catalog_of

    config = _config(project, profile)
    given = [_in_project(config.root, name) for name in names]
    for mutant_id, source in accept_gaps(config.root, catalog_of(config), given):
        click.echo(f"accepted {mutant_id} ({source})")


def _in_project(root: Path, name: str) -> str:
    """A name that is a path here, as the project root names it; any other name as it is."""
    path = Path(name).resolve()
    return path.relative_to(root).as_posix() if path.exists() and path.is_relative_to(root) else name


@main.command()
@click.option("--only", multiple=True, help="Only this mutant id, alias or family (repeatable).")
@click.option("--target", "targets", multiple=True, help="Only this target of [tool.mutcheck.targets] (repeatable).")
@click.option("--diff", "diff_base", metavar="BASE", help="Only mutants touching lines changed since git BASE.")
@click.option(
    "--revert",
    "revert_base",
    metavar="BASE",
    help="Also revert each hunk of the change since git BASE, and the whole change: each must fail a test.",
)
@click.option("--shard", help="Run shard k of n (k/n), a deterministic partition of the mutants.")
@click.option("--bail", is_flag=True, help="Stop each mutant at its first killing test.")
@click.option(
    "--fresh", is_flag=True, help="Run every mutant: reuse no stored outcome, even where its evidence is unchanged."
)
@click.option("--generic/--no-generic", default=None, help="Also run mutmut's generic operator mutants.")
@click.option("--strict-generic", is_flag=True, default=None, help="Generic survivors fail the run too.")
@click.option("--jobs", type=click.IntRange(min=1), help="Parallel workers (default: CPU count).")
@click.option(
    "--timeout-factor",
    type=click.FloatRange(min=0),
    help="Time limit = factor x baseline + constant, rounded up to two figures.",
)
@click.option("--timeout-constant", type=click.FloatRange(min=0), help="Seconds added to every time limit.")
@click.option("--baseline-rounds", type=click.IntRange(min=1), help="Unmutated runs that must agree (default 1).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the results here.")
@click.option("--markdown", "markdown_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the comment.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the HTML report.")
@click.option("--stryker", "stryker_path", type=click.Path(dir_okay=False, path_type=Path), help="Write Stryker JSON.")
@project_options
@_reports_input_errors
def run(
    only: tuple[str, ...],
    targets: tuple[str, ...],
    diff_base: str | None,
    revert_base: str | None,
    shard: str | None,
    bail: bool,
    fresh: bool,
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
    profile: str | None,
) -> None:
    """Run every catalogued mutant against the tests that reach it and check the expectations."""
    request = RunRequest(
        root=_root(project),
        profile=profile or None,
        only=only,
        diff_base=diff_base,
        revert_base=revert_base,
        shard=shard,
        bail=bail,
        generic=generic,
        strict_generic=strict_generic,
        jobs=jobs,
        timeout_factor=timeout_factor,
        timeout_constant=timeout_constant,
        baseline_rounds=baseline_rounds,
        json_path=json_path,
        markdown_path=markdown_path,
        html_path=html_path,
        stryker_path=stryker_path,
        chosen_targets=targets,
        fresh=fresh,
    )
    from mutcheck.runner import run_catalog  # the engine loads only for the commands that run it

    sys.exit(run_catalog(request, _console()))


@main.command()
@click.argument("mutant_ids", metavar="ID...", nargs=-1)
@click.option("--all-survivors", is_flag=True, help="Every catalogued known gap (`survives`), suggest's included.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The test file to write: a new one, or one harden wrote (its tests are kept).",
)
@click.option("--update-catalog", is_flag=True, help="A hardened gap's `survives` becomes `killed_by` its test.")
@click.option(
    "--results",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A results document (run --json): each hardened mutant's entry gains its test, for the comment.",
)
@project_options
@_reports_input_errors
def harden(
    mutant_ids: tuple[str, ...],
    all_survivors: bool,
    out: Path,
    update_catalog: bool,
    results: Path | None,
    project: Path | None,
    profile: str | None,
) -> None:
    """Write, for each surviving mutant, a test that kills it, proven on the original and the mutant."""
    from mutcheck.harden.harden import HardenRequest, summary_line
    from mutcheck.harden.harden import harden as harden_mutants

    if bool(mutant_ids) == all_survivors:
        raise InputError([Problem("harden", "", "ID", "name mutant ids, or --all-survivors (not both)")])
    root = _root(project)
    request = HardenRequest(root, mutant_ids, all_survivors, out, update_catalog, Path.cwd(), profile, results)
    console = _console()
    hardenings, code = harden_mutants(request, console)
    console.print(summary_line(hardenings, str(out)), highlight=False, markup=False, soft_wrap=True)
    sys.exit(code)


@main.command()
@click.argument("targets", metavar="FILE[::SCOPE]|FOLDER...", nargs=-1, required=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The catalog file to write (default: <catalog>/suggested_<file stem>.toml).",
)
@click.option("--all", "every", is_flag=True, help="Every suggestion, not only the most guard-like of each line.")
@project_options
@_reports_input_errors
def suggest(targets: tuple[str, ...], out: Path | None, every: bool, project: Path | None, profile: str | None) -> None:
    """Propose guard mutants for files (one function of a file, or every Python file of a folder),
    run them, and write catalog entries, one catalog file per source file."""
    from mutcheck.suggest.report import render_suggestions
    from mutcheck.suggest.suggest import SuggestRequest
    from mutcheck.suggest.suggest import suggest as suggest_entries

    request = SuggestRequest(
        root=_root(project), targets=targets, out=out, every=every, cwd=Path.cwd(), profile=profile or None
    )
    console = _console()
    everything, exit_code = suggest_entries(request, console)
    for suggestions in everything:
        render_suggestions(suggestions, console, several=len(everything) > 1)
    sys.exit(exit_code)


@main.command()
@click.argument("shards", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Merged file.")
@_reports_input_errors
def merge(shards: tuple[Path, ...], output: Path) -> None:
    """Combine the results of `--shard k/n` runs into one, as if run unsharded."""
    from mutcheck.publish.actions import publish_in_actions
    from mutcheck.report import terminal
    from mutcheck.results.merge import merge_results
    from mutcheck.results.results import load_results, results_json

    check_outputs({"--output": output})
    merged = merge_results([(path, load_results(path)) for path in shards])
    try:
        write_output("--output", output, results_json(merged))
    finally:  # the report is still shown when the file could not be written after all
        terminal.render(merged, _console())
        publish_in_actions(merged, sys.stdout)  # the merged job's summary and annotations
    sys.exit(merged.summary.exit_code)


@main.command()
@click.argument(
    "results_path",
    metavar="[RESULTS.json]",
    required=False,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "markdown", "html", "stryker"]), default="text", show_default=True
)
@click.option(
    "--lang", help="One of the run's languages, or several joined by + (default: all of them; text: the first)."
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write here (default: stdout).")
@project_options
@_reports_input_errors
def report(
    results_path: Path | None,
    fmt: str,
    lang: str | None,
    output: Path | None,
    project: Path | None,
    profile: str | None,
) -> None:
    """Render a results file (default: the project's last saved run at its head) as text, a Markdown
    review comment, an HTML page or Stryker JSON."""
    from mutcheck.report.render import choose_languages, render
    from mutcheck.results.last_run import run_line
    from mutcheck.results.results import load_results
    from mutcheck.results.state import saved_run_here

    check_outputs({"--output": output})
    # --profile chooses whose saved run; a results file is rendered as it is.
    saved = None if results_path else saved_run_here(_config(project, profile).root, profile or None)
    results = load_results(saved.path if saved else results_path)
    languages = choose_languages(results, lang, fmt)
    if saved:  # on stderr, so that the rendered document stays whole
        click.echo(run_line(saved, results, languages[0]), err=True)
    text = render(results, fmt, languages)
    if output:
        write_output("--output", output, text)
    else:
        click.echo(text, nl=False)


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
    from mutcheck.publish.request import comment_request

    request = comment_request(repository, pr_number, results_path, artifact, head_sha, os.environ)
    from mutcheck.core.extras import GITHUB, importing

    with importing(GITHUB, "comment"):
        from mutcheck.publish.publish import PublishError, publish  # PyGithub loads only for this command

    try:
        outcome = publish(
            request.results, request.repository, request.pr_number, request.token, api_url, author, head_sha, inline
        )
    except PublishError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(ExitCode.PUBLISH_FAILED)
    click.echo(outcome)
