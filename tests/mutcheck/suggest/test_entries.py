"""The entries `mutcheck suggest` writes: ids, the killers listed, their texts (generated from real
proposals, kept when a person wrote them), and TOML that reads back."""

import datetime
import re
import tomllib
from collections import Counter

import pytest

from mutcheck.catalog.catalog import NAME, Mutant
from mutcheck.core.texts import say
from mutcheck.suggest.entries import entry_id, entry_table, most_specific, mutant_of, render
from mutcheck.suggest.operators import OPERATORS, Proposal, propose
from tests.mutcheck.paths import REPOSITORY

TARGET = REPOSITORY / "src/consolidation"
BRIDGE = TARGET.parent / "bridge"
LANGUAGES = ("en", "zh")


def proposal(match: str = "a and b", replace: str | None = "b", scope: str = "Tracker.add") -> Proposal:
    return Proposal(scope, "drop-operand", match, replace, 3, False, False, match, replace or "")


def test_an_id_names_scope_and_operator_and_changes_only_with_the_edit():
    first = entry_id(proposal(), "src/x.py")
    assert first.startswith("S-Tracker.add-drop-operand-") and len(first.rsplit("-", 1)[1]) == 6
    assert entry_id(proposal(), "src/x.py") == first
    assert entry_id(proposal(replace="a"), "src/x.py") != first
    assert entry_id(proposal(replace=None), "src/x.py") != entry_id(proposal(replace=""), "src/x.py")
    assert NAME.fullmatch(entry_id(proposal(scope="Ünïcode.método"), "src/x.py"))


def test_an_id_another_file_s_entry_has_is_made_with_the_file_and_stays_stable():
    first = entry_id(proposal(), "src/x.py")
    other = entry_id(proposal(), "src/y.py", {first})
    assert other != first and other.startswith("S-Tracker.add-drop-operand-")
    assert entry_id(proposal(), "src/y.py", {first}) == other
    assert entry_id(proposal(), "src/z.py", {first}) not in (first, other)


def test_few_killers_are_all_listed_else_the_most_specific_three():
    kills = Counter({"t::broad": 9, "t::b": 2, "t::a": 2, "t::narrow": 1})
    assert most_specific(["t::broad", "t::a"], kills) == ["t::broad", "t::a"]
    assert most_specific(["t::broad", "t::b", "t::a", "t::narrow"], kills) == ["t::narrow", "t::a", "t::b"]


def test_a_survivor_is_a_known_gap_and_what_the_user_wrote_is_kept():
    mutant = mutant_of(proposal(), "src/x.py", "mutants/suggested_x.toml", ("en", "zh"))
    gap = entry_table(mutant, None, ("en", "zh"), None)
    assert set(gap["survives"]) == {"en", "zh"} and "killed_by" not in gap
    assert gap["title"] == {"en": "`a and b` cut to `b`", "zh": "`a and b` 删去一项，只剩 `b`"}
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


def entry_of(source: str, operator: str, replace: str) -> Mutant:
    """The entry, texts and all, of the one proposal of `source` that makes this edit."""
    (found,) = [p for p in propose(source) if p.operator == operator and p.replace == replace]
    return mutant_of(found, "src/x.py", "mutants/suggested_x.toml", LANGUAGES)


LONG_CONDITION = """\
def is_dangling_unsigned_thought(part):
    return part is not None and is_thought(part) and js_truthy(part.get("text")) and not is_signed(part)
"""
LAST_DROPPED = 'part is not None and is_thought(part) and js_truthy(part.get("text"))'


def test_a_title_shows_where_two_long_versions_differ():
    assert entry_of(LONG_CONDITION, "drop-operand", LAST_DROPPED).title == {
        "en": '`…js_truthy(part.get("text")) and not is_signed(part)` cut to `…js_truthy(part.get("text"))`',
        "zh": '`…js_truthy(part.get("text")) and not is_signed(part)` 删去一项，只剩 `…js_truthy(part.get("text"))`',
    }
    first_dropped = 'is_thought(part) and js_truthy(part.get("text")) and not is_signed(part)'
    assert entry_of(LONG_CONDITION, "drop-operand", first_dropped).title["en"] == (
        "`part is not None and is_thought(part) and js_truthy(part.…` cut to "
        '`is_thought(part) and js_truthy(part.get("text")) and not…`'
    )


def one_line(code: str) -> str:
    """Code as a title shows it: on one line, no space inside a bracket a line break opened or closed."""
    return re.sub(r"([(\[{]) | ([)\]}])", r"\1\2", " ".join(code.split()))


@pytest.fixture(scope="module")
def real_entries() -> list[tuple[Proposal, Mutant]]:
    """Every proposal for the embedded targets' code, with the entry texts it gets."""
    paths = sorted([*TARGET.glob("*.py"), *BRIDGE.glob("*.py")])
    proposals = [p for path in paths for p in propose(path.read_text(encoding="utf-8"))]
    return [(p, mutant_of(p, "f.py", "out.toml", LANGUAGES)) for p in proposals]


def test_the_two_halves_of_a_title_differ_and_are_cut_between_words_on_real_code(real_entries):
    compared = 0
    for proposal, mutant in real_entries:
        title = mutant.title["en"]
        # the code first, then what it becomes where the title shows it, each a Markdown code span
        shown = [quote.strip() for _, quote in re.findall(r"(`+)(.+?)\1(?!`)", title)]
        if len(shown) == 2:
            compared += 1
            assert shown[0] != shown[1], title
        for quote, version in zip(shown, (proposal.code, proposal.new), strict=False):
            line = one_line(version)
            for piece in quote.split("…"):
                at = line.find(piece)  # each piece is the code's own text, cut between words
                assert at >= 0, (quote, line)
                around = line[at - 1 : at + 1] if at else "", line[at + len(piece) - 1 : at + len(piece) + 1]
                assert not any(re.fullmatch(r"\w\w", pair) for pair in around), (quote, line)
    assert compared > 500


def test_every_why_and_hint_is_a_sentence_and_a_gap_says_what_its_tests_miss(real_entries):
    operators = set()
    for found, mutant in real_entries:
        operators.add(found.operator)
        for text in (mutant.why, mutant.hint):  # a hint asks for a test in the imperative
            assert re.match(r"[A-Z`]", text["en"]) and text["en"].endswith("."), text
            assert text["zh"].endswith("。"), text
    assert operators == set(OPERATORS)
    gap = entry_table(mutant_of(proposal(), "src/x.py", "out.toml", LANGUAGES), None, LANGUAGES, None)
    assert gap["survives"]["en"].startswith(
        "found by mutcheck suggest: the tests that run `a and b` pass with this edit too, so none of them checks "
        "what it changes. Add a test that fails with it"
    )
    assert gap["survives"]["zh"].startswith("由 mutcheck suggest 发现：运行 `a and b` 的测试在这一修改下照样通过")


def test_a_text_in_the_words_suggest_writes_is_written_anew_and_a_persons_is_kept():
    mutant = entry_of(LONG_CONDITION, "drop-operand", LAST_DROPPED)
    cut = "`part is not None and is_thought(part) and js_truthy(part.ge…`"  # as code was quoted before
    earlier = {lang: say(lang, "suggest", "survives", code=cut) for lang in LANGUAGES}
    previous = {
        "id": mutant.id,
        "title": {"en": f"{cut} cut to {cut}", "zh": "我的标题"},
        "why": {"en": "Mine.", "zh": mutant.why["zh"]},
        "survives": earlier,
        "reviewed": False,
    }
    killed = entry_table(mutant, ["t::new"], LANGUAGES, previous)
    assert killed["title"] == {"en": mutant.title["en"], "zh": "我的标题"}
    assert killed["title"]["en"].startswith("`…js_truthy")
    assert killed["why"] == {"en": "Mine.", "zh": mutant.why["zh"]}
    assert killed["killed_by"] == ["t::new"] and "survives" not in killed  # suggest's words are no person's reason
    gap = entry_table(mutant, None, LANGUAGES, previous)
    assert gap["survives"]["en"].startswith("found by mutcheck suggest: the tests that run `part is not None and")
    assert gap["survives"] != earlier and gap["reviewed"] is False
    reason = {**previous, "survives": {"en": "Only reached from the CLI.", "zh": earlier["zh"]}}
    assert entry_table(mutant, ["t::new"], LANGUAGES, reason)["survives"] == reason["survives"]
