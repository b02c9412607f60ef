"""A module's code as reuse compares it: which statements only bind names and which have effects, the
names a function's code refers to, and what a change of each kind changes."""

import textwrap

import pytest

from mutcheck.reuse.module_code import DYNAMIC, parse_module


def statements(source: str) -> list[tuple[list[str], bool]]:
    module = parse_module(textwrap.dedent(source).encode())
    return [(sorted(statement.binds), statement.effects) for statement in module.statements]


@pytest.mark.parametrize(
    ("source", "binds", "effects"),
    [
        ("X = 1", ["X"], False),
        ("X, (Y, *Z) = 1, (2, 3)", ["X", "Y", "Z"], False),
        ("T = TypeVar('T')", ["T"], False),
        ("PATTERN = re.compile('a+')", ["PATTERN"], False),
        ("ADAPTER = TypeAdapter(list[Item])", ["ADAPTER"], False),
        ("OPS = frozenset(get_args(OpName))", ["OPS"], False),
        ("CODE = dedent('''\\\n    run()\n''')", ["CODE"], False),
        ("DATA = Path(__file__).parent / 'data'", ["DATA"], False),
        ("HOSTS = ', '.join(NAMES).split(', ')", ["HOSTS"], False),  # str's methods, on a literal first
        ("HOSTS = NAMES.join(', ')", ["HOSTS"], True),  # a method of what a name holds could do anything
        ("import os", ["os"], False),
        ("from pkg.a import b as c", ["c"], False),
        ("def f(a=1):\n    return a", ["f"], False),
        ("class A:\n    x = 1\n    def m(self):\n        return 1", ["A", "A.m", "A.x"], False),  # members
        ("class A(Exception):\n    pass", ["A"], False),
        ("class TestA(unittest.TestCase):\n    def test_a(self):\n        pass", ["TestA", "TestA.test_a"], False),
        ("if TYPE_CHECKING:\n    from a import B", ["B"], False),
        ("try:\n    import orjson\nexcept ImportError:\n    orjson = None", ["orjson"], False),
        ("@pytest.mark.parametrize('x', CASES)\ndef test_x(x):\n    pass", ["test_x"], False),
        ("register(X)", [], True),
        ("REGISTRY['a'] = 1", [], True),
        ("module.attribute = 1", [], True),
        ("X = load()", ["X"], True),
        ("from a import *", [], False),  # what it binds is its module's (see `project_code`)
        ("@decorate\ndef f():\n    pass", ["f"], True),
        ("@pytest.fixture\ndef f():\n    pass", ["f"], True),
        ("def f(a=make()):\n    pass", ["f"], True),
        ("@dataclass(frozen=True)\nclass A:\n    x: int = 1", ["A", "A.x"], False),  # a pure decorator
        ("@register\nclass A:\n    pass", ["A"], True),
        ("@lru_cache(maxsize=load())\ndef f():\n    pass", ["f"], True),
        ("class A(BaseModel):\n    x: int = Field(default=1)", ["A", "A.x"], False),
        ("class A(metaclass=Meta):\n    pass", ["A"], True),
        ("class A(Base):\n    pass", ["A"], True),  # a base from elsewhere: its creation may run code
        ("for name in NAMES:\n    globals()[name] = 1", ["name"], True),
        ("with open('a') as file:\n    DATA = file.read()", ["DATA", "file"], True),
        ("def pytest_configure(config):\n    pass", ["pytest_configure"], True),
        ("pytestmark = pytest.mark.slow", ["pytestmark"], True),
        ("collect_ignore = ['a.py']", ["collect_ignore"], True),
    ],
)
def test_each_statement_binds_names_or_has_effects(source, binds, effects):
    assert statements(source) == [(binds, effects)]


@pytest.mark.parametrize(
    ("source", "binds", "effects"),
    [
        ("def f():\n    pass\nf.skip = Skip", ["f"], False),
        ("class A:\n    pass\nA.limit = A.size = 3", ["A"], False),
        ("def f():\n    pass\nf.skip = make_skip()", [], True),  # a call could do anything
        ("def f():\n    pass\nf.__code__ = g.__code__", [], True),  # what Python reads
        ("def test_f():\n    pass\ntest_f.pytestmark = [MARK]", [], True),  # what pytest reads
        ("def f():\n    pass\nf = wrap(f)\nf.skip = Skip", [], True),  # bound twice: not the def's object
        ("@register\ndef f():\n    pass\nf.skip = Skip", [], True),  # a decorator may have kept it anywhere
        ("f.skip = Skip", [], True),  # not made here
    ],
)
def test_an_attribute_set_on_a_function_or_class_the_module_made_is_part_of_its_binding(source, binds, effects):
    """The last statement: it changes only the object its name holds, as a change to its `def` would."""
    assert statements(source)[-1] == (binds, effects)


@pytest.mark.parametrize(
    ("source", "effects"),
    [
        ("parametrize = pytest.mark.parametrize\n@parametrize('x', [1])\ndef test_x(x):\n    pass", False),
        ("from pytest import mark\nslow = mark.slow\n@slow\ndef test_x():\n    pass", False),
        ("parametrize = make_marker()\n@parametrize('x', [1])\ndef test_x(x):\n    pass", True),  # no mark
        # bound twice: which object the decorator names depends on the order
        ("p = pytest.mark.parametrize\np = wrap(p)\n@p('x', [1])\ndef test_x(x):\n    pass", True),
        ("p = pytest.mark.parametrize\nT = [p for p in makers]\n@p('x', [1])\ndef test_x(x):\n    pass", True),
    ],
)
def test_a_decorator_naming_a_module_s_alias_of_a_pytest_mark_is_that_mark(source, effects):
    """The last statement: a test whose alias mark gets a new case changed itself, not the module's effects."""
    assert statements(source)[-1] == (["test_x"], effects)


@pytest.mark.parametrize(
    ("source", "effects"),
    [
        ("import typing as t\nT = t.TypeVar('T')", False),
        ("import typing as t\n@t.overload\ndef f(x: int) -> int: ...", False),
        ("import typing as t\nclass A(t.Generic[T]):\n    pass", False),
        ("import functools as ft\n@ft.lru_cache(maxsize=8)\ndef f():\n    pass", False),
        ("import mylib as t\nT = t.TypeVar('T')", True),  # not typing's
        ("import typing as t\nT = t.get_type_hints(f)", True),  # not a name known to only build a value
        ("import typing as t\nt = load()\nT = t.TypeVar('T')", True),  # bound twice: which object it is depends
        # a comprehension's target of the alias's name is not typing; a name bound elsewhere too is spelled nowhere
        ("import typing as t\nT = [t.TypeVar('T') for t in factories]", True),
        ("import typing as t\ndef f(t):\n    pass\nT = t.TypeVar('T')", True),
    ],
)
def test_a_known_name_reached_through_a_module_s_alias_is_that_module_s(source, effects):
    """The last statement: `t.TypeVar` with `import typing as t` is `typing.TypeVar`."""
    assert statements(source)[-1][1] == effects


def test_a_class_derived_from_a_plain_class_of_its_file_binds_only():
    source = "class Base:\n    pass\n\n\nclass A(Base):\n    pass\n\n\nclass B(Registry):\n    pass\n"
    assert statements(source) == [(["Base"], False), (["A"], False), (["B"], True)]


def test_a_docstring_is_no_statement():
    assert statements('"""The module."""\nX = 1') == [(["X"], False)]


def test_names_imported_say_from_which_module():
    module = parse_module(
        b"def f():\n    from pkg.settings import VALUE\n    from . import sibling\n    return VALUE\n"
    )
    assert {"pkg.settings:VALUE", ".:sibling", "VALUE"} <= module.names["f"]


def test_an_import_by_a_spelled_name_reaches_nothing_dynamically_but_a_computed_one_reaches_anywhere():
    from mutcheck.reuse.module_code import ANYWHERE

    module = parse_module(b"def f(name):\n    return import_module('pkg.a'), import_module('pkg.' + name)\n")
    assert ANYWHERE in module.names["f"]
    spelled = parse_module(b"def g():\n    return importlib.import_module('pkg.a')\n")
    assert ANYWHERE not in spelled.names["g"]


def test_a_function_s_names_are_its_code_s_with_its_scopes():
    module = parse_module(
        textwrap.dedent(
            """\
            class Tracker:
                def flush(self, limit=LIMIT):
                    return helper(self.parts, getattr(self, "extra"))

                def dynamic(self, name):
                    return getattr(self, name)
            """
        ).encode()
    )
    # variables by name, attributes (of any object) with a dot
    assert {"Tracker", "LIMIT", "helper", ".parts", ".extra", "self"} <= module.names["Tracker.flush"]
    assert "flush" not in module.names["Tracker.flush"]  # its own name is no reference
    assert DYNAMIC in module.names["Tracker.dynamic"]


def test_a_class_s_members_are_the_names_its_body_binds_and_never_reads():
    module = parse_module(
        textwrap.dedent(
            """\
            class Settings(Base):
                HOST = "127.0.0.1"
                PORT = 8000
                URL = f"http://{HOST}"
                COUNT: int = 3

                def connect(self, port=PORT):
                    TIMEOUT = 5
                    return TIMEOUT
            """
        ).encode()
    )
    # HOST and PORT are read as the body runs (URL's value, connect's default): references too
    assert module.members["Settings"] == {"URL", "COUNT"}
    assert {"HOST", "PORT", "URL", "COUNT", "Base"} <= module.names["Settings"]


def test_code_is_compared_as_parsed_and_each_change_lands_where_it_belongs():
    base = "X = 1\n\n\ndef f():\n    return X\n\n\ndef g():\n    return 2\n"
    before = parse_module(base.encode())
    comment = parse_module(base.replace("X = 1", "X = 1  # one").encode())
    body = parse_module(base.replace("return 2", "return 3").encode())
    binding = parse_module(base.replace("X = 1", "X = 2").encode())
    assert (comment.functions, comment.binds, comment.effects()) == (before.functions, before.binds, before.effects())
    assert body.functions["g"] != before.functions["g"] and body.functions["f"] == before.functions["f"]
    assert body.binds == before.binds  # a body is its function's own
    assert binding.binds["X"] != before.binds["X"] and binding.binds["f"] == before.binds["f"]
    assert binding.effects() == before.effects()


def test_the_order_of_a_binding_and_an_effect_that_reads_it_counts():
    first = parse_module(b"X = 1\nregister(X)\nX = 2\n")
    second = parse_module(b"X = 1\nX = 2\nregister(X)\n")
    assert first.effects() != second.effects()


REGISTERING_CLASS = """\
import itertools


class Builder:
    _defaults = {"doc": str}
    _defaults.update(EXTRA)
    _count = itertools.count()

    def invocation(self):
        return self._defaults
"""


@pytest.mark.parametrize(
    ("old", "new", "effects_change"),
    [
        pytest.param("def invocation(self):", "def invocation(self, target=None):", False, id="a-method-s-signature"),
        pytest.param(
            "    def invocation", "    def added(self):\n        pass\n\n    def invocation", False, id="a-method"
        ),
        pytest.param('{"doc": str}', '{"doc": str, "dict": dict}', True, id="a-member-a-statement-acts-on"),
        pytest.param("update(EXTRA)", "update(OTHER)", True, id="a-statement-with-effects"),
        pytest.param("itertools.count()", "itertools.count(1)", False, id="a-counter-made-for-the-class"),
        pytest.param("class Builder:", "@register\nclass Builder:", True, id="a-decorator"),
        pytest.param("class Builder:", "class Builder(Registered):", True, id="a-base-of-another-module"),
        pytest.param("_defaults.update(EXTRA)", "_defaults.update(vars())", True, id="a-statement-reaching-any-member"),
        pytest.param(
            "    def invocation", "    tracked = TRACKER\n\n    def invocation", True, id="a-member-made-elsewhere"
        ),
        pytest.param(
            "    def invocation", "    pytestmark = []\n\n    def invocation", True, id="a-member-pytest-reads"
        ),
    ],
)
def test_a_class_s_effects_stand_on_its_body_s_statements_with_effects_and_what_they_name(old, new, effects_change):
    """A class that makes itself with calls in its body: only those, and the members they name, are
    what its effects stand on; a method's signature is its member's binding."""
    changed = REGISTERING_CLASS.replace(old, new)
    assert changed != REGISTERING_CLASS
    before, after = parse_module(REGISTERING_CLASS.encode()), parse_module(changed.encode())
    assert (before.effects() != after.effects()) is effects_change
    assert before.binds["Builder"] != after.binds["Builder"]  # the class's binding changes either way


def test_a_hook_is_inherited_through_the_file_s_own_classes():
    """`Leaf` derives from `Mid`, which has no hook of its own but inherits `Root`'s: a method added to
    `Leaf` beside the statement with effects in its body changes what the hook sees."""
    source = (
        "class Root:\n    def __init_subclass__(cls):\n        SEEN.append(vars(cls))\n\n\n"
        "class Mid(Root):\n    pass\n\n\nclass Leaf(Mid):\n    LOG.append(1)\n"
    )
    added = source + "\n    def added(self):\n        pass\n"
    assert parse_module(source.encode()).effects() != parse_module(added.encode()).effects()


def test_a_file_that_does_not_parse_is_one_change_whole():
    module = parse_module(b"def broken(:\n")
    assert not module.parsed and module.effects() == module.whole and module.code("broken") == ""


def test_code_of_a_lambda_or_comprehension_is_its_function_s():
    module = parse_module(b"def f(xs):\n    return [x for x in xs]\n")
    assert module.code("f.<locals>.<listcomp>") == module.functions["f"]
    assert module.holder("f.<locals>.<lambda>") == "f" and module.holder("<lambda>") is None
