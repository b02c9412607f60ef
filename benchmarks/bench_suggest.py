"""`mutcheck suggest` measured on the embedded targets: recall of each target's hand-written catalog
by `--all`'s proposals (proposed and applied, no engine), file by file, with the misses named; the
share of the default suggestions the suite kills (one real run per file of the first target); and
the wall time of `suggest` on the 312-line message_passes.py.

With `--target NAME`, the recall of that target's catalog alone (e.g. `bridge`: src/bridge
against mutants/bridge)."""

import argparse
import subprocess
import sys
import time
from collections import defaultdict

from common import REPOSITORY, cleanup, scratch_repository
from rich.console import Console

from mutcheck.catalog.catalog import load_catalog
from mutcheck.catalog.config import load_config
from mutcheck.core.source_text import read_source
from mutcheck.core.verdicts import KILLED, NO_COVERAGE, SURVIVED, TIMEOUT
from mutcheck.mutation.mutate import apply_mutant
from mutcheck.suggest.operators import propose
from mutcheck.suggest.suggest import SuggestRequest, applied_proposals, edit_of, suggest

TIMED_FILE = "src/consolidation/message_passes.py"


def recall(target: str = "consolidation") -> list[str]:
    """Per file: the hand-written entries whose edit is among the suggestions; the target files."""
    config = load_config(REPOSITORY).chosen_targets((target,)).each_target()[0]
    catalog = load_catalog(config.catalog_dir, REPOSITORY, config.languages)
    by_file = defaultdict(list)
    for mutant in catalog.mutants:
        by_file[mutant.file].append(mutant)
    found_total = total = 0
    print(f"recall ({target}): hand-written entries whose edit `suggest --all` proposes")
    for file, mutants in sorted(by_file.items()):
        text, _ = read_source(REPOSITORY / file)
        proposals = propose(text)
        suggested = {edit_of(applied) for _, applied in applied_proposals(config, file, "-", proposals) if applied}
        missed = [m.id for m in mutants if edit_of(apply_mutant(m, REPOSITORY)) not in suggested]
        found = len(mutants) - len(missed)
        found_total, total = found_total + found, total + len(mutants)
        share = f"{found:2}/{len(mutants):2} = {found / len(mutants):4.0%}"
        print(f"  {file:38} {share}  not proposed: {', '.join(missed) or '-'}")
    print(f"  {'overall':38} {found_total:2}/{total:2} = {found_total / total:4.0%}")
    return sorted(by_file)


def precision(files: list[str]) -> None:
    """The share of the default (one per line) suggestions that the suite kills, one run per file."""
    project = scratch_repository()
    quiet = Console(quiet=True)
    killed_total = survived_total = 0
    print("precision: default suggestions killed, of those a test reaches")
    try:
        for file in files:
            request = SuggestRequest(root=project, targets=(file,), out=None, every=False, cwd=project)
            (suggestions,), _ = suggest(request, quiet)
            verdicts = [result.verdict for result in suggestions.results]
            killed = sum(verdict in (KILLED, TIMEOUT) for verdict in verdicts)
            survived, unreached = verdicts.count(SURVIVED), verdicts.count(NO_COVERAGE)
            killed_total, survived_total = killed_total + killed, survived_total + survived
            share = killed / (killed + survived) if killed + survived else 1.0
            print(f"  {file:38} {killed:3} killed, {survived:2} survived, {unreached} unreached: {share:4.0%}")
            for result in suggestions.results:
                if result.verdict == SURVIVED:
                    print(f"      survived: {result.applied.mutant.id}: {result.applied.mutant.title['en']}")
    finally:
        cleanup(project)
    overall = killed_total / (killed_total + survived_total)
    print(f"  {'overall':38} {killed_total:3} killed, {survived_total:2} survived: {overall:4.0%}")


def wall_time() -> None:
    project = scratch_repository()
    try:
        for every in ((), ("--all",)):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "mutcheck", "suggest", TIMED_FILE, "--project", str(project), *every],
                check=True,
                capture_output=True,
                text=True,
                cwd=project,
            )
            seconds = time.perf_counter() - start
            suggested = next(line.split()[1] for line in done.stdout.splitlines() if line.startswith("total "))
            lines = len((REPOSITORY / TIMED_FILE).read_text(encoding="utf-8").splitlines())
            label = " ".join(("suggest", TIMED_FILE, *every))
            print(f"wall time: {label} ({lines} lines, with its tests): {seconds:.1f} s, {suggested} suggestions run")
    finally:
        cleanup(project)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", help="only the recall of this [tool.mutcheck.targets.NAME]'s catalog")
    target = parser.parse_args().target
    files = recall(target or "consolidation")
    if target is None:
        recall("bridge")
        precision(files)
        wall_time()


if __name__ == "__main__":
    main()
