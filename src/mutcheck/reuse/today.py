"""Each label's value today (see `labels`): files and folders inside the project as the run's copy
holds them, before any test ran (what the copy took, each file unchanged since), files outside as
they are, the environment as this process has it, the project's code by its files' bytes (what in
them changed is told by `project_code`). A file's bytes are read once and kept by its status (device,
inode, size, times; see `FileStatus`) between runs.
"""

import os
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from mutcheck.reuse.key import READ_IN_PART, pytest_config
from mutcheck.reuse.labels import CODE, CONFIG, EFFECTS, ENV, IMPORT, LIST, ORDER, PROBE, READ, kind_of
from mutcheck.reuse.module_code import digest
from mutcheck.reuse.project_code import ProjectCode
from mutcheck.sandbox.scratch import FileStatus, file_status

ABSENT = ""
CHANGED_DURING_RUN = "changed while the run copied it"
# Left out of the whole environment (`env:*`): set by pytest or mutcheck for their own processes, or by
# the shell for itself (where it is, how deep); a test that reads one of these by name still counts it.
_ENVIRONMENT_OWN = ("PYTEST_CURRENT_TEST", "MUTCHECK_")
_SHELL_OWN = frozenset({"_", "PWD", "OLDPWD", "SHLVL", "PS1", "PS2", "PROMPT_COMMAND", "COLUMNS", "LINES"})


class FileDigests:
    """Files' bytes as digests, read again only when a file's status changed since it was read
    (a write changes the status-change time, which no one can set back)."""

    def __init__(self, known: Mapping[str, tuple[FileStatus, str]] | None = None) -> None:
        self.known: dict[str, tuple[FileStatus, str]] = dict(known or {})
        self.used: dict[str, tuple[FileStatus, str]] = {}  # what this run read or confirmed: kept for the next

    def of(self, path: str) -> str:
        """The file's digest; ABSENT for none (or a folder, or one that cannot be read)."""
        status = file_status(path)
        if status is None:
            return ABSENT
        cached = self.known.get(path)
        if cached is not None and tuple(cached[0]) == status:
            self.used[path] = cached
            return cached[1]
        try:
            with open(path, "rb") as file:
                value = digest(file.read())
        except OSError:
            return ABSENT
        if file_status(path) == status:  # not written while read
            self.used[path] = self.known[path] = (status, value)
        return value


def _listing(entries: Iterable[tuple[str, bool]]) -> str:
    return digest("\0".join(f"{name}{'/' if folder else ''}" for name, folder in sorted(entries)))


def _kind(path: str) -> str:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ABSENT
    return "folder" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else "other"


class ProjectFiles:
    """The project's files as the run's copy took them: which it took (see `scratch.project_files`),
    and each one's status then, so that one changed since reads as CHANGED_DURING_RUN."""

    def __init__(self, root: Path, copied: Mapping[str, FileStatus | None]) -> None:
        self.root = root
        self.copied = copied  # relative path -> its status when copied (None: not checked)
        self.children: dict[str, dict[str, bool]] = {".": {}}  # folder -> its entries (True: a folder)
        for path in copied:
            parts = path.split("/")
            folder = "."
            for depth, part in enumerate(parts):
                entries = self.children.setdefault(folder, {})
                entries[part] = entries.get(part, False) or depth < len(parts) - 1
                folder = part if folder == "." else f"{folder}/{part}"

    def linked(self, path: str) -> str | None:
        """The entry of the copy that `path` lies under when that entry is a link to a folder."""
        parent = os.path.dirname(path)
        while parent:
            if parent in self.copied:
                return parent
            parent = os.path.dirname(parent)
        return None

    def taken(self, path: str) -> bool:
        return path in self.copied or self.linked(path) is not None

    def unchanged(self, path: str) -> bool:
        """Whether the project's file is as the copy took it (a file the copy did not check is)."""
        status = self.copied.get(path)
        return status is None or file_status(self.root / path) == status

    def entries(self, path: str) -> list[tuple[str, bool]]:
        return list(self.children.get(path, {}).items())


class Today:
    """Today's value of each label, each worked out once; `suite`: the tests collected, in order."""

    def __init__(
        self,
        files: ProjectFiles,
        environment: Mapping[str, str],
        digests: FileDigests,
        code: ProjectCode,
        suite: Iterable[str] = (),
    ) -> None:
        self.files = files
        self.environment = environment
        self.digests = digests
        self.code = code
        self.suite = list(suite)
        self.positions = {test: position for position, test in enumerate(self.suite)}
        self.values: dict[str, str] = {}

    def value(self, text: str) -> str:
        if text not in self.values:
            self.values[text] = self._value(text)
        return self.values[text]

    def _value(self, text: str) -> str:
        kind, name = kind_of(text)
        if kind == ENV:
            return self.variable(name)
        if kind == CODE:  # the bytes of its file (see `project_code`)
            return self.code.digest(name.partition("::")[0])
        if kind == EFFECTS:
            return self.code.digest(name)
        if kind in (READ, IMPORT):
            return self.file(name)
        if kind == CONFIG:
            return self.config(name)
        if kind == LIST:
            return self.listing(name)
        if kind == PROBE:
            return self.probe(name)
        if kind == ORDER:
            return self.order(name)
        return ABSENT

    def order(self, test: str) -> str:
        if test not in self.positions:
            return ABSENT
        return digest("\0".join(self.suite[: self.positions[test] + 1]))

    def variable(self, name: str) -> str:
        if name == "*":
            kept = sorted(
                (key, value)
                for key, value in self.environment.items()
                if not key.startswith(_ENVIRONMENT_OWN) and key not in _SHELL_OWN
            )
            return digest("\0".join(f"{key}={value}" for key, value in kept))
        value = self.environment.get(name)
        return ABSENT if value is None else digest(value)

    def _inside(self, path: str) -> str | None:
        """The real path of a project file as the copy took it; None for one it did not take."""
        if not self.files.taken(path):
            return None
        return str(self.files.root / path)

    def file(self, path: str) -> str:
        if os.path.isabs(path):
            return self.digests.of(path)
        real = self._inside(path)
        if real is None:
            return ABSENT
        if not self.files.unchanged(path):
            return CHANGED_DURING_RUN
        return self.digests.of(real)

    def config(self, path: str) -> str:
        """What pytest takes from a file it looked at for its settings (see `key.pytest_config`)."""
        value = self.file(path)
        if value in (ABSENT, CHANGED_DURING_RUN) or os.path.basename(path) not in READ_IN_PART:
            return value  # a file taken whole: its bytes, as `file` has them
        real = path if os.path.isabs(path) else self._inside(path)
        return value if real is None else pytest_config(Path(real)) or ABSENT

    def listing(self, path: str) -> str:
        if not os.path.isabs(path):
            if self.files.linked(path) is None and path in self.files.children:
                return _listing(self.files.entries(path))
            if (real := self._inside(path)) is None:
                return ABSENT
            path = real
        try:
            with os.scandir(path) as entries:
                return _listing((entry.name, entry.is_dir()) for entry in entries)
        except OSError:
            return ABSENT

    def probe(self, path: str) -> str:
        if not os.path.isabs(path):
            if self.files.linked(path) is None:
                return "folder" if path in self.files.children else "file" if path in self.files.copied else ABSENT
            if (real := self._inside(path)) is None:
                return ABSENT
            path = real
        return _kind(path)


def project_reader(files: ProjectFiles) -> Callable[[str], bytes | None]:
    """A project module's bytes as the copy took it (None: gone, or not taken)."""

    def read(path: str) -> bytes | None:
        if not files.taken(path) or not files.unchanged(path):
            return None
        try:
            return (files.root / path).read_bytes()
        except OSError:
            return None

    return read
