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


def test_a_name_kept_only_when_it_holds_a_container_the_function_made_itself():
    source = (
        "class Memo:\n"
        "    def aliased(self, key):\n        cache = self._cache\n        cache[key] = build(key)\n\n"
        "    def looped(self, caches, key):\n        for cache in caches:\n            cache[key] = load(key)\n\n"
        "    def made(self, keys):\n        out = {}\n        for key in keys:\n            out[key] = parse(key)\n"
        "        return out\n\n"
        "    def remade(self, key):\n        out = {}\n        out = self._shared\n        out[key] = fetch(key)\n\n"
        "    def unpacked(self, key):\n        first, out = self._pair\n        out[key] = split(key)\n\n"
        "    def annotated(self):\n        self.table: dict = tabulate()\n        rows: list = list()\n"
        "        rows.append(row())\n\n"
        "    def rebound(self, key):\n        out = {}\n        for out in self._outs:\n"
        "            out[key] = grab(key)\n\n"
        "    def both(self, key):\n        self.one = first(key)\n        self.two = second(key)\n"
        "        self._memo.setdefault(key, third(key))\n        self._memo.setdefault(key, fourth(key))\n"
    )
    found = keepers(source, "m.py")
    assert found["build"] == {reach_name("m.py", "Memo.aliased")}  # `cache` is the object's own cache
    assert found["load"] == {reach_name("m.py", "Memo.looped")}  # each cache is the caller's
    assert found["fetch"] == {reach_name("m.py", "Memo.remade")}  # bound again to what another holds
    assert found["split"] == {reach_name("m.py", "Memo.unpacked")}
    assert found["tabulate"] == {reach_name("m.py", "Memo.annotated")}
    assert found["grab"] == {reach_name("m.py", "Memo.rebound")}  # `out` names the caller's objects in the loop
    both = {reach_name("m.py", "Memo.both")}
    assert found["first"] == found["second"] == found["third"] == found["fourth"] == both
    assert "parse" not in found and "row" not in found  # kept in containers the call made


def test_keepers_are_found_through_every_caller_nested_functions_and_any_statement():
    source = (
        "def leaf(x):\n    return x\n\n\ndef middle(x):\n    return leaf(x)\n\n\n"
        "def top(x):\n    return middle(x)\n\n\n"
        "def outer():\n    def inner(key):\n        MEMO[key] = top(key)\n\n    return inner\n\n\n"
        "if FLAG:\n\n    def guarded(key):\n        handlers[0](key)\n        registry()[key] = made(key)\n"
    )
    found = keepers(source, "n.py")
    # a nested keeper, and the function around it: a test that takes the memo's value may reach only that one
    inner = {reach_name("n.py", "outer.<locals>.inner"), reach_name("n.py", "outer")}
    assert found["top"] == found["middle"] == found["leaf"] == inner  # through two callers
    assert found["made"] == {reach_name("n.py", "guarded")}  # a def under an `if`; a call's item
