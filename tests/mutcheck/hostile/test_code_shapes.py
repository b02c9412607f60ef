"""Python that is valid but unusual (a keyword touching its parenthesis, a `match` statement) gives
proposals and generic mutants, never an internal error."""

import tomllib

from tests.mutcheck.engine_project import make_engine_project
from tests.mutcheck.hostile.commands import invoke

SHAPES = """\
def tight(x):
    if(x):
        return 1
    while(x):
        x -= 1
    return 2 if(x) else 3


def route(command):
    match command:
        case "go":
            return 1
        case _:
            return 0
"""

TESTS = """\
from shapes import route, tight


def test_tight():
    assert tight(0) == 3


def test_route():
    assert route("go") == 1 and route("stop") == 0
"""


def _project(tmp_path):
    project = make_engine_project(tmp_path / "project")
    (project / "src" / "shapes.py").write_text(SHAPES, encoding="utf-8")
    (project / "tests" / "test_shapes.py").write_text(TESTS, encoding="utf-8")
    return project


def test_suggest_proposes_inside_tight_keywords_and_match_statements(tmp_path):
    project = _project(tmp_path)
    status, output = invoke(project, "suggest", "src/shapes.py", "--all")
    assert status == 0, output
    written = tomllib.loads((project / "mutants" / "suggested_shapes.toml").read_text(encoding="utf-8"))
    edits = {(table["scope"], table["match"], table.get("replace")) for table in written["mutant"]}
    assert {
        ("tight", "if(x):\n    return 1\n", "if(True):\n    return 1\n"),
        ("tight", "while(x):\n    x -= 1\n", "while(False):\n    x -= 1\n"),
        ("tight", "return 2 if(x) else 3", "return 2 if(True) else 3"),
    } <= edits, edits
    assert any(scope == "route" for scope, _, _ in edits), edits


def test_run_generic_on_a_match_statement_judges_its_mutants(tmp_path):
    project = _project(tmp_path)
    status, output = invoke(project, "run", "--generic", "--only", "generic")
    assert status in (0, 1), output
    assert "shapes.x_route__mutmut_" in output
