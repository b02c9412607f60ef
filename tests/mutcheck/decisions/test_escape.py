"""Markdown escaping of untrusted text, value by value: what each function returns exactly."""

from markupsafe import Markup

from mutcheck.core.escape import INLINE_LIMIT, catalog_inline, fence, finalize, inline, listing, visible

ZWSP = "\u200b"


def test_every_markdown_special_character_is_backslash_escaped():
    assert inline("a|b\\c`d*e_f[g]h~i$j<k>l&m") == "a\\|b\\\\c\\`d\\*e\\_f\\[g\\]h\\~i\\$j\\<k\\>l\\&m"


def test_a_pipe_or_backslash_in_a_table_cell_cannot_add_a_column():
    row = f"| {inline('x | y')} | {inline('z' + chr(92))} |"
    assert row == "| x \\| y | z\\\\ |"
    assert row.replace("\\|", "").count("|") == 3  # the row's own pipes only


def test_invisible_characters_are_spelled_out_and_whitespace_runs_collapse():
    assert visible("a\u202eb\u200bc\x07d\te") == "a<U+202E>b<U+200B>c<U+0007>d<U+0009>e"
    assert visible("a\tb\nc", "\n\t") == "a\tb\nc"
    assert inline("  a \n\t b  ") == "a b"


def test_a_value_is_capped_at_the_inline_limit_with_an_ellipsis():
    exact = "x" * INLINE_LIMIT
    assert inline(exact) == exact
    longer = "y" * (INLINE_LIMIT + 1)
    assert inline(longer) == "y" * (INLINE_LIMIT - 1) + "…"
    assert len(inline(longer)) == INLINE_LIMIT


def test_mentions_references_and_links_are_broken_by_a_zero_width_space():
    assert inline("@team #12 GH-3 http://x www.y") == f"@{ZWSP}team #{ZWSP}12 GH-{ZWSP}3 http:{ZWSP}//x www{ZWSP}.y"


def test_a_sha_is_cut_every_six_characters_and_a_short_hex_word_is_left():
    sha = "0123456789abcdef0123"
    assert inline(sha) == ZWSP.join(["012345", "6789ab", "cdef01", "23"])
    assert inline("abcdef") == "abcdef"  # six hex digits are no reference
    assert inline("abcdef1") == f"abcdef{ZWSP}1"  # seven are


def test_a_listing_escapes_each_value_and_joins_with_commas():
    assert listing(["a|b", "@c"]) == f"a\\|b, @{ZWSP}c"
    assert isinstance(listing(["x"]), Markup)


def test_a_fence_is_longer_than_any_backtick_run_and_keeps_lines_and_tabs():
    assert fence("a\r\n\tb\n\n") == "```\na\n\tb\n```"
    assert fence("x ```` y", "diff") == "`````diff\nx ```` y\n`````"
    assert fence("``") == "```\n``\n```"
    assert fence("\n\na") == "```\n\n\na\n```"
    assert fence("a\u202eb") == "```\na<U+202E>b\n```"
    assert fence("aX  \n") == "```\naX  \n```"  # only trailing newlines go
    assert fence("aX\n") == "```\naX\n```"


def test_finalize_escapes_what_is_not_already_markup():
    assert finalize("<b>") == "\\<b\\>"
    trusted = Markup("<b>")
    assert finalize(trusted) is trusted


def test_a_catalog_texts_code_spans_stay_code_and_the_rest_is_escaped():
    shown = catalog_inline("the  `deepcopy` of <b> by @someone, `a|b @x` and `c` kept")
    assert shown == f"the `deepcopy` of \\<b\\> by @{ZWSP}someone, `a|b @x` and `c` kept"
    assert isinstance(shown, Markup)
    # in a table's cell a pipe would end it, even in a code span; elsewhere the backslash would show
    assert catalog_inline("`a|b` or a|b", cell=True) == "`a\\|b` or a\\|b"
    assert catalog_inline("`a|b` or a|b") == "`a|b` or a\\|b"
    assert catalog_inline("`a` `b`") == "`a` `b`"
    assert catalog_inline("an unclosed `tick") == "an unclosed \\`tick"  # no span: escaped as text
    assert catalog_inline("`x\u202ey` z\u200b") == "`x<U+202E>y` z\\<U+200B\\>"  # invisible, in code and out
    assert catalog_inline("y" * (INLINE_LIMIT + 5)) == "y" * (INLINE_LIMIT - 1) + "…"
