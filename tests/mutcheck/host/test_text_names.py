"""The names code run from text spells, read from its compiled code, nested code included."""

from mutcheck.host.text_names import ANY_NAME, text_names

# A class made from a template, as record-type factories do: its body assigns `__dict__`, which
# reaches nothing; only a load of it would.
TEMPLATE = """\
class Point(_tuple):
    __slots__ = ()
    def _asdict(self):
        return OrderedDict(zip(self._fields, self))
    __dict__ = _property(_asdict)
"""


def test_every_name_spelled_in_nested_code_counts():
    names = text_names(compile(TEMPLATE, "<template>", "exec"))
    assert {"_tuple", "OrderedDict", "zip", "_fields", "_property", "__dict__"} <= names
    assert ANY_NAME not in names


def test_a_load_that_reaches_names_it_does_not_spell_is_any_name():
    reaching = ("getattr(x, name)", "exec(name)", "x.__dict__[name]", "globals()[name]", "sys.modules[name]")
    for text in (*reaching, "f().f_globals"):
        assert text_names(compile(f"def f(x, name):\n    return {text}\n", "<text>", "exec")) == {ANY_NAME}, text


def test_an_import_in_the_text_spells_the_module_and_its_names():
    names = text_names(compile("from pkg.settings import LIMIT\nimport os.path\n", "<text>", "exec"))
    assert {"pkg.settings", "LIMIT", "os.path"} <= names


def test_a_star_import_in_the_text_is_any_name():
    assert text_names(compile("from os.path import *\n", "<text>", "exec")) == {ANY_NAME}
