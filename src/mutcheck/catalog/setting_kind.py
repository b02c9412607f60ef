"""What each setting of a run can change, marked on its field: the reuse keys and the run's facts take
every field by its kind, so that a setting added anywhere is never left out of one of them."""

from dataclasses import MISSING, Field, field, fields
from typing import Any

OUTCOME = "outcome"  # can change a test's outcome under a mutant: every stored outcome is keyed by it
CHOICE = "choice"  # chooses the mutants or what the results say: a run taken whole must have the same
PLACE = "place"  # where the run reads or writes, or whether it reuses: no result depends on it
CONFIGURED = "configured"  # a command-line value for the configuration's field of that name: its kind is that field's
KINDS = (OUTCOME, CHOICE, PLACE, CONFIGURED)


def setting(kind: str, default: Any = MISSING) -> Any:
    """A dataclass field holding a setting of `kind`."""
    if kind not in KINDS:
        raise ValueError(f"unknown setting kind {kind!r}")
    return field(default=default, metadata={"kind": kind})


def kind_of(each: Field) -> str:
    """A field's kind; a field with none is a mistake of ours, said by name."""
    kind = each.metadata.get("kind")
    if kind not in KINDS:
        raise TypeError(f"setting {each.name!r} has no kind: mark it with setting(OUTCOME | CHOICE | PLACE, …)")
    return kind


def settings_of(instance: Any, *kinds: str) -> dict[str, Any]:
    """The values of `instance`'s fields of these kinds, by name, in their declared order."""
    return {each.name: getattr(instance, each.name) for each in fields(instance) if kind_of(each) in kinds}
