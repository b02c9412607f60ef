"""Which functions keep another's result beyond the call (a memo), through the functions that call
it too (the run that follows a memo's value into a later test: `engine/test_kept_results_run.py`)."""

from mutcheck.core.module_scope import reach_name
from mutcheck.selection.kept_results import keepers


def test_a_function_s_result_kept_by_another_is_kept_through_its_callers_too():
    source = (
        "class Patterns:\n    def _build(self, width):\n        return '-' * width\n\n"
        "    def _padded(self, width):\n        return self._build(width) + '|'\n\n"
        "    def __call__(self, width):\n        if width not in self._memo:\n"
        "            value = self._padded(width)\n            self._memo[width] = value\n"
        "        return self._memo[width]\n\n\ndef plain(width):\n    return '=' * width\n"
    )
    found = keepers(source, "m.py")
    keeper = {reach_name("m.py", "Patterns.__call__")}
    assert found["_padded"] == keeper and found["_build"] == keeper  # `_padded` calls `_build`
    assert "plain" not in found and "_memo" not in found


def test_kept_in_an_attribute_or_by_a_method_that_keeps_it():
    source = (
        "class Box:\n    def fill(self):\n        self.value = make()\n\n"
        "    def add(self, items):\n        items.setdefault('k', build())\n"
        "        local = other()\n        return local\n\n"
        "    def collect(self, xs):\n        out = []\n        for x in xs:\n            out.append(convert(x))\n"
        "        return out\n"
    )
    found = keepers(source, "b.py")
    assert found["make"] == {reach_name("b.py", "Box.fill")} and found["build"] == {reach_name("b.py", "Box.add")}
    assert "other" not in found and "convert" not in found  # returned, or kept in what the call made
    assert keepers("def broken(:\n", "c.py") == {}
