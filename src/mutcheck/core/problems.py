"""User-facing problems with configuration and catalog input, each naming where it was found."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    source: str  # the file, relative to the project root
    entry: str  # the catalog entry id, or "" for file-level problems
    field: str  # the offending key, or "" when the whole entry or file is at fault
    message: str
    details: str = ""  # lines shown under the problem's own, indented (what pytest said)

    def __str__(self) -> str:
        where = ": ".join(part for part in (self.source, self.entry, self.field) if part)
        details = [f"  {_one_line(line)}" for line in self.details.split("\n") if line]
        return "\n".join([_one_line(f"{where}: {self.message}"), *details])

    @classmethod
    def with_details(cls, source: str, field: str, text: str) -> "Problem":
        """A file-level problem from a text of several lines: its first line, then the others."""
        message, _, details = text.partition("\n")
        return cls(source, "", field, message, details)


def _one_line(text: str) -> str:
    """Control characters written as escapes, so that input text cannot break or fake a line."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


class InputError(Exception):
    """Raised with every problem found, so the user can fix them all in one pass."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(problem) for problem in problems))
        self.problems = problems
