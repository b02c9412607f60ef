"""A small fixture project run by mutcheck and by one plain pytest per mutant, and the one mutant's
verdict and killing tests compared: the check every run-level test of a selection rule makes."""

from pathlib import Path

from tests.mutcheck.cli_runs import mutant, run
from tests.mutcheck.engine_project import FAMILIES, pyproject, write_files
from tests.mutcheck.naive import naive_run_of


def killed_as_in_a_plain_run(
    root: Path, name: str, files: dict[str, str], mutant_id: str, killers: list[str]
) -> tuple[dict, dict]:
    """The project of `files` (with a pyproject named `name` and the families) run by mutcheck and by a
    plain pytest run: both kill `mutant_id` by exactly `killers`. The run's results and the mutant's entry."""
    files = {"pyproject.toml": pyproject(name, timeout_constant=5.0), "mutants/families.toml": FAMILIES, **files}
    project = write_files(root / "project", files)
    _, output, data = run(project, "--fresh", "--jobs", "1")
    entry = mutant(data, mutant_id)
    naive = naive_run_of(project, mutant_id, ["tests"])
    assert naive.failed == set(killers)
    assert (entry["verdict"], sorted(entry["killers"])) == ("killed", sorted(naive.failed)), output
    return data, entry
