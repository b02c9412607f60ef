"""A catalog text's code spans stay code in the comment; everything else in it is literal and inert."""

from mutcheck.core.escape import catalog_inline


def test_a_code_span_stays_code_and_the_rest_is_escaped():
    shown = str(catalog_inline("the `deepcopy` of <b> by @someone, `a|b @x` kept"))
    assert shown == "the `deepcopy` of \\<b\\> by @\u200bsomeone, `a\\|b @x` kept"
    assert str(catalog_inline("`a` `b`")) == "`a` `b`"
    assert str(catalog_inline("an unclosed `tick")) == "an unclosed \\`tick"  # no span: escaped as text


def test_a_code_span_cannot_hide_a_character():
    assert str(catalog_inline("`x\u202ey`")) == "`x<U+202E>y`"
