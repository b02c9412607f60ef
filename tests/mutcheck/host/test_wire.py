"""The engine's messages to a pytest host read back as they were written."""

from mutcheck.host.wire import (
    COLLECT,
    FULL,
    TESTS,
    BaselineRan,
    Collected,
    CollectionFailed,
    HostSpec,
    MutantPlan,
    MutantRan,
    RunDone,
    SubprocessSpec,
    UnusableOption,
    event_json,
    read_event,
    shared_reach,
)


def test_a_host_spec_of_every_mode_reads_back_equal(tmp_path):
    specs = [
        HostSpec(FULL, 5, "/p", "/s", ["-x"], ["/root"], 42, ["tests"], ["/p/a.py"], 3, 2, True),
        HostSpec(COLLECT, 6, "/p", "/s", [], ["/root"], 42, ["tests"], needs=True),
        HostSpec(TESTS, 7, "/c", "/f", [], ["/root", "/p"], 43, tests=["t.py::a"], limits=[1.5], removed=["x.py"]),
    ]
    for number, spec in enumerate(specs):
        path = tmp_path / f"{number}.json"
        spec.write(path)
        assert HostSpec.read(path) == spec


def test_a_mutant_plan_and_a_subprocess_spec_read_back_equal(tmp_path):
    plan = MutantPlan([{"id": "A", "selected": [0, 2], "edit": [1, 2, "x"]}], {"a.py": "é\n"}, [0.1, 0.2], 2.0, 1.0)
    assert MutantPlan.from_json(plan.to_json()) == plan
    assert "\n" not in plan.to_json()  # one line on the host's stdin
    spec = SubprocessSpec(["/root"], "/p", [], ["/p/a.py"], "/s/reached")
    spec.write(tmp_path / "sub.json")
    assert SubprocessSpec.read(tmp_path / "sub.json") == spec


def test_every_host_event_reads_back_equal_with_its_test_indices_as_numbers():
    events = [
        Collected(["t.py::a", "t.py::b"], ["xdist switched off"], 1.0, 2.5),
        Collected([], [], 1.0, 2.0, needs={"modules": ["yaml"], "distributions": ["pyyaml"]}),
        CollectionFailed("t.py: ImportError: no module named x"),
        UnusableOption("pyproject.toml", "tool.pytest.ini_options.addopts", "--pdb stops the run"),
        BaselineRan(1, [{"test": 0, "outcome": "passed", "duration": 0.1}], [3], 9.5, ["f"]),
        MutantRan(
            "A",
            "fallback",
            {"reason": "subprocess", "test": "t.py::b"},
            False,
            None,
            {0: "failed", 12: "passed"},
            {0: 0.5},
            {0: "AssertionError"},
            1.25,
            confirmed=[12],
        ),
        RunDone({"runs": 2, "tests": 5}),
    ]
    for event in events:
        line = event_json(event)
        assert "\n" not in line
        assert read_event(line) == event
    assert read_event(event_json(events[5])).outcomes == {0: "failed", 12: "passed"}


def test_a_test_reaches_what_the_setups_of_the_shared_fixtures_it_uses_started_wherever_they_ran():
    events = [
        {"fixture": "rows", "seen": {}, "started": ["t.py::build"]},  # set up in one worker
        {"fixture": "rows", "seen": {}, "started": ["t.py::load"]},  # and in another
        {"fixture": "other", "seen": {}, "started": ["t.py::other"]},
        {"fixture": "empty", "seen": {}, "started": []},
        {"fixture": "outer", "seen": {"fixtures": ["inner"]}, "started": []},  # asked for `inner` by name
        {"fixture": "inner", "seen": {}, "started": ["t.py::deep"]},
    ]
    results = [
        {"test": 0, "seen": {"fixtures": ["rows", "tmp_path"]}},
        {"test": 1, "seen": {"fixtures": ["empty"]}},
        {"test": 2},  # not watched
        {"test": 3, "seen": {"fixtures": ["outer"]}},
    ]
    shared_reach(results, events)
    assert results[0]["shared"] == ["t.py::build", "t.py::load"]
    assert "shared" not in results[1] and "shared" not in results[2]
    assert results[3]["shared"] == ["t.py::deep"]  # through the fixture its fixture asked for


def test_the_tests_that_share_a_value_of_the_project_s_own_fixture_each_reach_what_any_of_them_reached():
    events = [
        {"fixture": "rows", "seen": {}, "started": [], "carrier": True, "teardown": False},
        {"fixture": "view", "seen": {}, "started": [], "carrier": True, "teardown": True},
        # a plugin's fixture, or the project's whose value cannot change (None, a number, a path)
        {"fixture": "fixed", "seen": {}, "started": [], "carrier": False, "teardown": True},
        {"fixture": "lonely", "seen": {}, "started": [], "carrier": True, "teardown": False},
        {"finalized": "rows", "during": 4, "started": []},  # no teardown of its own: test 4 is not affected
        {"finalized": "view", "during": 5, "started": []},  # the test in whose teardown `view`'s teardown ran
        {"finalized": "fixed", "during": 6, "started": ["t.py::closing"]},  # what its teardown started
    ]
    results = [
        {"test": 0, "seen": {"fixtures": ["rows"]}, "covered": ["t.py::fill"]},
        {"test": 1, "seen": {"fixtures": ["rows", "view"]}, "cached": ["t.py::cached"]},  # joins the two groups
        {"test": 2, "seen": {"fixtures": ["view"]}, "subprocess": ["t.py::elsewhere"], "forked": ["t.py::pool"]},
        {"test": 3, "seen": {"fixtures": ["fixed"]}, "covered": ["t.py::fixed_user"]},
        {"test": 4, "seen": {}, "covered": ["t.py::after_rows"]},
        {"test": 5, "seen": {}, "covered": ["t.py::tears_down"]},
        {"test": 6, "seen": {"fixtures": ["fixed"]}, "covered": ["t.py::last", "t.py::closing"]},
        {"test": 7, "seen": {"fixtures": ["lonely"]}, "covered": ["t.py::alone"]},
    ]
    shared_reach(results, events)
    group = {"t.py::fill", "t.py::cached", "t.py::elsewhere", "t.py::pool", "t.py::tears_down"}
    kinds = ("covered", "cached", "subprocess", "forked")
    for index in (0, 1, 2, 5):  # each reaches the group's code but what it reached itself
        itself = {name for kind in kinds for name in results[index].get(kind, ())}
        assert set(results[index]["shared"]) == group - itself
    assert results[3]["shared"] == ["t.py::closing"]  # a user of a fixture reaches what its teardown ran
    # a fixture that cannot carry changes joins no one; a test tearing down a fixture without a teardown
    # of its own, a test alone with its fixture: none reaches more than it ran
    assert [index for index, result in enumerate(results) if "shared" in result] == [0, 1, 2, 3, 5]
    assert {results[index]["sharing"] for index in (0, 1, 2, 5)} == {results[0]["sharing"]}
    assert [index for index, result in enumerate(results) if "sharing" in result] == [0, 1, 2, 5, 7]
