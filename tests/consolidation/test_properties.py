"""Property-based invariants of consolidation over random part sequences."""

import itertools
import re

from hypothesis import assume, given
from hypothesis import strategies as st

from consolidation.dangling import drop_dangling_unsigned_trailing_thought
from consolidation.episodes import consolidate_parts
from consolidation.parts import is_signed, is_strict_plain_text, is_thought, is_valid_content_part
from tests.consolidation.builders import FC, S, T, X

texts = st.text(alphabet="ab \n", max_size=4)
signatures = st.text(alphabet="sxyz", min_size=1, max_size=3)
parts = st.one_of(
    st.builds(T, texts),
    st.builds(T, texts, signatures),
    st.builds(S, signatures),
    st.builds(X, texts),
    st.builds(FC, st.sampled_from(["f", "g", "h"])),
    st.builds(lambda text, signature: {"text": text, "thoughtSignature": signature}, texts, signatures),
    st.just({"inlineData": {"mimeType": "image/png", "data": "AA"}}),
)
part_lists = st.lists(parts, max_size=12)


def _signatures(sequence):
    return [part["thoughtSignature"] for part in sequence if is_signed(part)]


def _payloads(sequence):
    return [part for part in sequence if not is_thought(part) and not is_strict_plain_text(part)]


@given(part_lists)
def test_every_signature_fragment_appears_once_in_order(sequence):
    assert "".join(_signatures(consolidate_parts(sequence))) == "".join(_signatures(sequence))


@given(part_lists)
def test_no_non_thought_payload_is_lost_or_reordered(sequence):
    assert _payloads(consolidate_parts(sequence)) == _payloads(sequence)


@given(part_lists)
def test_plain_text_is_preserved_in_order(sequence):
    def plain(parts_):
        return "".join(part["text"] for part in parts_ if is_strict_plain_text(part))

    assert plain(consolidate_parts(sequence)) == plain(sequence)


@given(part_lists)
def test_thought_text_is_preserved_apart_from_whitespace(sequence):
    def thought_text(parts_):
        return re.sub(r"\s", "", "".join(part.get("text") or "" for part in parts_ if is_thought(part)))

    assert thought_text(consolidate_parts(sequence, trim_episode_text=False)) == thought_text(sequence)


@given(part_lists)
def test_episodes_have_text_and_only_non_empty_signatures(sequence):
    for part in consolidate_parts(sequence):
        if is_thought(part):
            assert set(part) <= {"text", "thought", "thoughtSignature"}
            assert "text" in part
            assert part.get("thoughtSignature", "x") != ""


@given(part_lists)
def test_no_two_adjacent_plain_texts_remain_unmerged(sequence):
    out = consolidate_parts(sequence)
    for left, right in itertools.pairwise(out):
        assert not (is_strict_plain_text(left) and left["text"] and is_strict_plain_text(right))


@given(part_lists)
def test_at_most_one_unsigned_episode_and_only_before_a_non_thought_or_the_end(sequence):
    """§3.1's invariant holds when every non-thought part is kept (see the E14 exception test)."""
    assume(all(is_thought(part) or is_valid_content_part(part) for part in sequence))
    out = consolidate_parts(sequence)
    for index, part in enumerate(out):
        if is_thought(part) and not is_signed(part):
            assert index == len(out) - 1 or not is_thought(out[index + 1])


@given(part_lists)
def test_drop_removes_at_most_the_last_part(sequence):
    out = consolidate_parts(sequence)
    dropped = list(out)
    drop_dangling_unsigned_trailing_thought(dropped, True)
    assert dropped in (out, out[:-1])
