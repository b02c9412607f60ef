"""The time limit's part in a stored outcome standing: an outcome that ended stands under a limit
longer than it took; a time-out, under a limit no longer than it was charged before it was stopped.
And what a set of evidence is found to have changed, and at what cost."""

from pathlib import Path

import pytest

from mutcheck.core.outcome import FAILED, PASSED, TIMEOUT
from mutcheck.reuse.decide import Decider, past_the_limit
from mutcheck.reuse.module_code import digest, parse_module
from mutcheck.reuse.project_code import ProjectCode
from mutcheck.reuse.store import Builder, Store
from mutcheck.reuse.store import TestOutcome as StoredOutcome
from mutcheck.reuse.today import FileDigests, ProjectFiles, Today


@pytest.mark.parametrize(
    ("outcome", "took", "limit", "runs_again"),
    [
        (PASSED, 0.5, 2.0, False),
        (PASSED, 2.0, 2.0, True),  # today it would be stopped
        (FAILED, 3.0, 2.0, True),
        (TIMEOUT, 2.0, 2.0, False),
        (TIMEOUT, 2.0, 1.5, False),  # stopped sooner today, still unfinished
        (TIMEOUT, 2.0, 3.0, True),  # a longer limit might let it finish
    ],
)
def test_a_stored_outcome_runs_again_when_today_s_limit_could_end_it_otherwise(outcome, took, limit, runs_again):
    assert past_the_limit(StoredOutcome(outcome, took, None, 0), limit) is runs_again


BEFORE = {
    "pkg/a.py": b"LIMIT = 1\n",
    "pkg/b.py": b"def f():\n    return 1\n",
    "pkg/c.py": b"from pkg.a import LIMIT\n\n\ndef g():\n    return LIMIT\n",
}
TODAY = {**BEFORE, "pkg/a.py": b"LIMIT = 2\n", "pkg/b.py": b"def f():\n    return 2\n"}


def test_a_set_whose_own_code_changed_runs_again_before_any_module_s_names_are_worked_out(tmp_path: Path):
    names = {path: path.removesuffix(".py").replace("/", ".") for path in BEFORE}
    code = ProjectCode(TODAY.get, names, BEFORE)
    store = Store()
    builder = Builder(store)
    own = builder.evidence(
        [("code:pkg/b.py::f", digest(BEFORE["pkg/b.py"])), ("code:pkg/c.py::g", digest(BEFORE["pkg/c.py"]))]
    )
    through_a_name = builder.evidence([("code:pkg/c.py::g", digest(BEFORE["pkg/c.py"]))])
    decider = Decider(store, Today(ProjectFiles(tmp_path, {}), {}, FileDigests(), code), {})

    # f's own code changed: that decides, and no module's bindings need working out (every module's code)
    assert decider.set_change(own) == ["code:pkg/b.py::f"]
    assert "changed_names" not in vars(code)
    # g's code is the same, but refers to a binding that changed in another module
    assert decider.set_change(through_a_name) == ["name:pkg.c:LIMIT"]  # as c binds it


def test_the_same_source_is_worked_out_once_whichever_copy_of_the_project_it_is_read_from():
    assert parse_module(b"X = 1\n") is parse_module(b"".join([b"X = 1", b"\n"]))
