"""Fuzzing with results files that pass the schema: every renderer, `merge` and `comment
--from-artifact` end in a documented status (a refusal is exit 2 and one line), never an internal error."""

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

import jsonschema
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mutcheck.cli import main
from mutcheck.core.exit_code import ExitCode
from mutcheck.results.results import schema
from tests.mutcheck.fake_github import NAME, OWNER, FakeGitHub
from tests.mutcheck.hostile.results_edits import RESULTS, alike, json_values, paths

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FORMATS = ("text", "markdown", "html", "stryker")
VALIDATOR = jsonschema.Draft202012Validator(schema())
HEAD = RESULTS["run"]["head_sha"]
TOKEN = "ghp_fuzzedTokenThatMustNeverBePrinted"
TESTS = RESULTS["tests"]


def enumerated(node: Any) -> list[Any]:
    """Every value a schema lists in an `enum` or a `const`."""
    if isinstance(node, list):
        return [value for child in node for value in enumerated(child)]
    if not isinstance(node, dict):
        return []
    listed = [*node.get("enum", []), *([node["const"]] if "const" in node else [])]
    return listed + [value for child in node.values() for value in enumerated(child)]


# The words the schema allows (verdicts, outcomes, paths, kinds, reasons…) and strings of the shapes
# its patterns ask for: edits made of them pass the schema.
WORDS = sorted({word for word in enumerated(schema()) if isinstance(word, str)})
SHAPED = ["1/2", "2/2", "0/0", "3/2", "99999999999999999999/1", "#12", "https://x.test/a", "a" * 40, HEAD, "0" * 64]
strings = st.sampled_from(WORDS) | st.sampled_from(SHAPED)
numbers = st.integers(min_value=0, max_value=10**20) | st.floats(min_value=0, max_value=1e300)

# Parts the golden file lacks, whole and valid, to be edited in turn.
GRAFTS = {
    "a change guard": (
        ("change_guard",),
        {
            "base": "main",
            "merge_base": "b" * 40,
            "files": ["src/tiny.py"],
            "skipped": [
                {
                    "id": "revert:src/tiny.py:1",
                    "file": "src/tiny.py",
                    "first_line": 3,
                    "line_count": 2,
                    "reason": "moved",
                    "diff": "@@ -3,2 +3,0 @@\n-a\n-b\n",
                    "reverted_with": "revert:src/tiny.py:2",
                }
            ],
            "about": {TESTS[0]: "clamps below"},
        },
    ),
    "a drifted entry": (
        ("drift",),
        [
            {
                "id": "GONE",
                "source": "mutants/catalog.toml",
                "file": "src/tiny.py",
                "scope": "clamp",
                "title": {"en": "gone", "zh": "不见了"},
                "field": "match",
                "message": "not found in clamp",
                "diff": "--- a/src/tiny.py\n+++ b/src/tiny.py\n",
                "proposal": {"scope": "clamp", "match": "value <= low", "replace": "value < low"},
            }
        ],
    ),
    "a fallback reason": (("mutants", 2, "fallback"), {"reason": "import-time", "test": TESTS[4]}),
    "a tracked gap": (("mutants", 8, "tracked"), "#12"),
    "phase timings": (("run", "timings"), {"copy": 0.1, "baseline": 0.5, "total": 4.2}),
    "the copy's size": (("run", "copy"), {"files": 3, "bytes": 1024, "seconds": 0.01}),
    "control runs": (("run", "controls"), {"runs": 1, "tests": 2}),
    "an order-dependent test": (("baseline", "order_dependent"), [TESTS[1]]),
}


def _parent(document: Any, path: tuple) -> Any:
    """The object or array that holds the place `path`."""
    for key in path[:-1]:
        document = document[key]
    return document


@st.composite
def valid_results(draw: st.DrawFn, base: dict[str, Any] = RESULTS, grafts: bool = True) -> dict[str, Any]:
    """`base` with a few parts grafted (unless not `grafts`) and one to four places given other values,
    each edit kept only when the document still passes the schema."""
    results = copy.deepcopy(base)
    for graft in draw(st.lists(st.sampled_from(sorted(GRAFTS)), max_size=3 if grafts else 0, unique=True)):
        path, value = GRAFTS[graft]
        _parent(results, path)[path[-1]] = copy.deepcopy(value)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        path = draw(st.sampled_from(paths(results)[1:]))
        parent = _parent(results, path)
        old = parent[path[-1]]
        new = draw(alike(old, strings) | alike(old, strings) | json_values | numbers | strings)
        parent[path[-1]] = new
        if not VALIDATOR.is_valid(results):
            parent[path[-1]] = old
    assert VALIDATOR.is_valid(results)
    return results


def assert_clean_exit(outcome, allowed: set[int]) -> None:
    assert outcome.exit_code in allowed, (outcome.exit_code, outcome.output[-2000:])
    assert outcome.exception is None or isinstance(outcome.exception, SystemExit), repr(outcome.exception)
    assert "Traceback" not in outcome.output and "internal error" not in outcome.output, outcome.output[-2000:]


def assert_refused_in_one_line(outcome, path: Path) -> None:
    (line,) = outcome.output.splitlines()
    assert line.startswith(f"error: {path}: "), line


def write(path: Path, results: dict[str, Any]) -> Path:
    path.write_text(json.dumps(results, ensure_ascii=False), encoding="utf-8")
    return path


@FUZZ
@given(results=valid_results(), fmt=st.sampled_from(FORMATS))
def test_report_renders_or_refuses_in_one_line_any_valid_results_file(results, fmt):
    with tempfile.TemporaryDirectory() as directory:
        path = write(Path(directory) / "results.json", results)
        outcome = CliRunner().invoke(main, ["report", str(path), "--format", fmt])
    assert_clean_exit(outcome, {ExitCode.OK, ExitCode.USAGE})
    if outcome.exit_code == ExitCode.USAGE:
        assert_refused_in_one_line(outcome, path)


def shards(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The run as shards 1/2 and 2/2: the mutants split between them, everything else the same."""
    made = []
    for number in (1, 2):
        shard = copy.deepcopy(results)
        shard["run"]["shard"] = f"{number}/2"
        shard["mutants"] = [m for position, m in enumerate(results["mutants"]) if position % 2 == number - 1]
        made.append(shard)
    return made


@st.composite
def sharded_results(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Two shards of one valid run; sometimes the second edited on its own (valid still)."""
    first, second = shards(draw(valid_results()))
    if draw(st.booleans()):
        second = draw(valid_results(second, grafts=False))  # grafts name mutants by their place in the whole run
    return [first, second]


@settings(FUZZ, max_examples=40)
@given(pair=sharded_results())
def test_merge_merges_or_refuses_and_what_it_merges_renders(pair):
    with tempfile.TemporaryDirectory() as directory:
        inputs = [str(write(Path(directory) / f"shard{number}.json", shard)) for number, shard in enumerate(pair, 1)]
        merged = Path(directory) / "merged.json"
        outcome = CliRunner().invoke(main, ["merge", *inputs, "-o", str(merged)])
        assert_clean_exit(outcome, {ExitCode.OK, ExitCode.EXPECTATION_FAILED, ExitCode.BASELINE_FAILED, ExitCode.USAGE})
        if outcome.exit_code == ExitCode.USAGE:
            assert outcome.output.startswith("error: ") and not merged.exists(), outcome.output
            return
        assert json.loads(merged.read_text(encoding="utf-8"))["summary"]["exit_code"] == outcome.exit_code
        for fmt in FORMATS:
            rendered = CliRunner().invoke(main, ["report", str(merged), "--format", fmt])
            assert_clean_exit(rendered, {ExitCode.OK})


@settings(FUZZ, max_examples=15)
@given(results=valid_results(), inline=st.booleans())
def test_comment_from_an_artifact_posts_or_refuses_and_never_shows_the_token(results, inline):
    with tempfile.TemporaryDirectory() as directory, FakeGitHub() as fake:
        fake.head_sha = HEAD
        artifact = Path(directory)
        write(artifact / "results.json", results)
        (artifact / "pr-number").write_text("7\n", encoding="ascii")
        arguments = ["comment", "--repo", f"{OWNER}/{NAME}", "--api-url", fake.base, "--from-artifact", directory]
        arguments += ["--head-sha", HEAD, *(["--inline"] if inline else [])]
        outcome = CliRunner(env={"GITHUB_TOKEN": TOKEN, "GITHUB_ACTIONS": None}).invoke(main, arguments)
    assert_clean_exit(outcome, {ExitCode.OK, ExitCode.USAGE, ExitCode.PUBLISH_FAILED})
    assert TOKEN not in outcome.output
    if outcome.exit_code == ExitCode.USAGE:
        assert_refused_in_one_line(outcome, artifact / "results.json")
