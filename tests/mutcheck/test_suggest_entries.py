"""The entries `mutcheck suggest` writes: ids, the killers listed, texts kept, and TOML that reads back."""

import datetime
import tomllib
from collections import Counter

from mutcheck.catalog import NAME
from mutcheck.suggest_entries import entry_id, entry_table, most_specific, mutant_of, render
from mutcheck.suggest_operators import Proposal


def proposal(match: str = "a and b", replace: str | None = "b", scope: str = "Tracker.add") -> Proposal:
    return Proposal(scope, "drop-operand", match, replace, 3, False, match, replace or "")


def test_an_id_names_scope_and_operator_and_changes_only_with_the_edit():
    first = entry_id(proposal())
    assert first.startswith("S-Tracker.add-drop-operand-") and len(first.rsplit("-", 1)[1]) == 6
    assert entry_id(proposal()) == first
    assert entry_id(proposal(replace="a")) != first
    assert entry_id(proposal(replace=None)) != entry_id(proposal(replace=""))
    assert NAME.fullmatch(entry_id(proposal(scope="Ünïcode.método")))


def test_few_killers_are_all_listed_else_the_most_specific_three():
    kills = Counter({"t::broad": 9, "t::b": 2, "t::a": 2, "t::narrow": 1})
    assert most_specific(["t::broad", "t::a"], kills) == ["t::broad", "t::a"]
    assert most_specific(["t::broad", "t::b", "t::a", "t::narrow"], kills) == ["t::narrow", "t::a", "t::b"]


def test_a_survivor_is_a_known_gap_and_what_the_user_wrote_is_kept():
    mutant = mutant_of(proposal(), "src/x.py", "mutants/suggested_x.toml", ("en", "zh"))
    gap = entry_table(mutant, None, ("en", "zh"), None)
    assert set(gap["survives"]) == {"en", "zh"} and "killed_by" not in gap
    assert gap["title"] == {"en": "`a and b` cut to `b`", "zh": "`a and b` 被削减为 `b`"}
    previous = {"id": mutant.id, "title": {"en": "mine", "zh": "我的"}, "origin": "review", "killed_by": ["old"]}
    killed = entry_table(mutant, ["t::new"], ("en", "zh"), previous)
    assert killed["killed_by"] == ["t::new"] and "survives" not in killed
    assert (killed["title"], killed["origin"]) == ({"en": "mine", "zh": "我的"}, "review")
    assert killed["why"] == mutant.why


def test_the_file_reads_back_as_written():
    tables = [
        {
            "id": "A",
            "match": "if x:\n    return 'y'\n",
            "replace": "ends with a quote '",
            "title": {"en": 'say "hi"\tnow', "zh": "中文"},
            "delete": True,
            "killed_by": ["t::a", "t::b"],
            "count": 3,
            "when": datetime.date(2024, 1, 2),
        },
        {"id": "B", "match": "x\x7f", "odd key": "v"},
    ]
    text = render(tables)
    assert "'''\nif x:\n    return 'y'\n'''" in text  # code over several lines stays readable
    assert tomllib.loads(text)["mutant"] == tables
