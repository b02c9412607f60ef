"""The host's events: JSON lines, each written whole to one file descriptor (a pipe to its reader)."""

import json
import os
from typing import Any


class EventWriter:
    """JSON lines to one file descriptor, each written whole."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, event: dict[str, Any]) -> None:
        self.write_line(json.dumps(event))

    def write_line(self, line: str) -> None:
        data = (line + "\n").encode()
        while data:
            data = data[os.write(self.fd, data) :]
