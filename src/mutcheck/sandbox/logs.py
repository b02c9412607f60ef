"""The hosts' logs, read from their end: under `-s` a suite may print gigabytes; the last lines say why it stopped."""

from pathlib import Path

TAIL_BYTES = 1 << 20  # far more than any error's last lines, far less than what a chatty suite prints


def log_tail(path: Path, limit: int = TAIL_BYTES) -> str:
    """The last `limit` bytes of a log as text (from a whole line on), or "" when there is none."""
    try:
        with path.open("rb") as log:
            size = log.seek(0, 2)
            log.seek(max(0, size - limit))
            tail = log.read()
    except FileNotFoundError:
        return ""
    if len(tail) < size:
        tail = tail.partition(b"\n")[2]  # the first line is cut: dropped
    return tail.decode("utf-8", errors="replace")
