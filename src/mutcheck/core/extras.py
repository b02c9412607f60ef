"""The optional dependencies (extras): when one is missing, a line that names the extra to install."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

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
        install = f"pip install 'mutcheck[{extra.name}]'"
        if isinstance(error, ModuleNotFoundError) and name in extra.modules:
            message = f"needs {extra.package}: {install}"
        else:  # e.g. an older release, installed before or apart from mutcheck
            message = f"the installed {extra.package} is a version mutcheck does not support (at {name}): {install}"
        raise InputError([Problem(source, "", field, message)]) from None
