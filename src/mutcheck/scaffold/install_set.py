"""The workflow's `install:` line: the project, editable, with the extras and dependency groups
that hold what its tests need and bring the least besides."""

from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, distributions, metadata, requires
from itertools import combinations

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from mutcheck.core.problems import InputError, Problem
from mutcheck.scaffold.suite_needs import SuiteNeeds

MOST_COMBINED = 3  # extras and groups tried together; when none of those cover, every useful one is taken
LISTED = 4  # names a reason lists


@dataclass(frozen=True)
class Option:
    """An extra or a dependency group, and the distributions installing it brings."""

    kind: str  # "extra" or "group"
    name: str
    brings: frozenset[str]
    names: frozenset[str]  # those its own requirements name

    def added(self, brought: frozenset[str]) -> list[str]:
        """What it brings beyond `brought`: those it names first."""
        added = self.brings - brought
        return sorted(added & self.names) + sorted(added - self.names)

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"


@dataclass(frozen=True)
class InstallSet:
    line: str  # pip's arguments
    reason: str


def _problem(field: str, message: str) -> InputError:
    return InputError([Problem("pyproject.toml", "", field, message)])


def _requirements(values: object, field: str) -> list[Requirement]:
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        raise _problem(field, "must be a list of requirement strings")
    try:
        return [Requirement(value) for value in values]
    except InvalidRequirement as error:
        raise _problem(field, f"not a requirement: {error}") from error


def _group(groups: dict[str, object], name: str, within: tuple[str, ...] = ()) -> list[Requirement]:
    """A dependency group's requirements, those of the groups it includes (`{include-group = …}`) too."""
    field = f"dependency-groups.{name}"
    entries = groups.get(name)
    if name in within or not isinstance(entries, list):
        raise _problem(field, "includes itself" if name in within else "must be a list")
    requirements = []
    for entry in entries:
        included = entry.get("include-group") if isinstance(entry, dict) else None
        if isinstance(included, str):
            requirements += _group(groups, included, (*within, name))
        else:
            requirements += _requirements([entry], field)
    return requirements


def _applies(requirement: Requirement, extras: frozenset[str] | set[str]) -> bool:
    """Whether the requirement's marker holds here, with one of `extras` (or none) asked for."""
    marker = requirement.marker
    return marker is None or any(marker.evaluate({"extra": extra}) for extra in ("", *extras))


@cache
def _installed_requirements(name: str) -> tuple[Requirement, ...]:
    try:
        texts = requires(name) or []
    except PackageNotFoundError:
        return ()
    parsed = []
    for text in texts:
        try:
            parsed.append(Requirement(text))
        except InvalidRequirement:
            continue  # installed metadata nobody here can fix: only this requirement is not followed
    return tuple(parsed)


def _brought(requirements: list[Requirement], project: str, extras: dict[str, list[Requirement]]) -> frozenset[str]:
    """The distributions installing the requirements brings: each named, and what those installed
    here require in turn (a distribution not installed here counts alone); the project's own extras
    (`project[test]`) followed."""
    brought: set[str] = set()
    seen: set[tuple[str, frozenset[str]]] = set()
    pending = [requirement for requirement in requirements if _applies(requirement, set())]
    while pending:
        requirement = pending.pop()
        name, asked = canonicalize_name(requirement.name), frozenset(requirement.extras)
        if (name, asked) in seen:
            continue
        seen.add((name, asked))
        if name == project:
            own = [extras.get(canonicalize_name(extra), []) for extra in asked]
            pending += [each for listed in own for each in listed if _applies(each, set())]
            continue
        brought.add(name)
        pending += [each for each in _installed_requirements(name) if _applies(each, asked)]
    return frozenset(brought)


def _project(document: dict[str, object]) -> tuple[frozenset[str], list[Option]]:
    """What the project, its dependencies and pytest (which mutcheck brings) bring, and the project's
    extras and dependency groups."""
    project = document.get("project")
    project = project if isinstance(project, dict) else {}
    name = canonicalize_name(project.get("name", "")) if isinstance(project.get("name"), str) else ""
    table = project.get("optional-dependencies", {})
    groups = document.get("dependency-groups", {})
    if not isinstance(table, dict) or not isinstance(groups, dict):
        field = "project.optional-dependencies" if not isinstance(table, dict) else "dependency-groups"
        raise _problem(field, "must be a table")
    extras = {
        canonicalize_name(extra): _requirements(values, f"project.optional-dependencies.{extra}")
        for extra, values in table.items()
    }
    base = [*_requirements(project.get("dependencies", []), "project.dependencies"), Requirement("pytest")]
    listed = [("extra", extra, extras[canonicalize_name(extra)]) for extra in table]
    listed += [("group", group, _group(groups, group)) for group in groups]
    options = [
        Option(
            kind,
            option,
            _brought(requirements, name, extras),
            frozenset(canonicalize_name(r.name) for r in requirements),
        )
        for kind, option, requirements in listed
    ]
    return _brought(base, name, extras) | {name}, options


def _listed(names: set[str] | frozenset[str] | list[str]) -> str:
    ordered = names if isinstance(names, list) else sorted(names)
    more = f" and {len(ordered) - LISTED} more" if len(ordered) > LISTED else ""
    return ", ".join(ordered[:LISTED]) + more


def _cheapest(options: list[Option], needed: frozenset[str], provided: frozenset[str]) -> tuple[Option, ...]:
    """The options that together bring every needed distribution and the least besides: first the
    fewest distributions not installed here (nothing collecting needed, of a size unknown here), then
    the fewest distributions, then the fewest options."""
    installed = {canonicalize_name(each.metadata["Name"] or "") for each in distributions()}

    def cost(chosen: tuple[Option, ...]) -> tuple[int, int, int, list[str]]:
        extra = frozenset().union(*(option.brings for option in chosen)) - provided
        return len(extra - installed), len(extra), len(chosen), [str(option) for option in chosen]

    cheapest: dict[frozenset[str], Option] = {}  # of the options that bring the same needed ones
    for option in sorted((option for option in options if option.brings & needed), key=lambda each: cost((each,))):
        cheapest.setdefault(option.brings & needed, option)
    candidates = list(cheapest.values())
    covers = [
        chosen
        for size in range(1, min(MOST_COMBINED, len(candidates)) + 1)
        for chosen in combinations(candidates, size)
        if needed <= frozenset().union(*(option.brings for option in chosen))
    ]
    return min(covers, key=cost) if covers else tuple(candidates)


def _dependency_names(document: dict[str, object]) -> set[str]:
    project = document.get("project")
    listed = project.get("dependencies", []) if isinstance(project, dict) else []
    return {canonicalize_name(requirement.name) for requirement in _requirements(listed, "project.dependencies")}


def _dependency_extras(dependencies: list[str], wanted: set[str]) -> list[tuple[str, frozenset[str]]]:
    """The extras of the project's dependencies installed here (`httpx[http2]`) that bring what no
    extra or group of the project holds, each with what of it it brings: for each wanted name, the
    extra that brings it and the least besides."""
    found: dict[str, frozenset[str]] = {}
    for dependency in dependencies:
        try:
            offered = metadata(dependency).get_all("Provides-Extra") or []
        except PackageNotFoundError:
            continue
        plain = _brought([Requirement(dependency)], "", {})
        for extra in offered:
            adds = _brought([Requirement(f"{dependency}[{extra}]")], "", {}) - plain
            if adds & wanted:
                found[f"{dependency}[{extra}]"] = adds
    taken: list[tuple[str, frozenset[str]]] = []
    for name in sorted(wanted):
        holders = sorted((len(adds), extra) for extra, adds in found.items() if name in adds)
        if holders and all(name not in adds for _, adds in taken):
            extra = holders[0][1]
            taken.append((extra, found[extra] & wanted))
    return taken


def install_set(document: dict[str, object], needs: SuiteNeeds) -> InstallSet:
    """The install line and, in one line, why: what the tests need, which extras and groups hold it,
    and what two others that hold some of it would add."""
    provided, options = _project(document)
    held = frozenset().union(*(option.brings for option in options))
    guessed = {canonicalize_name(module): module for module in needs.unknown}  # a scan's modules, by name
    needed = (needs.distributions | (held & guessed.keys())) - provided
    nowhere = {name for name in needed if name not in held}
    nowhere |= {module for name, module in guessed.items() if name not in held | provided}
    chosen = sorted(_cheapest(options, needed & held, provided), key=str) if needed & held else []
    extras = ",".join(option.name for option in chosen if option.kind == "extra")
    groups = [f"--group {option.name}" for option in chosen if option.kind == "group"]
    dependencies = sorted(_dependency_names(document) | {name for option in chosen for name in option.names})
    with_extras = _dependency_extras(dependencies, nowhere)
    nowhere -= {name for _, names in with_extras for name in names}
    line = " ".join([f"-e .[{extras}]" if extras else "-e .", *groups, *(extra for extra, _ in with_extras)])
    if not needed and not nowhere:
        return InstallSet(line, f"{needs.how} nothing beyond the project's dependencies and pytest")
    parts = [f"{needs.how} {_listed(needed | nowhere)}"]
    if nowhere:
        parts[0] += f": no extra or group holds {_listed(nowhere)}"
    if with_extras:
        parts[0] += "; " + ", ".join(f"{extra} brings {_listed(names)}" for extra, names in with_extras)
    if chosen:
        names = [str(option) for option in chosen]
        holders = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        them = "the others" if nowhere else "it" if len(needed) == 1 else "them"
        held_by = f"{holders} {'has' if len(chosen) == 1 else 'have'} {them}"
        parts[0] += f"; {held_by}" if nowhere else f": {held_by}"
    brought = frozenset().union(*(option.brings for option in chosen)) | provided
    others = sorted((option for option in options if option not in chosen and option.brings & needed), key=str)
    parts += [f"{option} would add {_listed(option.added(brought))}" for option in others if option.added(brought)]
    return InstallSet(line, "; ".join(parts[:3]))
