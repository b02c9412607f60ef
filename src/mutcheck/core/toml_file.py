"""TOML input files read strictly: UTF-8 text that parses, or a Problem naming the file."""

import tomllib
from pathlib import Path

from mutcheck.core.problems import Problem


def read_toml(path: Path, source: str) -> tuple[dict[str, object], list[Problem]]:
    """The document at `path` (named `source` in problems), or an empty one and why it cannot be read."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        return {}, [Problem(source, "", "", f"not UTF-8 (byte {error.start} is {error.object[error.start]:#04x})")]
    except OSError as error:
        return {}, [Problem(source, "", "", f"cannot be read: {error.strerror}")]
    try:
        return tomllib.loads(text), []
    except tomllib.TOMLDecodeError as error:
        return {}, [Problem(source, "", "", f"not valid TOML: {error}")]
