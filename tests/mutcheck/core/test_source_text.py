"""An edit's diff, made from the lines it touches: applied to the file, it gives the edited file, and
it shows what changed, not what an edit rewrote the same."""

from hypothesis import given, settings
from hypothesis import strategies as st

from mutcheck.core.source_text import Span, edit_diff, line_offsets, replaced
from tests.mutcheck.spans import patched

LINES = st.lists(st.sampled_from(["a\n", "b\n", "x = 1\n", "\n", "    if y:\n"]), max_size=25)


@st.composite
def edits(draw: st.DrawFn) -> tuple[str, Span, str]:
    """A text, a span in it (a part of a line, or whole lines, or a place between two), and a replacement."""
    lines = draw(LINES)
    if lines and draw(st.booleans()):
        lines[-1] = lines[-1].rstrip("\n") or "z"  # no line break at the end
    text = "".join(lines)
    offsets = line_offsets(text)
    count = len(offsets) - 1
    if count == 0:
        return text, Span(1, 0, 1, 0), draw(st.sampled_from(["", "q\n"]))
    first = draw(st.integers(1, count))
    last = draw(st.integers(first, count))
    if draw(st.booleans()) and last < count:
        span = Span(first, 0, last + 1, 0)
        return text, span, draw(st.sampled_from(["", "q\n", "a\nb\n", text[offsets[first - 1] : offsets[last]]]))
    start = draw(st.integers(0, offsets[first] - offsets[first - 1]))
    end = draw(st.integers(start if last == first else 0, offsets[last] - offsets[last - 1]))
    return text, Span(first, start, last, end), draw(st.sampled_from(["", "q", "a\nb", "\n"]))


@settings(max_examples=400, deadline=None)
@given(edit=edits())
def test_the_diff_of_an_edit_applied_to_the_file_gives_the_edited_file(edit):
    text, span, replacement = edit
    edited = replaced(text, line_offsets(text), span, replacement)
    if edited != text:
        assert patched(text, edit_diff("f.py", text, line_offsets(text), span, replacement)) == edited


def test_an_edit_that_rewrites_more_lines_than_it_changes_shows_the_line_it_changed():
    text = "".join(f"line{number}\n" for number in range(1, 21))
    offsets = line_offsets(text)
    rewritten = text[offsets[4] : offsets[15]].replace("line10\n", "changed\n")  # lines 5-15, one changed
    diff = edit_diff("f.py", text, offsets, Span(5, 0, 16, 0), rewritten)
    assert diff == (
        "--- a/f.py\n+++ b/f.py\n@@ -7,7 +7,7 @@\n"
        " line7\n line8\n line9\n-line10\n+changed\n line11\n line12\n line13\n"
    )
