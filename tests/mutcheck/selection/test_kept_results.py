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


def test_kept_through_global_names_stored_containers_assignment_expressions_setattr_and_memoizing_decorators():
    source = (
        "import functools\n_KEPT = None\n\n"
        "def rebind():\n    global _KEPT\n    _KEPT = g_build()\n\n"
        "def outer():\n    held = None\n\n    def inner():\n        nonlocal held\n        held = n_build()\n\n"
        "    inner()\n    return held\n\n"
        "class K:\n"
        "    def publish(self):\n        parts = []\n        parts.append(p_build())\n        more = [parts]\n"
        "        self._rows = more\n\n"
        "    def unpublished(self):\n        parts = []\n        parts.append(u_build())\n        return parts\n\n"
        "    def aliases(self, key):\n        value = a_build()\n        same = value\n        self._m[key] = same\n\n"
        "    def walrus(self, key):\n        if (value := w_build()):\n            self._m[key] = value\n\n"
        "    def tupled(self):\n        first, second = t_build(), 1\n        self._m['a'] = first\n\n"
        "    def starred(self):\n        self._x, *self._rest = s_build()\n\n"
        "    def set_by_name(self):\n        setattr(self, 'x', sa_build())\n"
        "        object.__setattr__(self, 'y', osa_build())\n        setattr(self, 'z')\n\n"
        "    @functools.cached_property\n    def prop(self):\n        return c_build()\n\n"
        "    def reads(self):\n        return self.prop\n\n"
        "    @functools.lru_cache(maxsize=None)\n    def lru(self):\n        return l_build()\n\n"
        "    @memoize\n    def memo(self):\n        found = m_build()\n        return found\n\n"
        "    @staticmethod\n    def plain():\n        return plain_build()\n\n"
        "    def accumulates(self, xs):\n        total = 0\n        for x in xs:\n"
        "            total = total + ac_build(x)\n"
        "        self.total = total\n\n"
        "    def pair(self):\n        one = o1_build()\n        two = o2_build()\n        self._pair = (one, two)\n\n"
        "    @functools.cache\n    def both(self):\n        self.side = sd_build()\n        return bt_build()\n\n"
        "    def rest(self):\n        head, *tail = st_build()\n        self._tail = tail\n\n"
        "    def rest_stored(self):\n        first, *self._rest = rs_build()\n        return first\n\n"
        "    def rest_global(self):\n        global _REST\n        first, *_REST = rg_build()\n        return first\n\n"
        "    def own_attribute(self):\n        out = {}\n        setattr(out, 'x', so_build())\n        return out\n\n"
        "    @registry['x']\n    @memoize\n    def registered(self):\n        return rm_build()\n\n"
        "    @registry['y']\n    def only_registered(self):\n        return ro_build()\n\n"
        "    def gathers(self):\n        early = e_build()\n        parts = [early, f_build()]\n"
        "        late = l2_build()\n        parts.append(late)\n        parts.append(gt_build())\n"
        "        self.rows = parts\n\n"
        "@functools.cache\ndef table():\n    return tb_build()\n\n"
        "def uses_table():\n    return table()\n"
    )
    found = keepers(source, "k.py")

    def kept_by(*qualnames):
        return {reach_name("k.py", qualname) for qualname in qualnames}

    assert found["g_build"] == kept_by("rebind")
    assert found["n_build"] == kept_by("outer", "outer.<locals>.inner")
    assert found["p_build"] == kept_by("K.publish")  # the list it filled, stored in another it made, stored
    assert found["a_build"] == kept_by("K.aliases")  # through a chain of local names
    assert found["w_build"] == kept_by("K.walrus")
    assert found["t_build"] == kept_by("K.tupled")
    assert found["s_build"] == kept_by("K.starred")
    assert found["sa_build"] == found["osa_build"] == kept_by("K.set_by_name")
    assert found["c_build"] == kept_by("K.prop", "K.reads")  # whoever reads the property takes the kept value
    assert found["l_build"] == kept_by("K.lru")
    assert found["m_build"] == kept_by("K.memo")
    assert found["ac_build"] == kept_by("K.accumulates")  # through a name assigned from itself
    assert found["o1_build"] == found["o2_build"] == kept_by("K.pair")
    assert found["sd_build"] == found["bt_build"] == kept_by("K.both")
    assert found["st_build"] == kept_by("K.rest")
    assert found["rs_build"] == kept_by("K.rest_stored") and found["rg_build"] == kept_by("K.rest_global")
    assert found["rm_build"] == kept_by("K.registered")
    gathered = [found[name] for name in ("e_build", "f_build", "l2_build", "gt_build")]
    assert gathered == [kept_by("K.gathers")] * 4  # made with some, filled with more, then stored
    assert found["tb_build"] == kept_by("table", "uses_table")  # called by name where it is read
    assert "u_build" not in found and "plain_build" not in found  # returned, not kept
    assert "so_build" not in found and "ro_build" not in found  # in what the call made; a plain decorator
