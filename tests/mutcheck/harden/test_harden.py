"""A survivor no call told apart: equivalent in practice only when every call was compared; one whose
own calls cannot be written, hardened through the function the tests reached it by."""

import subprocess
import sys
from collections import Counter
from pathlib import Path

from mutcheck.harden.harden import EQUIVALENT_IN_PRACTICE, GAVE_UP, PLACED, without_witness
from mutcheck.harden.wire import TOO_LARGE
from mutcheck.harden.witness import NOT_REPRODUCED, SAME, UNBUILDABLE, UNFINISHED, UNSTEADY, UNWRITABLE_RESULT
from tests.mutcheck.cli_runs import mutcheck
from tests.mutcheck.engine_project import families, pyproject, write_files


def test_equivalent_in_practice_only_when_every_recorded_call_was_compared() -> None:
    def status(recorded: dict, varied: dict | None = None) -> str:
        return without_witness(Counter(recorded), Counter(recorded) + Counter(varied or {}))

    assert status({SAME: 40}) == EQUIVALENT_IN_PRACTICE
    unwritable = "an argument cannot be written as source (self: a pkg.Interval: …)"
    assert status({SAME: 1, unwritable: 959}) == GAVE_UP
    assert status({SAME: 3, f"{UNWRITABLE_RESULT} (its return value: a lock)": 1}) == GAVE_UP
    assert status({SAME: 3, UNBUILDABLE: 1}) == GAVE_UP
    assert status({SAME: 3, UNSTEADY: 1}) == GAVE_UP  # two replays of the original differ
    assert status({SAME: 3, NOT_REPRODUCED: 1}) == GAVE_UP
    assert status({SAME: 3, UNFINISHED: 1}) == GAVE_UP  # the mutant may loop forever on one
    assert status({SAME: 3, TOO_LARGE: 1}) == GAVE_UP
    assert status({SAME: 3}, {PLACED: 1}) == GAVE_UP  # a path or an address held, by any call
    assert status({}) == GAVE_UP  # nothing compared at all
    # a variation left uncompared (a constructor refused it, its result is an iterator) was an input
    # no test gave: every recorded call was compared
    assert status({SAME: 3}, {UNBUILDABLE: 5, f"{UNWRITABLE_RESULT} (an iterator)": 2, SAME: 9}) == (
        EQUIVALENT_IN_PRACTICE
    )
    assert status({}, {SAME: 9}) == GAVE_UP  # no recorded call compared: variations alone do not count


_TRIE = """\
class _Node:
    def __init__(self):
        self.children = {}
        self.value = None

    def equals(self, other):
        if self.value != other.value:
            return False
        return self.children.keys() == other.children.keys() and all(
            node.equals(other.children[step]) for step, node in self.children.items()
        )


class Trie:
    def __init__(self, items=()):
        self._root = _Node()
        for key, value in dict(items).items():
            node = self._root
            for step in key:
                node = node.children.setdefault(step, _Node())
            node.value = value

    def __eq__(self, other):
        return self._root.equals(other._root)
"""

_TRIE_TESTS = """\
from trie import Trie


def test_equal_tries():
    assert Trie({"ab": 1}) == Trie({"ab": 1})
"""

_TRIE_GAP = """\
[[mutant]]
id = "T-VALUE"
family = "guard"
file = "src/trie.py"
scope = "_Node.equals"
match = "self.value != other.value"
replace = "False"
origin = "harden fixture"
title = { en = "values never compared", zh = "从不比较值" }
why = { en = "two tries that differ by a value are equal", zh = "值不同的两棵树相等" }
survives = { en = "no test compares two tries that differ", zh = "没有测试比较不同的树" }
"""


def test_a_method_of_an_object_the_module_makes_for_itself_is_hardened_through_the_tests_entry(
    tmp_path: Path,
) -> None:
    """`_Node`s are made and filled by `Trie`: no call of `_Node.equals` can be written as source, but
    the tests reach it through `Trie.__eq__`, whose calls carry the mutant's effect."""
    project = write_files(
        tmp_path / "project",
        {
            "pyproject.toml": pyproject("entry-fixture", timeout_constant=5.0),
            "src/trie.py": _TRIE,
            "tests/test_trie.py": _TRIE_TESTS,
            "mutants/families.toml": families("guard", "guards", "守护"),
            "mutants/trie.toml": _TRIE_GAP,
        },
    )
    done = mutcheck(project, "harden", "T-VALUE", "--out", "tests/test_guards.py")
    assert done.returncode == 0, done.stdout + done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith(("hardened:", "gave-up:")))
    assert line.startswith("hardened: T-VALUE  by tests/test_guards.py::test_kills_t_value"), line
    assert line.endswith("through Trie.__eq__, which calls _Node.equals)"), line
    written = (project / "tests" / "test_guards.py").read_text(encoding="utf-8")
    assert "_Node" not in written and "Trie({" in written and " == Trie({" in written
    # proven under plain pytest: passes on the original, fails with the mutant written in by hand
    plain = [sys.executable, "-m", "pytest", "tests/test_guards.py", "-q", "-p", "no:cacheprovider"]
    assert subprocess.run(plain, cwd=project, capture_output=True, timeout=120).returncode == 0
    source = project / "src" / "trie.py"
    source.write_text(_TRIE.replace("self.value != other.value", "False"), encoding="utf-8")
    assert subprocess.run(plain, cwd=project, capture_output=True, timeout=120).returncode == 1
