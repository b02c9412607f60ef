"""Verdict reuse replayed over a real project's history: at each commit, `mutcheck run` with reuse and
`mutcheck run --fresh`, every verdict and killing set compared, both timed, in one run.

    python benchmarks/bench_reuse.py CHECKOUT --config TABLE.toml --catalog CATALOG
        (--commits SHA [SHA ...] | --count N --until REV [--path PATH ...]) [--jobs N] [--plain]
        [--applying-throughout]

Run it with the project's environment (its test dependencies and mutcheck installed): each run is
`python -m mutcheck` with this interpreter.

CHECKOUT is a disposable clone of the project, switched from commit to commit in place: the reuse
store is kept per project folder, so every commit must run in the same one. At each commit the
script checks it out with `git checkout -f`, appends the `[tool.mutcheck]` table of TABLE.toml to
its pyproject.toml, copies CATALOG (a catalog file or a folder of them) into the folder the table's
`catalog` names, and commits both on top (detached), so each run sees a clean tree, as CI does;
at the end it checks out the ref it started on again. A catalog written at the newest commit rarely
applies to older ones (`mutcheck run` then stops at the catalog's errors): `--applying-throughout`
first runs `mutcheck check` at every commit and replays only the entries that apply at all of them,
naming the others. The commits are the ones listed, or the last
N first-parent commits up to REV that touch the table's target and tests (or the --path given), in
the order they were made.

Per commit, the run with reuse goes first (the store then holds the previous commit's runs), the
fresh run second (it still writes the store, so the next commit compares with this one). All runs
share a cache folder of the replay's own (XDG_CACHE_HOME), empty at the start, so nothing from
before the replay is reused. Prints per commit whether the target or its tests changed since the
previous commit, how many verdicts and killing sets agree (N/N), how many (mutant, test) outcomes
were reused, both wall times and what most often made a test run again; then the disagreements (must
be 0), the share of outcomes reused with the reasons the others ran, and the speed-up over the whole
history. Exits 1 on any disagreement. `--plain` runs the second side without `--fresh` too, for a
mutcheck without reuse: it checks the replay and the comparison, and measures nothing about reuse.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from common import end_on_sigterm, run_child

IDENTITY = ("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false")
USAGE_OR_BASELINE = 2  # exit statuses from here on (usage, catalog, baseline, publish) end the replay


def git(checkout: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *IDENTITY, *args], cwd=checkout, check=True, capture_output=True, text=True
    ).stdout.strip()


@dataclass(frozen=True)
class Setup:
    """What every commit gets: the `[tool.mutcheck]` table's text, where the catalog goes, and its files."""

    table: str
    catalog_folder: str
    catalog_files: list[Path]
    watched: list[str]  # the target and test paths whose changes each commit's line reports


def read_setup(config: Path, catalog: Path) -> Setup:
    table = config.read_text(encoding="utf-8")
    settings = tomllib.loads(table).get("tool", {}).get("mutcheck")
    if not isinstance(settings, dict) or not isinstance(settings.get("catalog"), str):
        sys.exit(f"{config}: needs a [tool.mutcheck] table with a `catalog` folder")
    files = [catalog] if catalog.is_file() else sorted(catalog.glob("*.toml"))
    if not files:
        sys.exit(f"{catalog}: no catalog file")
    watched = [
        path
        for key in ("target", "tests")
        for path in _as_list(settings.get(key, "src" if key == "target" else "tests"))
    ]
    return Setup(table, settings["catalog"], files, watched)


def _as_list(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def chosen_commits(checkout: Path, arguments: argparse.Namespace, watched: list[str]) -> list[str]:
    if arguments.commits:
        return [git(checkout, "rev-parse", "--verify", f"{commit}^{{commit}}") for commit in arguments.commits]
    paths = arguments.path or watched
    listed = git(
        checkout,
        "rev-list",
        "--first-parent",
        "--reverse",
        f"--max-count={arguments.count}",
        arguments.until,
        "--",
        *paths,
    )
    return listed.split()


def prepare(checkout: Path, commit: str, setup: Setup) -> None:
    """The commit, with the table and the catalog committed on top of it."""
    git(checkout, "checkout", "-f", "-q", commit)
    pyproject = checkout / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""  # setup.py-only projects
    if "mutcheck" in tomllib.loads(text).get("tool", {}):
        sys.exit(f"{commit}: pyproject.toml has a [tool.mutcheck] table already")
    pyproject.write_text(text.rstrip("\n") + "\n\n" + setup.table, encoding="utf-8")
    folder = checkout / setup.catalog_folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for file in setup.catalog_files:
        shutil.copy(file, folder / file.name)
    git(checkout, "add", "pyproject.toml", setup.catalog_folder)
    git(checkout, "commit", "-q", "--no-verify", "-m", f"mutcheck table and catalog on {commit[:12]}")


# `mutcheck check`'s line for an entry that does not apply: "error: FILE: ID: FIELD: …"
CHECK_ERROR = re.compile(r"^error: [^:]+: ([^:\s]+): ", re.MULTILINE)
MUTANT_TABLE = re.compile(r"^(?=\[\[mutant\]\])", re.MULTILINE)
MUTANT_ID = re.compile(r'^id = "([^"]+)"', re.MULTILINE)


def not_applying(checkout: Path, commits: list[str], setup: Setup) -> set[str]:
    """The ids of the entries that `mutcheck check` finds an error in at one of the commits or more.
    Any other error (the configuration's, a suite that does not collect there) ends the replay, named."""
    entries = {found for file in setup.catalog_files for found in MUTANT_ID.findall(file.read_text(encoding="utf-8"))}
    found: set[str] = set()
    for commit in commits:
        prepare(checkout, commit, setup)
        done = subprocess.run(
            [sys.executable, "-m", "mutcheck", "check", "--project", str(checkout)], capture_output=True, text=True
        )
        ids = set(CHECK_ERROR.findall(done.stderr))
        if done.returncode and (not ids or not ids <= entries):
            sys.exit(f"{commit}: mutcheck check exited {done.returncode}:\n{done.stderr[-3000:]}")
        found |= ids
    return found


def without(setup: Setup, left_out: set[str], folder: Path) -> Setup:
    """The setup with catalog files in `folder` that hold every entry but those `left_out`."""
    folder.mkdir()
    files = []
    for file in setup.catalog_files:
        head, *entries = MUTANT_TABLE.split(file.read_text(encoding="utf-8"))
        kept = [entry for entry in entries if (found := MUTANT_ID.search(entry)) is None or found[1] not in left_out]
        (folder / file.name).write_text(head + "".join(kept), encoding="utf-8")
        files.append(folder / file.name)
    return Setup(setup.table, setup.catalog_folder, files, setup.watched)


@dataclass(frozen=True)
class Run:
    seconds: float
    exit_code: int
    results: dict


def run_mutcheck(checkout: Path, work: Path, jobs: int, *options: str) -> Run:
    results = work / f"results-{time.monotonic_ns()}.json"
    command = [sys.executable, "-m", "mutcheck", "run", "--project", str(checkout), "--json", str(results)]
    environment = {**os.environ, "XDG_CACHE_HOME": str(work / "cache"), "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.monotonic()
    done = run_child(
        [*command, "--jobs", str(jobs), *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    seconds = time.monotonic() - started
    if done.returncode >= USAGE_OR_BASELINE or not results.is_file():
        sys.exit(f"mutcheck run {' '.join(options)} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return Run(seconds, done.returncode, json.loads(results.read_text(encoding="utf-8")))


def reused(results: dict) -> int:
    return sum(_was_reused(entry) for entry in results["mutants"])


def outcomes(results: dict) -> tuple[int, int]:
    """How many (mutant, test) outcomes were taken from the store, of how many it was asked about."""
    summary = results["summary"]
    return summary.get("reused_tests", 0), summary.get("reuse_considered", 0)


def reasons(results: dict) -> Counter:
    """Why each (mutant, test) outcome that was not reused ran again: the kind of each piece of
    evidence that changed (`code`, `read`, `name`, `key:packages`, `not-stored`, …), counted once per outcome."""
    counts: Counter = Counter()
    for entry in results["mutants"]:
        for why in ((entry.get("reuse") or {}).get("ran") or {}).values():
            counts.update({_kind(label) for label in why if not label.startswith("…")})
    return counts


def _kind(label: str) -> str:
    return label if label.startswith("key:") else label.partition(":")[0]


def why_run(results: dict, shown: int = 3) -> str:
    """The evidence that most often made a test run again under a mutant, with how many outcomes it made run."""
    counts = Counter(
        label
        for entry in results["mutants"]
        for why in ((entry.get("reuse") or {}).get("ran") or {}).values()
        for label in why
    )
    return ", ".join(f"{label} ({count})" for label, count in counts.most_common(shown))


def _was_reused(entry: dict) -> bool:
    return bool((entry.get("reuse") or {}).get("reused"))


def disagreements(with_reuse: dict, fresh: dict) -> list[str]:
    """One line per mutant whose verdict or killing set differs between the runs, or that one lacks."""
    first = {entry["id"]: entry for entry in with_reuse["mutants"]}
    second = {entry["id"]: entry for entry in fresh["mutants"]}
    lines = []
    for mutant in sorted(first.keys() | second.keys()):
        a, b = first.get(mutant), second.get(mutant)
        if a is None or b is None:
            lines.append(f"DISAGREE {mutant}: only in the {'fresh' if a is None else 'reusing'} run")
        elif a["verdict"] != b["verdict"] or set(a["killers"]) != set(b["killers"]):
            lines.append(
                f"DISAGREE {mutant}: with reuse {a['verdict']} by {sorted(a['killers'])} (reused: {_was_reused(a)}), "
                f"fresh {b['verdict']} by {sorted(b['killers'])}"
            )
    return lines


def changed(checkout: Path, previous: str | None, commit: str, paths: list[str]) -> str:
    """Which of `paths` the commit changed since the previous one of the replay."""
    if previous is None:
        return "first"
    names = git(checkout, "diff", "--name-only", previous, commit, "--", *paths).split()
    touched = [path for path in paths if any(name == path or name.startswith(path.rstrip("/") + "/") for name in names)]
    return ", ".join(touched) or "none"


@dataclass
class Totals:
    mutants: int = 0
    agree: int = 0
    reused: int = 0
    outcomes_reused: int = 0
    outcomes: int = 0
    reasons: Counter = field(default_factory=Counter)
    with_reuse: float = 0.0
    fresh: float = 0.0

    def print(self) -> None:
        print(f"disagreements: {self.mutants - self.agree} of {self.mutants} mutant runs")
        print(f"mutants reused whole: {self.reused}/{self.mutants} ({self.reused / self.mutants:.0%})")
        share = self.outcomes_reused / self.outcomes if self.outcomes else 0.0
        print(f"(mutant, test) outcomes reused: {self.outcomes_reused}/{self.outcomes} ({share:.1%})")
        ran = self.outcomes - self.outcomes_reused
        why = ", ".join(f"{kind} {count}" for kind, count in self.reasons.most_common())
        print(f"why the other {ran} ran (an outcome may have several reasons): {why or 'none'}")
        print(
            f"whole history: with reuse {self.with_reuse:.1f} s, fresh {self.fresh:.1f} s: "
            f"{self.fresh / self.with_reuse:.2f}x"
        )


def replay_one(checkout: Path, work: Path, arguments: argparse.Namespace, commit: str, totals: Totals) -> list[str]:
    """Both runs at one commit, added to `totals`; the line to print and what else there is to say."""
    with_reuse = run_mutcheck(checkout, work, arguments.jobs)
    fresh = run_mutcheck(checkout, work, arguments.jobs, *([] if arguments.plain else ["--fresh"]))
    lines = disagreements(with_reuse.results, fresh.results)
    count, reused_here = len(with_reuse.results["mutants"]), reused(with_reuse.results)
    taken, asked = outcomes(with_reuse.results)
    totals.mutants += count
    totals.agree += count - len(lines)
    totals.reused += reused_here
    totals.outcomes_reused += taken
    totals.outcomes += asked
    totals.reasons.update(reasons(with_reuse.results))
    totals.with_reuse += with_reuse.seconds
    totals.fresh += fresh.seconds
    row = (
        f"agree {count - len(lines)}/{count}, outcomes reused {taken}/{asked}, with {with_reuse.seconds:.1f} s, "
        f"fresh {fresh.seconds:.1f} s, exit {with_reuse.exit_code}/{fresh.exit_code}"
    )
    if most := why_run(with_reuse.results):
        row += f"; ran again for {most}"
    summary = with_reuse.results["summary"].get("reused")
    if summary is not None and summary != reused_here:
        lines.append(f"summary.reused is {summary}, but {reused_here} mutants say reused")
    if not arguments.plain and reused(fresh.results):
        lines.append(f"the fresh run reused {reused(fresh.results)} mutants")
    return [row, *lines]


def main() -> int:
    end_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--config", type=Path, required=True, help="a TOML file with the [tool.mutcheck] table")
    parser.add_argument("--catalog", type=Path, required=True, help="a catalog file or a folder of them")
    parser.add_argument("--commits", nargs="+", help="the commits, oldest first")
    parser.add_argument("--count", type=int, help="the last N commits up to --until that touch the paths")
    parser.add_argument("--until", default="HEAD")
    parser.add_argument("--path", action="append", help="paths for --count (default: the table's target and tests)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--plain", action="store_true", help="the second run without --fresh too (no reuse to measure)")
    parser.add_argument(
        "--applying-throughout", action="store_true", help="replay only the entries that apply at every commit"
    )
    arguments = parser.parse_args()
    if not arguments.commits and not arguments.count:
        parser.error("give --commits or --count")
    checkout = arguments.checkout.resolve()
    setup = read_setup(arguments.config, arguments.catalog)
    commits = chosen_commits(checkout, arguments, setup.watched)
    branch = git(checkout, "rev-parse", "--abbrev-ref", "HEAD")
    started_on = git(checkout, "rev-parse", "HEAD") if branch == "HEAD" else branch
    work = Path(tempfile.mkdtemp(prefix="mutcheck-reuse-"))
    print(f"{checkout.name}: {len(commits)} commits {commits[0][:9]}..{commits[-1][:9]}, {arguments.jobs} workers")
    if arguments.plain:
        print("--plain: both runs without --fresh; the replay and the comparison are checked, reuse is not measured")
    totals = Totals()
    try:
        if arguments.applying_throughout:
            left_out = not_applying(checkout, commits, setup)
            setup = without(setup, left_out, work / "catalog")
            print(f"left out {len(left_out)} entries that do not apply at every commit: {' '.join(sorted(left_out))}")
        for number, commit in enumerate(commits, start=1):
            prepare(checkout, commit, setup)
            row, *notes = replay_one(checkout, work, arguments, commit, totals)
            what = changed(checkout, commits[number - 2] if number > 1 else None, commit, setup.watched)
            print(f"{number:3}/{len(commits)} {commit[:9]} changed: {what}; {row}")
            for note in notes:
                print("   ", note)
    finally:
        git(checkout, "checkout", "-f", "-q", started_on)
        shutil.rmtree(work, ignore_errors=True)
    totals.print()
    return 0 if totals.agree == totals.mutants else 1


if __name__ == "__main__":
    sys.exit(main())
