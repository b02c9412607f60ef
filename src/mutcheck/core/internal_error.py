"""An exception mutcheck did not expect: one line for the user, the whole traceback in a file."""

import os
import platform
import tempfile
import traceback

from mutcheck import __version__

_SUMMARY_LIMIT = 200


def report_internal_error(error: BaseException) -> str:
    """Write the traceback to a new file in the temporary directory; the line to print."""
    descriptor, path = tempfile.mkstemp(prefix="mutcheck-internal-error-", suffix=".txt")
    with os.fdopen(descriptor, "w", encoding="utf-8") as details:
        details.write(f"mutcheck {__version__}, Python {platform.python_version()}\n")
        details.write("".join(traceback.format_exception(error)))
    lines = str(error).strip().splitlines()
    summary = lines[0][:_SUMMARY_LIMIT] if lines else ""
    return f"internal error: {type(error).__name__}{': ' + summary if summary else ''}; details in {path}"
