"""A mutcheck command run in-process on a fixture project, checked to have ended without a traceback."""

from pathlib import Path

from click.testing import CliRunner

from mutcheck.cli import main

CATALOG_FILE = "mutants/catalog.toml"  # where the fixture project's catalog is


def invoke(project: Path, *args: str) -> tuple[int, str]:
    """The exit status and output of `mutcheck ARGS --project PROJECT`."""
    result = CliRunner().invoke(main, [*args, "--project", str(project)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result.exit_code, result.output
