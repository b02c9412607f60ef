"""The project's modules against a stored run: which functions, module-level names and modules'
effects changed (through the statements that refer to a changed name, across modules), and what
code reachable by name changed where the code a test ran was not watched."""

from mutcheck.reuse.module_code import digest
from mutcheck.reuse.project_code import ProjectCode


def project(files: dict[str, str], before: dict[str, str] | None = None, **options) -> ProjectCode:
    """Today's code of `files`, against a stored run that kept `before` (default: the same)."""
    before = files if before is None else before
    names = {path: path.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for path in {**files, **before}}
    stored = {path: text.encode() for path, text in before.items()}
    return ProjectCode(lambda path: files[path].encode() if path in files else None, names, stored, **options)


def value(text: str) -> str:
    """A code label's value: its file's bytes."""
    return digest(text.encode())


def test_a_function_changed_only_where_its_own_code_did():
    before = {"pkg/a.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n"}
    today = {"pkg/a.py": "# a comment\ndef f():\n    return 1\n\n\ndef g():\n    return 3\n"}
    code = project(today, before)
    old = value(before["pkg/a.py"])
    assert not code.code_changed("pkg/a.py", "f", old) and code.code_changed("pkg/a.py", "g", old)
    assert code.code_changed("pkg/a.py", "f", "bytes the store never kept")  # unknown: changed


def test_a_changed_binding_changes_every_name_bound_from_it_in_any_module():
    before = {"pkg/a.py": "X = 1\nY = X + 1\nW = 3\n", "pkg/b.py": "from pkg.a import Y as Z\nV = 0\n"}
    today = {**before, "pkg/a.py": "X = 2\nY = X + 1\nW = 3\n"}
    assert project(today, before).changed_names == {"pkg.a:X", "pkg.a:Y", "pkg.b:Z"}  # not pkg.b's V, nor W


def test_unchanged_files_change_no_name_and_parse_nothing():
    files = {"pkg/a.py": "X = 1\n"}
    code = project(files)
    assert code.changed_names == frozenset() and code.changed_files == []


def test_a_removed_module_changes_every_name_it_bound():
    before = {"pkg/a.py": "X = 1\n", "pkg/b.py": "B = 2\n"}
    assert project({"pkg/a.py": "X = 1\n"}, before).changed_names == {"pkg.b:B"}


def test_effects_change_with_a_statement_or_a_name_one_reads():
    before = {"pkg/a.py": "X = 1\nregister(X)\n", "pkg/b.py": "register(2)\n", "pkg/c.py": "register(3)\n"}
    code = project({**before, "pkg/a.py": "X = 2\nregister(X)\n", "pkg/c.py": "register(4)\n"}, before)
    assert code.effects_changed("pkg/a.py", value(before["pkg/a.py"]))  # register(X) reads a changed name
    assert code.effects_changed("pkg/c.py", value(before["pkg/c.py"]))
    assert not code.effects_changed("pkg/b.py", value(before["pkg/b.py"]))


def test_an_import_of_a_module_the_stored_run_had_not_loaded_has_effects():
    before = {"pkg/a.py": "import json\n"}
    old = value(before["pkg/a.py"])
    loaded = project({"pkg/a.py": "import json\nimport pkg.plugins\n"}, before, loaded=frozenset({"json"}))
    assert loaded.effects_changed("pkg/a.py", old)
    known = project({"pkg/a.py": "import json\nimport csv\n"}, before, loaded=frozenset({"json", "csv"}))
    assert not known.effects_changed("pkg/a.py", old)


def test_an_import_in_a_function_s_body_runs_when_it_is_called_not_as_its_module_loads():
    method = "class Executor:\n    def start(self{}):\n        import docker\n        return docker\n"
    before = {"pkg/a.py": method.format("")}
    code = project({"pkg/a.py": method.format(", token")}, before, loaded=frozenset())
    assert not code.effects_changed("pkg/a.py", value(before["pkg/a.py"]))
    assert code.changed_names == {"pkg.a:Executor", "pkg.a:Executor.start"}


def test_a_new_module_collecting_loads_has_effects_only_if_it_has_a_statement_with_them():
    before = {"pkg/a.py": "X = 1\n"}
    files = {**before, "tests/test_new.py": "def test_x():\n    pass\n", "tests/conftest.py": "register(1)\n"}
    code = project(files, before, collected_now=frozenset(files))
    assert code.appeared() == ["effects:tests/conftest.py"]
    assert "tests.test_new:test_x" in code.changed_names


def test_a_module_collecting_no_longer_loads_changes_its_effects():
    files = {"pkg/a.py": "register(1)\n"}
    code = project(files, collected_before=frozenset(files), collected_now=frozenset())
    assert code.effects_changed("pkg/a.py", value(files["pkg/a.py"]))


def test_a_name_is_bound_in_its_own_module_and_reached_through_the_imports_of_it():
    before = {
        "pkg/a.py": "LIMIT = 1\n",
        "pkg/b.py": "from pkg.a import LIMIT\n\n\ndef f():\n    return LIMIT\n",
        "pkg/c.py": "LIMIT = 5\n\n\ndef g():\n    return LIMIT\n\n\ndef h(module):\n    return module.LIMIT\n",
    }
    code = project({**before, "pkg/a.py": "LIMIT = 2\n"}, before)
    assert code.hits(code.names("pkg/b.py", "f"), "pkg/b.py") == ["pkg.b:LIMIT"]
    assert code.hits(code.names("pkg/c.py", "g"), "pkg/c.py") == []  # its own module's LIMIT did not change
    assert code.hits(code.names("pkg/c.py", "h"), "pkg/c.py") == ["LIMIT"]  # an attribute: any module's


def test_a_new_module_that_imports_a_name_changes_it_for_itself_alone():
    before = {"pkg/core.py": "def limit():\n    return 1\n", "tests/test_a.py": "from pkg.core import limit\n"}
    files = {**before, "tests/test_b.py": "from pkg.core import limit\n\n\ndef test_b():\n    limit()\n"}
    code = project(files, before, collected_now=frozenset(files))
    assert "tests.test_a:limit" not in code.changed_names and "tests.test_b:limit" in code.changed_names


def test_names_of_module_level_code_are_its_statements():
    code = project({"pkg/a.py": "X = sorted(map(lambda v: v, VALUES))\n"})
    assert {"VALUES", "sorted", "map"} <= code.names("pkg/a.py", "<lambda>")


def test_a_change_is_reached_by_name_from_the_code_that_calls_it_however_far():
    before = {
        "pkg/a.py": "def top():\n    return middle()\n\n\ndef middle():\n    return bottom()\n\n\n"
        "def bottom():\n    return 1\n\n\ndef apart():\n    return 0\n",
        "pkg/b.py": "class Box:\n    def __eq__(self, other):\n        return True\n",
    }
    today = {**before, "pkg/a.py": before["pkg/a.py"].replace("return 1", "return 2")}
    code = project(today, before)
    assert code.reach_changed(["pkg/a.py::top"], []) == ["middle"]
    assert code.reach_changed(["pkg/a.py::apart"], []) == []
    assert code.reach_changed(["pkg/a.py::apart"], ["middle"]) == ["middle"]  # a mutant's replacement calls it
    boxed = project({**before, "pkg/b.py": before["pkg/b.py"].replace("True", "False")}, before)
    assert boxed.reach_changed(["pkg/a.py::apart"], ["Box"]) == ["Box"]  # a class named: its special methods


def test_code_that_reaches_names_it_does_not_spell_reaches_every_change():
    before = {"pkg/a.py": "def f(name):\n    return getattr(obj, name)\n\n\ndef g():\n    return 1\n"}
    code = project({"pkg/a.py": before["pkg/a.py"].replace("return 1", "return 2")}, before)
    assert code.reach_changed(["pkg/a.py::f"], []) != []


def test_getattr_with_a_computed_name_reaches_its_own_module_and_the_modules_it_names():
    before = {
        "pkg/a.py": "LIMIT = 1\n",
        "pkg/b.py": "OTHER = 1\n",
        "pkg/c.py": "import pkg.a as settings\n\n\ndef f(name):\n    return getattr(settings, name)\n",
        "pkg/d.py": "LOCAL = 1\n\n\ndef g(name):\n    return globals()[name]\n",
    }
    today = {
        **before,
        "pkg/a.py": "LIMIT = 2\n",
        "pkg/b.py": "OTHER = 2\n",
        "pkg/d.py": "LOCAL = 2\n" + before["pkg/d.py"][10:],
    }
    code = project(today, before)
    assert code.hits(code.names("pkg/c.py", "f"), "pkg/c.py") == ["pkg.a:LIMIT"]  # not pkg.b's OTHER
    assert code.hits(code.names("pkg/d.py", "g"), "pkg/d.py") == ["pkg.d:LOCAL"]


def test_a_statement_reading_an_imported_module_s_namespace_reaches_that_module_not_its_own():
    """`builtins.__dict__` at module level: a new name beside it changes nothing it reads; the same
    read of an imported project module reaches that module's changes; a function's read, where a
    local could hold any object, and a name the module also binds otherwise, still reach their own."""
    table = "BUILTINS = {value: key for key, value in builtins.__dict__.items()}\n"
    before = {
        "pkg/helpers.py": "import builtins\n\n" + table,
        "pkg/reads.py": "import pkg.settings as settings\n\nSEEN = dict(settings.__dict__)\n",
        "pkg/settings.py": "LIMIT = 1\n",
        "pkg/local.py": "import builtins\n\n\ndef names(builtins):\n    return builtins.__dict__\n",
        "pkg/rebound.py": "import builtins\n\nbuiltins = object()\n" + table,
    }
    added = {name: text + "OTHER = 1\n" for name, text in before.items()}
    code = project({**added, "pkg/settings.py": "LIMIT = 2\n"}, before)
    changed = code.changed_names
    assert "pkg.helpers:BUILTINS" not in changed
    assert not code.effects_changed("pkg/helpers.py", value(before["pkg/helpers.py"]))
    assert "pkg.reads:SEEN" in changed
    assert "pkg.rebound:BUILTINS" in changed  # `builtins` is the module's own object there
    assert code.effects_changed("pkg/rebound.py", value(before["pkg/rebound.py"]))  # `.items()` is a call
    assert "pkg.local:OTHER" in code.hits(code.names("pkg/local.py", "names"), "pkg/local.py")


def test_from_future_import_annotations_changes_what_evaluates_annotations_and_no_more():
    """Added, it changes the bindings of the annotated definitions, the code of a function that makes
    an annotated one, and the module's effects only where an effect or a call evaluates annotations."""
    plain = (
        "def typed(value: int) -> int:\n    return value\n\n\ndef untyped(value):\n    return value\n\n\n"
        "def maker():\n    def inner(value: int):\n        return value\n\n    return inner\n\n\n"
        "def local():\n    count: int = 1\n    return count\n\n\nLIMIT: int = 3\n"
    )
    before = {"pkg/a.py": plain, "pkg/b.py": "@register\ndef handler(event: Event):\n    pass\n"}
    today = {name: "from __future__ import annotations\n\n" + text for name, text in before.items()}
    code = project(today, before)
    assert {"pkg.a:typed", "pkg.a:LIMIT", "pkg.a:__annotations__", "pkg.b:handler"} <= code.changed_names
    assert not {"pkg.a:untyped", "pkg.a:maker", "pkg.a:local"} & code.changed_names
    old = value(plain)
    assert code.code_changed("pkg/a.py", "maker", old)  # it makes `inner`, whose annotation it evaluated
    assert not code.code_changed("pkg/a.py", "local", old)  # a function's own variables' are never evaluated
    assert not code.code_changed("pkg/a.py", "typed", old)  # its signature is its binding's, not its code
    assert not code.effects_changed("pkg/a.py", old)
    assert code.effects_changed("pkg/b.py", value(before["pkg/b.py"]))  # `register` may read the annotation
    division = {"pkg/a.py": "from __future__ import division\n\n" + plain}
    assert project(division, {"pkg/a.py": plain}).effects_changed("pkg/a.py", old)


def test_a_class_body_counts_by_its_statement_not_as_code():
    before = {"pkg/a.py": "class Settings:\n    limit = 1\n\n    def read(self):\n        return self.limit\n"}
    code = project({"pkg/a.py": before["pkg/a.py"].replace("limit = 1", "limit = 2")}, before)
    old = value(before["pkg/a.py"])
    assert not code.code_changed("pkg/a.py", "Settings", old)  # what its statement binds changed instead
    assert code.hits(code.names("pkg/a.py", "Settings.read"), "pkg/a.py") == ["limit", "pkg.a:Settings"]


def test_a_class_derived_from_another_module_s_plain_class_only_binds():
    files = {
        "pkg/base.py": "import abc\n\n\nclass Model(abc.ABC):\n    pass\n\n\nclass Registry:\n"
        "    def __init_subclass__(cls):\n        REGISTRY.append(cls)\n",
        "pkg/models.py": "from pkg.base import Model, Registry\n\n\nclass Chat(Model):\n    pass\n\n\n"
        "class Plugin(Registry):\n    pass\n",
    }
    code = project(files)
    chat, plugin = code.module("pkg/models.py").statements[1:]
    assert not code.has_effects("pkg/models.py", chat)  # making it runs nothing of Model's
    assert code.has_effects("pkg/models.py", plugin)  # Registry's __init_subclass__ runs


def test_a_new_method_changes_its_own_name_and_its_class_s_not_every_member():
    before = {"pkg/a.py": "class Tool:\n    def run(self):\n        pass\n\n    def name(self):\n        pass\n"}
    today = {"pkg/a.py": before["pkg/a.py"] + "\n    def close(self):\n        pass\n"}
    assert project(today, before).changed_names == {"pkg.a:Tool", "pkg.a:Tool.close"}


def test_a_star_import_binds_what_its_module_binds_publicly():
    before = {"pkg/a.py": "LIMIT = 1\n_HIDDEN = 1\nOTHER = 1\n", "pkg/__init__.py": "from pkg.a import *\n"}
    today = {**before, "pkg/a.py": "LIMIT = 2\n_HIDDEN = 2\nOTHER = 1\n"}
    code = project(today, before)
    assert code.changed_names == {"pkg.a:LIMIT", "pkg.a:_HIDDEN", "pkg:LIMIT"}
    assert not code.effects_changed("pkg/__init__.py", value(before["pkg/__init__.py"]))  # it binds, no more


def test_a_name_added_to_an_import_line_changes_that_name_alone():
    before = {"pkg/a.py": "from typing import Any\n\nADAPTER = build(Any)\n"}
    today = {"pkg/a.py": "from typing import Any, Literal\n\nADAPTER = build(Any)\n"}
    code = project(today, before, loaded=frozenset({"typing"}))
    assert code.changed_names == {"pkg.a:Literal"}
    assert not code.effects_changed("pkg/a.py", value(before["pkg/a.py"]))  # `build(Any)` reads the same Any
    renamed = {"pkg/a.py": "from typing import Dict as Any\n\nADAPTER = build(Any)\n"}
    assert project(renamed, before, loaded=frozenset({"typing"})).effects_changed("pkg/a.py", value(before["pkg/a.py"]))


def test_a_class_s_member_is_no_variable_of_its_module():
    """A member `type` of a class changed: module-level code calling the builtin `type` is untouched;
    code reading the member as an attribute is reached."""
    before = {"pkg/a.py": "class Payload(TypedDict):\n    type: str\n\n\nKINDS = make(type)\n"}
    today = {"pkg/a.py": "class Payload(TypedDict):\n    type: int\n\n\nKINDS = make(type)\n"}
    code = project(today, before)
    assert code.changed_names == {"pkg.a:Payload", "pkg.a:Payload.type"}
    assert not code.effects_changed("pkg/a.py", value(before["pkg/a.py"]))
    assert code.hits({".type"}, "pkg/b.py") == ["type"] and code.hits({"type"}, "pkg/a.py") == []


def test_a_member_read_in_its_class_s_body_changes_the_members_bound_from_it():
    before = {"pkg/a.py": "class Server:\n    HOST = 'a'\n    URL = 'http://' + HOST\n    PORT = 1\n"}
    today = {"pkg/a.py": "class Server:\n    HOST = 'b'\n    URL = 'http://' + HOST\n    PORT = 1\n"}
    assert project(today, before).changed_names == {"pkg.a:Server", "pkg.a:Server.HOST", "pkg.a:Server.URL"}
    method = "class Server:\n    PORT = {}\n\n    def connect(self, port=PORT):\n        return port\n"
    code = project({"pkg/a.py": method.format(2)}, {"pkg/a.py": method.format(1)})
    assert "pkg.a:Server.PORT" in code.hits(code.names("pkg/a.py", "Server.connect"), "pkg/a.py")  # its default
