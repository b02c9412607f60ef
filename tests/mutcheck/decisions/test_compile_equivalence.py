"""Equivalence by compilation: two sources are the same mutant only when every part of their code
objects that can change behaviour is equal (byte code, names, constants with their types, nested code)."""

import pytest

from mutcheck.host.swap import code_fingerprint


def same(original: str, mutated: str) -> bool:
    # Both code objects stay alive, as they do where mutcheck compares them: a nested code
    # object's repr names its address, which a freed one's successor could reuse.
    compiled = compile(original, "m.py", "exec"), compile(mutated, "m.py", "exec")
    return code_fingerprint(compiled[0]) == code_fingerprint(compiled[1])


@pytest.mark.parametrize(
    ("original", "mutated"),
    [
        ("x = 2 * 3", "x = 6"),
        ("def f(a, b):\n    return not a is b", "def f(a, b):\n    return a is not b"),
        ("def f(a):\n    return a", "def f(a):\n\n\n    return (a)"),  # lines differ only
        (
            "def f():\n    def g():\n        return 2 * 3\n    return g",
            "def f():\n    def g():\n        return 6\n    return g",
        ),
    ],
)
def test_what_compiles_to_the_same_code_is_equivalent(original, mutated):
    assert same(original, mutated)


@pytest.mark.parametrize(
    ("original", "mutated"),
    [
        ("def f(s):\n    return s.yielded_content", "def f(s):\n    return s.yielded_chunk"),  # names
        ("def f():\n    return 1", "def f():\n    return 2"),  # constants
        ("def f():\n    return 1", "def f():\n    return True"),  # equal and hashing alike, another type
        ("def f():\n    return 1", "def f():\n    return 1.0"),
        ("def f(a):\n    b = a\n    return b", "def f(a):\n    c = a\n    return c"),  # local names
        ("def f(a, b):\n    return a", "def f(a, *, b):\n    return a"),  # the signature
        ("def f(a, /, b):\n    return a", "def f(a, b):\n    return a"),
        ("def f(a):\n    return a", "async def f(a):\n    return a"),  # flags
        (
            "def f():\n    def g():\n        return 1\n    return g",
            "def f():\n    def g():\n        return 2\n    return g",
        ),
        (
            "def f(a):\n    def g():\n        return a\n    return g",
            "def f(a):\n    def g():\n        return 0\n    return g",
        ),
    ],
)
def test_a_difference_in_any_behaving_part_is_not_equivalent(original, mutated):
    assert not same(original, mutated)
