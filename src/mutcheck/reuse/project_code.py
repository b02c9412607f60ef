"""The project's Python modules as reuse compares them (see `module_code`), each parsed once; and,
against a stored run, the names whose module-level binding changed (with every name bound from
them, through the statements that refer to them: `Y = X + 1`, `from a import X as Z`) and the
modules whose statements with effects changed (or refer to a changed name, or import a module the
stored run had not loaded).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property

from mutcheck.reuse.module_code import DYNAMIC, ModuleCode, digest, parse_module, plain_classes_of

CHANGED = "changed"


@dataclass(frozen=True)
class ModuleSummary:
    """What the store keeps of one project module: enough to tell what in it changed."""

    name: str  # the module's name
    whole: str  # its bytes
    binds: dict[str, str]  # see `ModuleCode.binds`
    effects: str
    plain: list[str]  # its plain classes (see `module_code`)


def _resolved(module: str, level: int, importer: str, package: bool) -> str:
    """An import's absolute module name, for one made in module `importer` (`package`: its `__init__`)."""
    if level == 0:
        return module
    parts = importer.split(".") if package else importer.split(".")[:-1]
    base = ".".join(parts[: len(parts) - (level - 1)]) if level - 1 <= len(parts) else ""
    return f"{base}.{module}" if base else module


class ProjectCode:
    """Today's code of the project's modules. `read`: a module's bytes (None: gone); `names`: each
    module file's module name; `stored`: what a stored run kept of them, with the modules it had
    loaded (`loaded`) and the project's modules collecting had loaded then (`collected_before`) and
    now (`collected_now`, None before collecting) — the changes are against those."""

    def __init__(
        self,
        read: Callable[[str], bytes | None],
        names: Mapping[str, str],
        stored: Mapping[str, ModuleSummary] | None = None,
        loaded: frozenset[str] = frozenset(),
        collected_before: frozenset[str] = frozenset(),
        collected_now: frozenset[str] | None = None,
    ) -> None:
        self.read = read
        self.stored = dict(stored or {})
        self.module_names = {**{path: summary.name for path, summary in self.stored.items()}, **names}
        self.loaded = loaded
        self.collected_before, self.collected_now = collected_before, collected_now
        self._sources: dict[str, bytes | None] = {}
        self._parsed: dict[str, ModuleCode | None] = {}

    def as_it_is(self) -> "ProjectCode":
        """Today's code compared with nothing (what a run keeps), the files read and parsed shared."""
        plain = self.plain_classes
        itself = ProjectCode(self.read, self.module_names, collected_now=self.collected_now)
        itself._sources, itself._parsed = self._sources, self._parsed
        itself.__dict__["plain_classes"] = plain
        return itself

    def source(self, path: str) -> bytes | None:
        if path not in self._sources:
            self._sources[path] = self.read(path)
        return self._sources[path]

    def _unchanged(self, path: str) -> bool:
        stored, source = self.stored.get(path), self.source(path)
        return stored is not None and source is not None and digest(source) == stored.whole

    @cached_property
    def plain_classes(self) -> frozenset[str]:
        """The project's plain classes by name: a module unchanged since the stored run keeps its list."""
        found: set[str] = set()
        fresh = []
        for path in self.module_names:
            if self._unchanged(path):
                found |= set(self.stored[path].plain)
            elif (source := self.source(path)) is not None:
                fresh.append(source)
        return frozenset(found | plain_classes_of(fresh))

    def module(self, path: str) -> ModuleCode | None:
        if path not in self._parsed:
            source = self.source(path)
            self._parsed[path] = None if source is None else parse_module(source, self.plain_classes)
        return self._parsed[path]

    def summary(self, path: str) -> ModuleSummary | None:
        module = self.module(path)
        if module is None:
            return None
        plain = sorted(plain_classes_of([self.source(path) or b""]))
        return ModuleSummary(self.module_names.get(path, ""), module.whole, module.binds, module.effects, plain)

    def code(self, path: str, qualname: str) -> str:
        module = self.module(path)
        return module.code(qualname) if module else ""

    def names(self, path: str, qualname: str) -> frozenset[str]:
        """The names `qualname`'s code refers to: its function's or class's; for code of the
        module's own (a lambda or a comprehension at module level), its statements'; DYNAMIC for a
        file that is gone."""
        module = self.module(path)
        if module is None:
            return frozenset({DYNAMIC})
        holder = module.holder(qualname)
        if holder is not None:
            return module.names.get(holder, frozenset())
        return frozenset(name for statement in module.statements for name in statement.refers)

    # -- against the stored run ----------------------------------------------------------------
    @cached_property
    def _compared(self) -> list[str]:
        """The modules the stored run had, and those collecting loads now that it had not."""
        return sorted(set(self.stored) | (self.collected_now or frozenset()))

    def appeared(self) -> list[str]:
        """The modules collecting loads now, new since the stored run, that have statements with
        effects (they run in every test's process): as `effects:` labels."""
        new = (self.collected_now or frozenset()) - set(self.stored)
        return [f"effects:{path}" for path in sorted(new) if (module := self.module(path)) and module.effects_any]

    def _today_binds(self, path: str) -> dict[str, str]:
        if self._unchanged(path) and self.plain_classes == self._stored_plain:
            return self.stored[path].binds
        module = self.module(path)
        return module.binds if module else {}

    @cached_property
    def _stored_plain(self) -> frozenset[str]:
        return frozenset(name for summary in self.stored.values() for name in summary.plain)

    @cached_property
    def changed_names(self) -> frozenset[str]:
        """The names bound differently at module level than in the stored run, anywhere in the
        project, with every name bound by a statement that refers to one of them."""
        changed: set[str] = set()
        for path, summary in self.stored.items():
            today = self._today_binds(path)
            changed |= {
                name for name in summary.binds.keys() | today.keys() if summary.binds.get(name) != today.get(name)
            }
        if not changed:
            return frozenset()
        statements = [
            statement for path in self.stored if (module := self.module(path)) for statement in module.statements
        ]
        growing = True
        while growing:
            growing = False
            for statement in statements:
                if statement.refers & changed and not statement.binds <= changed:
                    changed |= statement.binds
                    growing = True
        return frozenset(changed)

    def effects(self, path: str) -> str:
        """Today's digest of the module's statements with effects, or CHANGED (see the module doc)."""
        module = self.module(path)
        if module is None:
            return ""
        if self.collected_now is not None and path in self.collected_before and path not in self.collected_now:
            return CHANGED  # collecting no longer loads it: its effects are gone from every process
        stored = self.stored.get(path)
        if stored is None or (
            self._unchanged(path) and self.plain_classes == self._stored_plain and not self.changed_names
        ):
            return module.effects
        changed = self.changed_names
        for statement in module.statements:
            if statement.effects and (statement.refers & changed or (DYNAMIC in statement.refers and changed)):
                return CHANGED
            new_import = statement.binds and {
                name for name in statement.binds if stored.binds.get(name) != module.binds.get(name)
            }
            if new_import and statement.imports and not self._loaded(statement.imports, path):
                return CHANGED
        return module.effects

    def _loaded(self, imports: tuple[tuple[str, int], ...], path: str) -> bool:
        importer = self.module_names.get(path, "")
        for module, level in imports:
            name = _resolved(module, level, importer, path.endswith("__init__.py"))
            if name not in self.loaded and name.rpartition(".")[0] not in self.loaded:
                return False
        return True
