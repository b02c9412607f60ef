"""The data operators on small sources (the exact match and replace each proposes) and on the
embedded targets, where each proposal really applies with LibCST and changes the byte code."""

import textwrap
from pathlib import Path

import pytest

from mutcheck.catalog.config import load_config
from mutcheck.suggest.data_edits import DATA_OPERATORS
from mutcheck.suggest.operators import propose
from mutcheck.suggest.suggest import applied_proposals

REPOSITORY = Path(__file__).resolve().parents[3]


def edits(source: str, operator: str) -> set[tuple[str, str | None]]:
    """(match, replace) of every non-arid proposal of `operator`."""
    return {(p.match, p.replace) for p in propose(textwrap.dedent(source)) if not p.arid and p.operator == operator}


def test_a_string_literal_becomes_each_neighbour_of_its_place_nearest_first():
    source = """\
    def answering(message, items):
        if message["role"] == "assistant":
            items.append({"role": "tool", "type": "response.reasoning_text.delta"})
        events = [{"type": "response.reasoning_summary_text.delta"}, {"type": "response.output_text.done"}]
        return message.get("role") == "user", events
    """
    role = edits(source, "replace-literal")
    assert ('"assistant"', '"tool"') in role and ('"assistant"', '"user"') in role  # `x["role"]` and `x.get("role")`
    assert ('"tool"', '"assistant"') in role
    kinds = [p for p in propose(textwrap.dedent(source)) if p.match == '"response.reasoning_text.delta"']
    assert [p.replace for p in kinds] == ['"response.reasoning_summary_text.delta"', '"response.output_text.done"']


def test_a_literal_that_fills_no_known_place_is_left_alone():
    source = """\
    def shout(text):
        print("loud")
        return text.upper() + "!"
    """
    assert edits(source, "replace-literal") == set()


def test_a_returned_constant_becomes_each_other_one_and_the_whole_body_returns_each():
    source = '''\
    def semantics(provider):
        """Which kind."""
        if provider == "openai":
            return OPAQUE
        if provider in RAW_PROVIDERS:
            return RAW
        return SUMMARY
    '''
    found = edits(source, "return-other")
    assert ("SUMMARY", "RAW") in found and ("SUMMARY", "OPAQUE") in found and ("RAW", "SUMMARY") in found
    body = 'if provider == "openai":\n    return OPAQUE\nif provider in RAW_PROVIDERS:\n    return RAW\nreturn SUMMARY'
    assert {(body, f"return {name}") for name in ("OPAQUE", "RAW", "SUMMARY")} <= found


def test_fallbacks_members_terms_and_bounds():
    source = """\
    def build(fields, items, text, n, cls):
        kind = fields.get("kind", "plain")
        late = getattr(cls, "late", None)
        events = [text, {"type": "done", "at": n}]
        first = items[:n]
        tail = items[1:]
        if len(items) > 0:
            return fields.get("prefix", "") + text, kind, late, events, first, tail, range(n)
    """
    assert edits(source, "fallback-taken") == {
        ('fields.get("kind", "plain")', '"plain"'),
        ('getattr(cls, "late", None)', "None"),
        ('fields.get("prefix", "")', '""'),
    }
    dropped = edits(source, "drop-element")
    assert ('[text, {"type": "done", "at": n}]', '[{"type": "done", "at": n}]') in dropped
    assert ('{"type": "done", "at": n}', '{"at": n}') in dropped and (
        '{"type": "done", "at": n}',
        '{"type": "done"}',
    ) in dropped
    assert edits(source, "drop-term") == {
        ('fields.get("prefix", "") + text', "text"),
        ('fields.get("prefix", "") + text', 'fields.get("prefix", "")'),
    }
    bounds = edits(source, "off-by-one")
    assert {("items[:n]", "items[:n + 1]"), ("items[:n]", "items[:n - 1]")} <= bounds
    assert {("items[1:]", "items[2:]"), ("items[1:]", "items[0:]")} <= bounds
    assert {("len(items) > 0", "len(items) > 1"), ("range(n)", "range(n + 1)")} <= bounds


def test_order_first_item_and_in_place_changes():
    source = """\
    def gather(self, parts, found, later):
        for part in self.candidates(parts):
            found.append(part)
        found.extend(later)
        parts[:] = found
        return list(self.open.values()), sorted(found, key=len), found[::-1]
    """
    assert edits(source, "reverse-order") >= {
        ("self.candidates(parts)", "reversed(self.candidates(parts))"),
        ("list(self.open.values())", "list(reversed(self.open.values()))"),
        ("sorted(found, key=len)", "sorted(found, key=len, reverse=True)"),
        ("found[::-1]", "found"),
    }
    assert edits(source, "first-only") == {("self.candidates(parts)", "self.candidates(parts)[:1]")}
    assert edits(source, "rebind-not-change") == {
        ("found.extend(later)", "found = [*found, *later]"),
        ("parts[:] = found", "parts = found"),
    }
    accumulate = {p.replace for p in propose(textwrap.dedent(source)) if p.operator == "assign-not-accumulate"}
    assert accumulate == {"found[:] = [part]", "found[:] = later"}


def test_a_bare_generator_or_an_expression_keeps_its_brackets_where_it_moves():
    source = """\
    def names(value, args, fields):
        args.extend(value or [])
        return sorted(str(name) for name in value if name not in fields)
    """
    assert edits(source, "rebind-not-change") == {("args.extend(value or [])", "args = [*args, *(value or [])]")}
    assert ("args.extend(value or [])", "args[:] = (value or [])") in edits(source, "assign-not-accumulate")
    reversed_order = "sorted((str(name) for name in value if name not in fields), reverse=True)"
    assert ("sorted(str(name) for name in value if name not in fields)", reversed_order) in edits(
        source, "reverse-order"
    )


def test_an_order_nothing_sees_is_not_reversed():
    source = """\
    def seen(chunk, parts):
        found = any(part.ok for part in chunk.parts)
        kinds = {part.kind for part in parts}
        return found, kinds, [part.kind for part in parts]
    """
    listed = (
        "return found, kinds, [part.kind for part in parts]",
        "return found, kinds, [part.kind for part in reversed(parts)]",
    )
    assert edits(source, "reverse-order") == {listed}  # the list's order shows
    assert ("chunk.parts", "chunk.parts[:1]") in edits(source, "first-only")  # `any` sees only the first


def test_iterators_are_neither_reversed_nor_sliced_and_targets_keep_their_members():
    source = """\
    def walk(pairs, mapping):
        for index, pair in enumerate(pairs):
            first, second = pair
        for key in mapping.keys():
            pass
        return first, second
    """
    assert edits(source, "reverse-order") == {("mapping.keys()", "reversed(mapping.keys())")}
    assert edits(source, "first-only") == set()
    assert edits(source, "drop-element") == set()  # `first, second = …` and `return a, b` are not collections


def test_a_reset_inside_a_loop_is_deleted_and_a_literal_flag_becomes_the_scope_s_own():
    source = """\
    def replay(items, has_call):
        current = []
        for item in items:
            if item:
                current = item
            else:
                drop(current, True)
                current = None
    """
    deleted = {
        p.match for p in propose(textwrap.dedent(source)) if p.operator == "delete-state-change" and p.replace is None
    }
    assert "current = None" in deleted and "current = []" not in deleted  # the start is no reset
    assert edits(source, "swap-predicate") == {("True", "has_call")}


@pytest.mark.parametrize("target", ["consolidation", "bridge"])
def test_every_data_proposal_on_the_embedded_targets_applies_and_changes_the_byte_code(target):
    config = load_config(REPOSITORY).chosen_targets((target,)).each_target()[0]
    seen = dict.fromkeys(DATA_OPERATORS, 0)
    for path in sorted((REPOSITORY / "src" / target).glob("*.py")):
        file = path.relative_to(REPOSITORY).as_posix()
        proposals = [p for p in propose(path.read_text(encoding="utf-8")) if p.operator in DATA_OPERATORS]
        for proposal, applied in applied_proposals(config, file, "-", proposals):
            assert applied is not None, (file, proposal)
            seen[proposal.operator] += 1
    assert sum(seen.values()) > 40 and sum(count > 0 for count in seen.values()) >= 7, seen
