"""What the saved last run says, in one language: which run it was, and one mutant's verdict in it."""

from typing import TYPE_CHECKING

from mutcheck.core.texts import describe, say
from mutcheck.results.model import MutantEntry, Results, RunFacts
from mutcheck.results.never_ran import never_ran_line
from mutcheck.results.state import SHORT_SHA, TIME_FORMAT, SavedRun

if TYPE_CHECKING:
    from mutcheck.mutation.mutate import AppliedMutant


def selection(run: RunFacts) -> str | None:
    """The options that made the run a subset of the catalog, as typed; None for the whole catalog."""
    parts = [f"--target {name}" for name in run.chosen_targets]
    parts += [f"--only {name}" for name in run.only]
    if run.diff_base:
        parts.append(f"--diff {run.diff_base}")
    if run.shard:
        parts.append(f"--shard {run.shard}")
    return " ".join(parts) or None


def run_line(saved: SavedRun, results: Results, lang: str) -> str:
    """Which run this was: its head, when it was saved, and what of the catalog it ran."""
    subset = selection(results.run)
    chosen = say(lang, "saved", "subset", selection=subset) if subset else say(lang, "saved", "whole_catalog")
    if results.run.revert_base:
        chosen = say(lang, "saved", "with_revert", selection=chosen, base=results.run.revert_base)
    when = saved.saved_at.strftime(TIME_FORMAT)
    if saved.head is None:
        return say(lang, "saved", "run_no_head", when=when, selection=chosen)
    return say(lang, "saved", "run", head=saved.head[:SHORT_SHA], when=when, selection=chosen)


def _changed_since(entry: MutantEntry, applied: "AppliedMutant") -> bool:
    """The edit or the expectation differs from the one the run checked (the whole catalog's digest
    would call every verdict stale after any one entry changed)."""
    mutant = applied.mutant
    then = (entry.diff, entry.killed_by, entry.equivalent, entry.survives)
    return then != (applied.diff, list(mutant.killed_by), mutant.equivalent, mutant.survives)


def verdict_lines(saved: SavedRun | None, results: Results | None, applied: "AppliedMutant", lang: str) -> list[str]:
    """The mutant's last verdict, its killers and their witnesses, its problems; or why there is none."""
    if saved is None or results is None:
        return [say(lang, "show", "no_saved_verdict")]
    mutant_id = applied.mutant.id
    entry = next((m for m in results.catalogued if m.id == mutant_id), None)
    if entry is None:
        return [run_line(saved, results, lang), say(lang, "show", "not_in_saved_run", id=mutant_id)]
    lines = entry_lines(saved, results, entry, lang)
    if _changed_since(entry, applied):
        lines.append(say(lang, "show", "stale"))
    return lines


def entry_lines(saved: SavedRun, results: Results, entry: MutantEntry, lang: str) -> list[str]:
    """A mutant's verdict in the saved run, its killers and their witnesses, its problems."""
    verdict = say(lang, "verdict", entry.verdict)
    met = say(lang, "show", "expectation_met" if entry.expectation_met else "expectation_unmet")
    lines = [run_line(saved, results, lang), say(lang, "show", "verdict", verdict=verdict, expectation=met)]
    if entry.killers:
        lines.append(say(lang, "show", "killers", tests=", ".join(entry.killers)))
    elif entry.verdict == "broken":
        lines.append(say(lang, "show", "no_killers"))
    else:
        lines.append(say(lang, "show", "no_killers"))
        # What a survivor's new test can start from: the tests that already run its code.
        reached = [results.tests[index] for index in entry.reached]
        key = "reached_by" if reached else "reached_by_none"
        lines.append(say(lang, "show", key, count=len(reached), tests=", ".join(reached)))
        if not reached and entry.selected:
            lines.append(say(lang, "show", "function_only", count=len(entry.selected)))
        if never_ran := never_ran_line(entry, lang):
            lines.append(never_ran)
    index_of = {test: index for index, test in enumerate(results.tests)}
    for killer in entry.killers:
        witness = entry.witnesses.get(index_of[killer])
        if witness:
            lines.append(say(lang, "show", "witness", test=killer, witness=witness))
    lines += [say(lang, "show", "problem", problem=describe(problem, lang)) for problem in entry.problems]
    return lines
