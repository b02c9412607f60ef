"""The workflow's install line from the project's extras and dependency groups, for what a suite
needs, with this environment's installed metadata (pytest-xdist and hypothesis are installed)."""

import pytest

from mutcheck.core.problems import InputError
from mutcheck.scaffold.install_set import install_set
from mutcheck.scaffold.suite_needs import SuiteNeeds

DOCUMENT = {
    "project": {
        "name": "Shop",
        "dependencies": ["rich"],
        "optional-dependencies": {"core": ["hypothesis"], "dev": ["shop[core]", "not-installed-anywhere"]},
    },
    "dependency-groups": {"base": ["pytest-xdist"], "ci": [{"include-group": "base"}]},
}


def test_extras_naming_the_project_and_groups_including_groups_are_followed():
    needs = SuiteNeeds(frozenset({"hypothesis", "pytest-xdist", "rich", "execnet"}), frozenset(), "needs")
    chosen = install_set(DOCUMENT, needs)
    assert chosen.line == "-e .[core] --group base"
    # rich comes with the project; base brings execnet with pytest-xdist, ci what base brings,
    # dev what core brings and more
    assert chosen.reason == (
        "needs execnet, hypothesis, pytest-xdist: extra core and group base have them; "
        "extra dev would add not-installed-anywhere"
    )


def test_what_no_extra_or_group_holds_is_named_and_a_scanned_module_is_matched_by_its_name():
    needs = SuiteNeeds(frozenset({"pygments"}), frozenset({"pytest_xdist", "yaml_like"}), "their imports name")
    chosen = install_set(DOCUMENT, needs)
    assert chosen.line == "-e . --group base"  # pygments comes with rich, a dependency of the project
    assert chosen.reason == (
        "their imports name pytest-xdist, yaml_like: no extra or group holds yaml_like; group base has the others"
    )


@pytest.mark.parametrize(
    ("document", "field", "message"),
    [
        ({"dependency-groups": {"a": [{"include-group": "a"}]}}, "dependency-groups.a", "includes itself"),
        ({"project": {"optional-dependencies": {"x": "hypothesis"}}}, "project.optional-dependencies.x", "must be"),
        ({"project": {"dependencies": ["a b c"]}}, "project.dependencies", "not a requirement: "),
    ],
)
def test_a_malformed_table_is_one_problem_naming_its_field(document, field, message):
    with pytest.raises(InputError) as raised:
        install_set(document, SuiteNeeds(frozenset(), frozenset(), "needs"))
    [problem] = raised.value.problems
    assert (problem.source, problem.field) == ("pyproject.toml", field) and problem.message.startswith(message)
