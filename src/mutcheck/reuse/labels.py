"""Evidence labels: each thing a test was seen to depend on, named so that a later run can work it out
again from what it has then. A path inside the project is relative to it; one outside, absolute;
what the run made itself (its temporary folder, and the caches tools fill as they run, which every run
starts empty: `.hypothesis`, `.pytest_cache`, …) and the kernel's pseudo-files are no one's evidence.

    read:PATH      a file's bytes            list:PATH    a folder's entries
    config:PATH    a file pytest looked at for its settings: what pytest takes from it (see
                   `key.pytest_config`)
    probe:PATH     whether a path exists, and as a file or a folder
    env:NAME       an environment variable's value ("env:*": the whole environment)
    import:PATH    the file of a module loaded from outside the project's Python code (a library,
                   an editable dependency's checkout, a compiled extension)
    code:PATH::NAME  a function's code (or a class statement's) in one of the project's files
    effects:PATH   a project module's statements with effects (see `module_code`)
    text:NAME      a name that code run from text (`exec`, `eval`) spells: any module's binding of it
                   ("text:**": any binding at all; see `host.text_names`)
    reach:NAMES    where the code was not watched: all the project's code reachable by name from the
                   code labels beside it and from NAMES (a mutant's replacement) counts
    reach-modules  where collecting was not watched: what is reachable from module-level code counts
    order:TEST     the tests of the suite up to TEST, in its order: what an outcome only a run in the
                   suite's order settled stands on, with what each of them was seen to depend on there
"""

import os
from dataclasses import dataclass, field

from mutcheck.host.wire import Seen
from mutcheck.sandbox.scratch import CACHE_FOLDERS

READ, LIST, PROBE, ENV, IMPORT, CODE, EFFECTS = "read", "list", "probe", "env", "import", "code", "effects"
CONFIG = "config"
TEXT = "text"
REACH, REACH_FROM_MODULES, ORDER = "reach", "reach-modules", "order"
MODULE_LEVEL = "<module>"
_SYSTEM = ("/proc/", "/dev/", "/sys/")


def label(kind: str, name: str) -> str:
    return f"{kind}:{name}"


def kind_of(text: str) -> tuple[str, str]:
    kind, _, name = text.partition(":")
    return kind, name


@dataclass(frozen=True)
class Places:
    """Where the run's processes saw paths: its copy of the project, and its own folder around it."""

    project: str  # the copy, absolute
    run_folder: str  # the run's folder: the copy, temporary files, caches, fallback copies
    spellings: tuple[set[str], set[str]] = field(init=False)  # each folder as given and resolved

    def __post_init__(self) -> None:
        folders = ({self.project, os.path.realpath(self.project)}, {self.run_folder, os.path.realpath(self.run_folder)})
        object.__setattr__(self, "spellings", folders)

    def place(self, path: str) -> str | None:
        """`path` as a label names it: relative inside the project, absolute outside; None for what
        the run itself made or the kernel provides."""
        for project in self.spellings[0]:
            if path == project:
                return "."
            if path.startswith(project + os.sep):
                place = path[len(project) + 1 :]
                return None if CACHE_FOLDERS.intersection(place.split(os.sep)) else place
        for folder in self.spellings[1]:
            if path == folder or path.startswith(folder + os.sep):
                return None
        if path.startswith(_SYSTEM):
            return None
        return path


@dataclass
class Labelled:
    """One sink's evidence as labels, and what may keep it from being reused."""

    labels: set[str] = field(default_factory=set)
    layout: set[str] = field(default_factory=set)  # what pytest listed and asked about to find the tests
    reads: set[str] = field(default_factory=set)  # places it read or listed: nobody else may have written them
    writes: set[str] = field(default_factory=set)  # places it wrote
    fixtures: set[str] = field(default_factory=set)
    unfollowed: set[str] = field(default_factory=set)


def imported(seen: Seen, places: Places) -> dict[str, str]:
    """The project's Python files `seen` imported first, by place, and their modules' names."""
    found = {}
    for entry in seen.imports:
        name, _, path = entry.partition(":")
        place = places.place(path)
        if place is not None and place.endswith(".py") and not os.path.isabs(place):
            found[place] = name
    return found


def labelled(seen: Seen, places: Places, modules: set[str]) -> Labelled:
    """`seen` as labels. `modules`: the project's Python files loaded as modules (their code is
    evidence function by function and statement by statement, not by their bytes)."""
    found = Labelled(fixtures=set(seen.fixtures), unfollowed=set(seen.unfollowed))
    for kind, paths in ((READ, seen.reads), (CONFIG, seen.config_reads), (LIST, seen.lists), (PROBE, seen.probes)):
        for path in paths:
            place = places.place(path)
            if place is None or place.endswith(".pyc") or (kind != LIST and place in modules):
                continue
            found.labels.add(label(kind, place))
            found.reads.add(place)
    for kind, paths in ((LIST, seen.layout_lists), (PROBE, seen.layout_probes)):
        found.layout |= {label(kind, place) for path in paths if (place := places.place(path)) is not None}
    found.labels |= {label(ENV, name) for name in seen.env}
    found.labels |= {label(TEXT, name) for name in seen.texts}
    for entry in seen.imports:
        place = places.place(entry.partition(":")[2])
        if place is None:
            continue
        found.labels.add(label(EFFECTS, place) if place in modules else label(IMPORT, place))
    for code in seen.code:
        path, _, name = code.partition("::")
        found.labels.add(label(EFFECTS, path) if name == MODULE_LEVEL else label(CODE, code))
    found.writes = {place for path in seen.writes if (place := places.place(path)) is not None}
    return found
