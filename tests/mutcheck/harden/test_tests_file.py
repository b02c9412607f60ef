"""The file harden keeps its tests in: on a second run everything a person added is kept byte for byte;
only harden's own functions are replaced or added, and the imports they need that it lacks."""

import ast

from mutcheck.core.rewrite import in_its_line_endings
from mutcheck.harden.tests_file import HEADER, merged_file, ours
from mutcheck.harden.witness_source import WrittenTest

PERSON = """
import json as js

import pytest

LIMIT = 3  # a person's constant


class TestByHand:
    def test_limit(self):
        assert LIMIT == 3


@pytest.mark.parametrize("n", [1, 2])
def test_by_hand(n):
    assert js.loads(str(n)) == n


async def test_async_by_hand():
    assert True
"""


def _test(name: str, body: str, *imports: tuple[str, str]) -> WrittenTest:
    return WrittenTest(name, f"def {name}():\n    {body}\n", frozenset(imports))


def test_a_second_run_keeps_what_a_person_added_and_replaces_only_its_own_functions() -> None:
    first = merged_file(None, [_test("test_a", "assert f(1) == 2", ("pkg.mod", "f"))])
    assert ours(first) and first.startswith(HEADER)
    edited = first + PERSON
    second = merged_file(
        edited,
        [
            _test("test_a", "assert f(1) == 3", ("pkg.mod", "f")),
            _test("test_b", "assert g() is None", ("pkg.mod", "g"), ("", "json")),
        ],
    )
    assert PERSON.strip() in second  # the class, constant, decorator, async test and alias, as written
    assert "assert f(1) == 3" in second and "assert f(1) == 2" not in second
    tree = ast.parse(second)
    functions = [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assert functions == ["test_a", "test_by_hand", "test_async_by_hand", "test_b"]  # replaced in place
    # `g` and a plain `import json` (the alias `js` is not it) added after harden's imports; `f` is there
    assert second.count("from pkg.mod import f\n") == 1
    assert "from pkg.mod import f\nimport json\nfrom pkg.mod import g\n\n\ndef test_a():" in second


def test_a_file_kept_with_crlf_line_endings_keeps_them_throughout() -> None:
    previous = merged_file(None, [_test("test_old", "assert True", ("json", "dumps"))]).replace("\n", "\r\n")
    merged = in_its_line_endings(merged_file(previous, [_test("test_new", "assert 1", ("os", "sep"))]), previous)
    assert merged.startswith(previous.split("def test_old")[0].split("from json")[0])
    assert merged.count("\n") == merged.count("\r\n") and "def test_new():\r\n    assert 1\r\n" in merged
    ast.parse(merged)
