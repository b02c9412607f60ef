"""The project's Python modules against a stored run (see `module_code`). A run keeps each module's
bytes; the next compares only the files whose bytes changed, each parsed as it was and as it is: a
function's code, a module's statements with effects, and the names whose module-level binding
changed (with every name bound from them, through the statements that refer to them: `Y = X + 1`,
`from a import X as Z`). A module's statements with effects also change when they refer to a changed
name, import a module the stored run had not loaded, or no longer run (collecting stopped loading it).
"""

import ast
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property

from mutcheck.reuse.module_code import (
    ANYWHERE,
    DYNAMIC,
    EVERY_NAME,
    RUNS_TEXT,
    ModuleCode,
    Statement,
    digest,
    dotted_name,
    parse_module,
    plain_class,
)

GONE = ""
ANNOTATIONS = "annotations"  # the `__future__` feature that leaves every annotation unevaluated
# Reaching any binding at all. Code run from text counts so in module-level statements; a
# function's (`spelled`) is weighed by the `text:` labels of the sinks it ran in.
_ANY = frozenset({ANYWHERE, RUNS_TEXT})


def _resolved(module: str, level: int, importer: str, package: bool) -> str:
    """An import's absolute module name, for one made in module `importer` (`package`: its `__init__`)."""
    if level == 0:
        return module
    parts = importer.split(".") if package else importer.split(".")[:-1]
    base = ".".join(parts[: len(parts) - (level - 1)]) if level - 1 <= len(parts) else ""
    return f"{base}.{module}" if base else module


def _bare(reference: str) -> str:
    """A reference's name alone (see `module_code._node_names`): "NAME", ".NAME" or "MODULE:NAME"."""
    return reference.rpartition(":")[2].lstrip(".")


def _attribute(entry: str) -> str:
    """The name an attribute reaches a binding by: a class's member ("MODULE:CLASS.NAME") by NAME."""
    return entry.rpartition(":")[2].rpartition(".")[2]


def _public_of(entry: str, module: str) -> bool:
    """Whether a binding ("MODULE:NAME") is one of `module`'s that a star import takes (no leading `_`)."""
    owner, _, name = entry.rpartition(":")
    return owner == module and not name.startswith("_") and "." not in name


def _special(qualname: str) -> bool:
    name = qualname.rpartition(".")[2]
    return name.startswith("__") and name.endswith("__")


class ProjectCode:
    """`read`: a module's bytes today (None: gone); `names`: module files' module names; `before`:
    the stored run's bytes of each module it kept, with the modules it had loaded (`loaded`) and the
    project's modules collecting loaded then (`collected_before`) and now (`collected_now`, None
    before collecting)."""

    def __init__(
        self,
        read: Callable[[str], bytes | None],
        names: Mapping[str, str],
        before: Mapping[str, bytes] | None = None,
        loaded: frozenset[str] = frozenset(),
        collected_before: frozenset[str] = frozenset(),
        collected_now: frozenset[str] | None = None,
    ) -> None:
        self.read = read
        self.module_names = dict(names)
        self.before = dict(before or {})
        self.loaded = loaded
        self.collected_before, self.collected_now = collected_before, collected_now
        self._sources: dict[str, bytes | None] = {}
        self._parsed: dict[tuple[str, bool], ModuleCode | None] = {}

    # -- today --------------------------------------------------------------------------------
    def source(self, path: str) -> bytes | None:
        if path not in self._sources:
            self._sources[path] = self.read(path)
        return self._sources[path]

    def digest(self, path: str) -> str:
        """The module's bytes today, as a label's value (GONE for none)."""
        source = self.source(path)
        return GONE if source is None else digest(source)

    def module(self, path: str, earlier: bool = False) -> ModuleCode | None:
        """The module as it is, or (`earlier`) as the stored run had it; None for none."""
        if (path, earlier) not in self._parsed:
            source = self.before.get(path) if earlier else self.source(path)
            self._parsed[path, earlier] = None if source is None else parse_module(source)
        return self._parsed[path, earlier]

    def _earlier(self, path: str, value: str) -> ModuleCode | None:
        """The module as the stored run had it, when the bytes it kept are those of `value`."""
        source = self.before.get(path)
        return self.module(path, earlier=True) if source is not None and digest(source) == value else None

    def module_name(self, path: str) -> str:
        """The module's name: as Python loaded it, or else as its path spells it."""
        if path in self.module_names:
            return self.module_names[path]
        parts = path.removesuffix(".py").split("/")
        parts = parts[1:] if parts[0] == "src" else parts
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    def _resolve(self, reference: str, path: str) -> str:
        """A variable's or an imported name's binding, as "MODULE:NAME" (see `changed_names`)."""
        module = self.module_name(path)
        if ":" not in reference:
            return f"{module}:{reference}"
        source, _, name = reference.rpartition(":")
        level = len(source) - len(source.lstrip("."))
        return f"{_resolved(source.lstrip('.'), level, module, path.endswith('__init__.py'))}:{name}"

    def _reached(self, references: Iterable[str], path: str, changed: set[str] | frozenset[str]) -> set[str]:
        """Which of the `changed` bindings the references of code in `path` reach: a variable by its
        own module's binding, an imported name by the binding it imports, an attribute by any
        module's binding of that name; DYNAMIC every binding of its own module and of the modules it
        names, "MODULE:**" every binding of that module, ANYWHERE any."""
        references = set(references)
        if references & _ANY:
            return set(changed)
        bare = {_attribute(entry) for entry in changed}
        found = set()
        for reference in references - {DYNAMIC}:
            if reference.startswith("."):
                if reference[1:] in bare:
                    found.add(reference[1:])
            elif reference.endswith(":" + EVERY_NAME):  # its module's `__dict__`: every binding there
                source = self._resolve(reference, path).removesuffix(":" + EVERY_NAME)
                found |= {entry for entry in changed if entry.rpartition(":")[0] == source}
            elif reference.endswith(":*"):  # a star import: every public name of its module
                source = self._resolve(reference, path).removesuffix(":*")
                found |= {entry for entry in changed if _public_of(entry, source)}
            elif (resolved := self._resolve(reference, path)) in changed:
                found.add(resolved)
        if DYNAMIC in references:
            modules = {self.module_name(path)} | self._named_modules(references, path)
            found |= {entry for entry in changed if entry.rpartition(":")[0] in modules}
        return found

    def _named_modules(self, references: Iterable[str], path: str) -> set[str]:
        """The modules the code names, through what its module's imports bound."""
        module = self.module(path)
        aliases = module.aliases if module else {}
        found = set()
        for reference in references:
            target = aliases.get(reference)
            if target is not None:
                level = len(target) - len(target.lstrip("."))
                found.add(_resolved(target.lstrip("."), level, self.module_name(path), path.endswith("__init__.py")))
        return found

    def hits(self, references: Iterable[str], path: str) -> list[str]:
        """The changed bindings (see `changed_names`) that references of code in `path` reach."""
        changed = self.changed_names
        return sorted(self._reached(references, path, changed)) if changed else []

    def names(self, path: str, qualname: str) -> frozenset[str]:
        """The names `qualname`'s code refers to: its function's or class's; for code of the
        module's own (a lambda or a comprehension at module level), its statements'; ANYWHERE for a
        file that is gone."""
        module = self.module(path)
        if module is None:
            return frozenset({ANYWHERE})
        holder = module.holder(qualname)
        if holder is not None:
            return module.names.get(holder, frozenset())
        return frozenset(name for statement in module.statements for name in statement.refers)

    def spelled(self, path: str, qualname: str) -> frozenset[str]:
        """`names`, less what code run from text reaches: the text a function ran is observed where it
        ran (every `exec` and `eval` of a sink, its `text:` labels), and text it did not run reached nothing."""
        return self.names(path, qualname) - {RUNS_TEXT}

    def members(self, path: str, qualname: str) -> frozenset[str]:
        """For a class's own code: the names its body binds and never reads (see `ModuleCode.members`),
        as its names spell them ("NAME", and "CLASS.NAME")."""
        module = self.module(path)
        found = module.members.get(qualname, frozenset()) if module is not None else frozenset()
        return found | {f"{qualname}.{name}" for name in found}

    # -- against the stored run ---------------------------------------------------------------
    @cached_property
    def changed_files(self) -> list[str]:
        """The modules whose bytes changed, appeared (collecting loads them now) or are gone."""
        paths = set(self.before) | (self.collected_now or frozenset())
        return sorted(path for path in paths if self.digest(path) != digest(self.before.get(path) or b"\0gone"))

    def code_changed(self, path: str, qualname: str, value: str) -> bool:
        """Whether `qualname`'s code differs from what it was when its file's bytes were `value`. A class
        body's code is its class statement's, which counts by what it binds and does (see
        `changed_names`, `effects_changed`): not here."""
        if self.digest(path) == value:
            return False
        earlier, now = self._earlier(path, value), self.module(path)
        if earlier is None or now is None:
            return True
        holder = earlier.holder(qualname) or now.holder(qualname)
        if holder is not None and (holder in earlier.classes or holder in now.classes):
            return False
        return earlier.code(qualname) != now.code(qualname)

    @cached_property
    def changed_names(self) -> frozenset[str]:
        """The module-level bindings that differ from the stored run's, as "MODULE:NAME", with every
        binding made by a statement that refers to one of them (in its module, or imported from it)."""
        changed: set[str] = set()
        for path in self.changed_files:
            earlier, now = self.module(path, earlier=True), self.module(path)
            before = earlier.binds if earlier else {}
            today = now.binds if now else {}
            module = self.module_name(path)
            changed |= {f"{module}:{n}" for n in before.keys() | today.keys() if before.get(n) != today.get(n)}
            if earlier and now and ANNOTATIONS in earlier.future ^ now.future:  # each annotation now reads otherwise
                annotated = [statement for statement in now.statements if statement.annotations]
                changed |= {f"{module}:{name}" for statement in annotated for name in statement.binds}
                if any(isinstance(statement.node, ast.AnnAssign) for statement in annotated):
                    changed.add(f"{module}:__annotations__")
        if not changed:
            return frozenset()
        # each statement by the names it refers to: only those that refer to a newly changed name are looked at
        referring: dict[str, list[tuple[str, Statement]]] = {}
        dynamic: list[tuple[str, Statement]] = []
        for path in sorted(set(self.before) | (self.collected_now or frozenset())):
            for statement in self.module(path).statements if self.module(path) else ():
                if statement.refers & {DYNAMIC, *_ANY} or any(ref.endswith((":*", ":**")) for ref in statement.refers):
                    dynamic.append((path, statement))  # looked at whatever changed
                for reference in statement.refers:
                    referring.setdefault(_bare(reference), []).append((path, statement))
        pending = set(changed)
        while pending:
            bare = {entry.rpartition(":")[2] for entry in pending} | {_attribute(entry) for entry in pending}
            candidates = [pair for name in bare for pair in referring.get(name, ())] + dynamic
            pending = set()
            for path, statement in candidates:
                module = self.module_name(path)
                for binds, refers in statement.parts:
                    bound = {f"{module}:{name}" for name in binds} - changed
                    reached = self._reached(refers, path, changed)
                    stars = [ref for ref in refers if ref.endswith(":*")]
                    if stars:  # a star import binds here the changed public names of its module
                        bound |= {f"{module}:{entry.rpartition(':')[2]}" for entry in reached} - changed
                    if bound and reached:
                        changed |= bound
                        pending |= bound
        return frozenset(changed)

    # -- class statements' bases in other modules -------------------------------------------------
    @cached_property
    def _paths(self) -> dict[str, str]:
        """Each module's file, by the module's name."""
        return {self.module_name(path): path for path in set(self.module_names) | set(self.before)}

    def _defined(self, path: str, name: str, seen: frozenset[str] = frozenset()) -> tuple[str, str] | None:
        """Where the name `name` (dotted) used in module `path` is a class of the project: its file and
        the class's name there, through the module's imports (and re-exports); None for none."""
        head, _, rest = name.partition(".")
        module = self.module(path)
        if module is None or (path, name) in seen:
            return None
        if not rest and head in module.top_classes:
            return path, head
        target = module.aliases.get(head)
        if target is None:
            return None
        level = len(target) - len(target.lstrip("."))
        full = _resolved(target.lstrip("."), level, self.module_name(path), path.endswith("__init__.py"))
        full = f"{full}.{rest}" if rest else full
        owner, _, member = full.rpartition(".")
        if full in self._paths and not member:
            return None
        if owner in self._paths:
            return self._defined(self._paths[owner], member, seen | {(path, name)})
        return None

    def _plain_base(self, path: str, name: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether a class statement's base, defined in another module of the project, makes nothing
        run when a class derives from it (see `module_code.plain_class`), its own bases too."""
        found = self._defined(path, name)
        if found is None or found in seen:
            return False
        where, cls = found
        node = self.module(where).top_classes[cls]
        if not plain_class(node):
            return False
        module = self.module(where)
        statement_bases = next((st.bases for st in module.statements if st.node is node), None)
        if statement_bases is None:  # not at the module's top: its bases as written
            statement_bases = tuple(
                b
                for b in (dotted_name(base.value if isinstance(base, ast.Subscript) else base) for base in node.bases)
                if b
            )
        return all(self._plain_base(where, base, seen | {found}) for base in statement_bases)

    def has_effects(self, path: str, statement: Statement) -> bool:
        """With effects, a class statement's bases in other modules of the project judged by their code."""
        if statement.own_effects:
            return True
        return any(base == "?" or not self._plain_base(path, base) for base in statement.bases)

    def _effects_digest(self, path: str, module: ModuleCode) -> str:
        return module.effects(lambda statement: self.has_effects(path, statement))

    def effects_changed(self, path: str, value: str) -> bool:
        """Whether the module's statements with effects act otherwise than when its bytes were `value`."""
        return self.effects_changed_itself(path, value) or self.effects_reach_changed(path)

    def effects_changed_itself(self, path: str, value: str) -> bool:
        """`effects_changed` by the module's own bytes alone (no other module's bindings looked at)."""
        if self.collected_now is not None and path in self.collected_before and path not in self.collected_now:
            return True  # collecting no longer loads it: its effects are gone from every process
        if self.digest(path) == value:
            return False
        now = self.module(path)
        if now is None:
            return True
        earlier = self._earlier(path, value)
        if earlier is None or self._effects_digest(path, earlier) != self._effects_digest(path, now):
            return True
        return self._future_acts(path, earlier, now) or self._new_imports(path, earlier, now)

    def effects_reach_changed(self, path: str) -> bool:
        """Whether one of the module's statements with effects refers to a changed binding."""
        if not self.changed_names:
            return False
        now = self.module(path)
        if now is None:
            return True
        return any(
            self.has_effects(path, statement) and self.hits(statement.refers, path) for statement in now.statements
        )

    def _future_acts(self, path: str, earlier: ModuleCode, now: ModuleCode) -> bool:
        """Whether a changed `from __future__ import` changes what the module's statements do: any
        feature but `annotations`, or with it a statement with effects that evaluates annotations (a
        decorator or a registration may read them), or an annotation that calls. Otherwise only the
        bindings of the annotated definitions change (see `changed_names`)."""
        toggled = earlier.future ^ now.future
        if not toggled:
            return False
        if toggled != {ANNOTATIONS}:
            return True
        return any(
            statement.annotations and (self.has_effects(path, statement) or statement.annotations_call)
            for module in (earlier, now)
            for statement in module.statements
        )

    def _new_imports(self, path: str, earlier: ModuleCode, now: ModuleCode) -> bool:
        """An import statement changed, of a module the stored run had not loaded: its module's code runs."""
        before = earlier.binds
        importer = self.module_names.get(path, "")
        for statement in now.statements:
            if not statement.imports or all(before.get(name) == now.binds.get(name) for name in statement.binds):
                continue
            for module, level in statement.imports:
                name = _resolved(module, level, importer, path.endswith("__init__.py"))
                if name.partition(".")[0] == "__future__":  # a compiler directive (see `_future_acts`)
                    continue
                if name not in self.loaded and name.rpartition(".")[0] not in self.loaded:
                    return True
        return False

    def appeared(self) -> list[str]:
        """The modules collecting loads now, new since the stored run, that have statements with
        effects (they run in every test's process): as `effects:` labels."""
        new = (self.collected_now or frozenset()) - set(self.before)
        return [f"effects:{path}" for path in sorted(new) if self._any_effects(path)]

    def _any_effects(self, path: str) -> bool:
        module = self.module(path)
        return module is not None and module.effects_any(lambda statement: self.has_effects(path, statement))

    # -- code reached by name, where it was not watched ---------------------------------------------
    @cached_property
    def _index(self) -> tuple[dict[str, set[str]], set[str]]:
        """Over today's modules: each function by its own name ("PATH::QUALNAME"; a class's name
        brings its special methods, which Python calls without their names), and pytest's hooks."""
        by_name: dict[str, set[str]] = {}
        hooks: set[str] = set()
        for path in sorted(set(self.before) | set(self.module_names) | (self.collected_now or frozenset())):
            module = self.module(path)
            for qualname in module.functions if module else ():
                own = qualname.rpartition(".")[2]
                by_name.setdefault(own, set()).add(f"{path}::{qualname}")
                if own.startswith("pytest_") and "." not in qualname:
                    hooks.add(own)
            for qualname, methods in module.methods.items() if module else ():
                special = {f"{path}::{method}" for method in methods if _special(method)}
                by_name.setdefault(qualname.rpartition(".")[2], set()).update(special)
        return by_name, hooks

    @cached_property
    def reaching_changes(self) -> frozenset[str]:
        """The names that lead, by name, to code that changed: the own name of each function whose code
        changed or refers to a changed binding (a special method's class's too), then the name of
        every function whose code refers to one of those (and of every function that reaches names
        it does not spell)."""
        changed: set[str] = set()
        for path in self.changed_files:
            value = digest(self.before[path]) if path in self.before else "\0gone"
            for module in (self.module(path), self.module(path, earlier=True)):
                for qualname in module.functions if module else ():
                    if self.code_changed(path, qualname, value):
                        changed |= self._own_names(qualname)
        if not changed and not self.changed_names:
            return frozenset()
        by_name, _ = self._index
        if self.changed_names:
            for labels in by_name.values():
                for label in labels:
                    path, _, qualname = label.partition("::")
                    if self.hits(self.spelled(path, qualname), path):
                        changed |= self._own_names(qualname)
        if not changed:
            return frozenset()
        referrers: dict[str, set[str]] = {}
        for name, labels in by_name.items():
            for label in labels:
                path, _, qualname = label.partition("::")
                for referred in self.spelled(path, qualname):
                    dynamic = referred in (DYNAMIC, *_ANY)
                    referrers.setdefault(DYNAMIC if dynamic else _bare(referred), set()).add(name)
        reaching = changed | referrers.get(DYNAMIC, set())
        pending = list(reaching)
        while pending:
            for name in referrers.get(pending.pop(), ()):
                if name not in reaching:
                    reaching.add(name)
                    pending.append(name)
        return frozenset(reaching)

    @staticmethod
    def _own_names(qualname: str) -> set[str]:
        """A function's own name; a special method's class's too (Python calls it by the class)."""
        parts = qualname.split(".")
        return {parts[-1], *(parts[-2:-1] if _special(qualname) else [])}

    @cached_property
    def module_level_names(self) -> frozenset[str]:
        """The names the modules' own statements refer to (imports apart): what ran at import refers to them."""
        return frozenset(
            DYNAMIC if name in (DYNAMIC, *_ANY) else _bare(name)
            for path in sorted(self.before)
            if (module := self.module(path))
            for statement in module.statements
            if not statement.imports
            for name in statement.refers
        )

    def reach_changed(self, code: Iterable[str], names: Iterable[str]) -> list[str]:
        """Where the code a test ran under a mutant was not watched: the changed names reachable by
        name from the code it ran unmutated (`code`, "PATH::QUALNAME"), from `names` (the mutant's
        own), or from pytest's hooks ([] when none)."""
        reaching = self.reaching_changes
        if not reaching:
            return []
        start = set(names) | self._index[1]
        for label in code:
            path, _, qualname = label.partition("::")
            # its own code counts by its own label: from here, what it refers to
            start |= {DYNAMIC if name in (DYNAMIC, *_ANY) else _bare(name) for name in self.spelled(path, qualname)}
        if DYNAMIC in start:
            return [DYNAMIC]
        return sorted(start & reaching)
