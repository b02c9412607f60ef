"""Transport-continuation prefix merge (spec §5.4): examples P1–P6, drop site 4."""

from tests.consolidation.builders import FC, E, S, T, X, model_parts, run_attempt

PREFIX = "part one "


def _continued(parts, finish="STOP"):
    session = run_attempt(parts, finish=finish, transport_prefix=PREFIX)
    return session, model_parts(session)


def test_p1_prefix_goes_before_the_call():
    """P1: FC → {part one }, FC."""
    fc = FC("f")
    assert _continued([fc])[1] == [X(PREFIX), fc]


def test_p2_prefix_goes_after_a_signed_episode():
    """P2: {E,signed}, FC → {E}, {part one }, FC."""
    fc = FC("f")
    parts = _continued([T("E"), S("s"), fc])[1]
    assert parts == [E("E", "s"), X(PREFIX), fc]
    assert parts.index(E("E", "s")) < parts.index(X(PREFIX))


def test_p3_unsigned_trailing_thought_is_dropped_even_on_stop():
    """P3 (R6-2, accepted over-drop R7-2): T"partial" unsigned, STOP → {part one } only."""
    session, parts = _continued([T("partial")])
    assert parts == [X(PREFIX)]
    assert session.records[-1] == [X(PREFIX)]


def test_p4_signed_thought_only_turn_keeps_its_episode_before_the_prefix():
    """P4 (R7-3): T"reasoning" + S"sig" → {reasoning,sig}, {part one }."""
    parts = _continued([T("reasoning"), S("sig")])[1]
    assert parts == [E("reasoning", "sig"), X(PREFIX)]
    assert parts.index(E("reasoning", "sig")) < parts.index(X(PREFIX))


def test_p5_prefix_merges_into_the_first_plain_text():
    """P5: X"rest" → {merged text}."""
    assert _continued([X("rest")])[1] == [X("part one rest")]


def test_p6_no_drop_on_the_merge_branch():
    """P6: T unsigned, X"rest" → {thought}, {merged}."""
    assert _continued([T("thought"), X("rest")])[1] == [E("thought"), X("part one rest")]


def test_prefix_merge_strips_a_replayed_overlap():
    assert _continued([X("part one more")])[1] == [X("part one more")]


def test_prefix_merge_copies_the_text_part():
    original = X("rest")
    _continued([original])
    assert original == X("rest")


def test_prefix_is_not_applied_to_an_empty_prefix():
    fc = FC("f")
    assert model_parts(run_attempt([T("partial"), fc], transport_prefix="")) == [E("partial"), fc]
