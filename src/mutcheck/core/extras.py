"""The optional dependencies (extras): when one is missing, a line that names the extra and the
command that adds it to the installation mutcheck runs from."""

import json
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, distribution
from urllib.parse import unquote, urlparse

from mutcheck.core.problems import InputError, Problem


@dataclass(frozen=True)
class Extra:
    name: str  # as in `pip install 'mutcheck[name]'`
    package: str  # the distribution it is for, by the name its users know
    modules: tuple[str, ...]  # the top-level modules it brings that mutcheck imports


GITHUB = Extra("github", "PyGithub", ("github", "requests"))  # `mutcheck comment`
GENERIC = Extra("generic", "mutmut", ("mutmut",))  # `--generic`


@contextmanager
def importing(extra: Extra, source: str, field: str = "") -> Iterator[None]:
    """Around the imports that need `extra`: its package missing, or present in a version without what
    mutcheck imports from it, is one problem naming `source` and `field` (what asked for the extra)."""
    try:
        yield
    except ImportError as error:
        name = error.name or ""
        if name.split(".")[0] not in extra.modules:
            raise
        install = install_command(extra)
        if isinstance(error, ModuleNotFoundError) and name in extra.modules:
            message = f"needs {extra.package}: {install}"
        else:  # e.g. an older release, installed before or apart from mutcheck
            message = f"the installed {extra.package} is a version mutcheck does not support (at {name}): {install}"
        raise InputError([Problem(source, "", field, message)]) from None


def install_command(extra: Extra) -> str:
    """The pip command that adds `extra` to this installation: for this Python, from where mutcheck
    was installed (a folder, editable or not, an archive, a VCS commit: PEP 610's record), else from
    the package index."""
    try:
        record = distribution("mutcheck").read_text("direct_url.json")
        origin = json.loads(record) if record else None
    except (PackageNotFoundError, ValueError):
        origin = None
    requirement = f"mutcheck[{extra.name}]"
    if isinstance(origin, dict) and isinstance(url := origin.get("url"), str):
        if url.startswith("file://"):
            editable = "-e " if origin.get("dir_info", {}).get("editable") else ""
            local = unquote(urlparse(url).path) + f"[{extra.name}]"
            return f"{shlex.quote(sys.executable)} -m pip install {editable}{shlex.quote(local)}"
        if vcs := origin.get("vcs_info"):
            requirement = f"{requirement} @ {vcs.get('vcs')}+{url}@{vcs.get('commit_id')}"
        else:
            requirement = f"{requirement} @ {url}"
    return f"{shlex.quote(sys.executable)} -m pip install {shlex.quote(requirement)}"
