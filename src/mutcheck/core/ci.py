"""Whether mutcheck runs in CI."""

import os


def in_ci() -> bool:
    """The `CI` environment variable says so, as GitHub Actions, GitLab and most CI services set it."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off")
