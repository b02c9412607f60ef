"""`mutcheck show`: one mutant's diff, why it matters, what the catalog expects, and its verdict in
the last saved run."""

import sys

from rich.console import Console
from rich.markup import escape

from mutcheck.catalog.config import Config
from mutcheck.catalog.project_catalog import catalog_of
from mutcheck.core.escape import visible
from mutcheck.core.problems import InputError, Problem
from mutcheck.core.texts import say
from mutcheck.mutation.mutate import MutationError, apply_mutant
from mutcheck.report.terminal import print_diff, print_plain
from mutcheck.report.view import as_change
from mutcheck.results.last_run import entry_lines, verdict_lines
from mutcheck.results.results import load_results
from mutcheck.results.state import current_run


def show_mutant(config: Config, mutant_id: str, lang: str | None, console: Console) -> None:
    if lang is not None and lang not in config.languages:
        message = f"not in tool.mutcheck.languages ({', '.join(config.languages)})"
        raise InputError([Problem("--lang", lang, "", message)])
    lang = lang or config.languages[0]
    catalog = catalog_of(config)
    mutant = catalog.find(mutant_id)
    saved = current_run(config.root, config.profile)
    try:
        results = load_results(saved.path) if saved else None
    except InputError as error:  # show needs no run: a damaged saved one is only not shown
        print(f"warning: the saved run cannot be read, so no verdict is shown: {error.problems[0]}", file=sys.stderr)
        saved = results = None
    if mutant is None:
        # A revert mutant is made from the change, not the catalog: the saved run's record is all there is.
        entry = next((m for m in results.mutants if m.id == mutant_id and m.revert), None) if results else None
        if saved is None or entry is None:
            raise InputError([Problem(str(config.catalog), mutant_id, "id", "no mutant with this id or alias")])
        console.print(f"[bold]{escape(entry.id)}[/bold] {escape(visible(entry.title[lang]))}", markup=True)
        print_diff(console, as_change(entry.diff))  # the change the revert undoes, base → head
        for line in [entry.why[lang], *entry_lines(saved, results, entry, lang)]:
            print_plain(console, line)
        return
    try:
        applied = apply_mutant(mutant, config.root)
    except MutationError as error:
        raise InputError([error.problem]) from error
    heading = (
        f"{escape(mutant.id)}[/bold] {escape(visible(mutant.title[lang]))}  "
        f"({escape(mutant.family)}; {escape(visible(mutant.origin))})"
    )
    console.print(f"[bold]{heading}", markup=True)
    print_diff(console, applied.diff)
    lines = [mutant.why[lang]]
    if mutant.equivalent:
        lines.append(say(lang, "show", "equivalent", proof=mutant.equivalent[lang]))
    elif mutant.survives:
        lines.append(say(lang, "show", "known_gap", reason=mutant.survives[lang]))
        if mutant.tracked:
            lines.append(say(lang, "show", "tracked", issue=mutant.tracked))
    else:
        lines.append(say(lang, "show", "killed_by", tests=", ".join(mutant.killed_by)))
    if mutant.hint:
        lines.append(say(lang, "show", "hint", hint=mutant.hint[lang]))
    for line in [*lines, *verdict_lines(saved, results, applied, lang)]:
        print_plain(console, line)
