"""A source text imported as a module of its own from a file, as a host holds its target's live functions."""

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType


def load(tmp_path: Path, source: str, name: str) -> tuple[ModuleType, str]:
    """`source` written to `name`.py under `tmp_path` and imported: the module and its real path."""
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module, os.path.realpath(path)
