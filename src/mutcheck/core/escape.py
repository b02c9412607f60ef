"""Making untrusted text (test ids, failure lines, mutant text) inert in Markdown.

Every value from a run is treated as hostile: it may try to close our <details>, open an HTML
comment, fake our marker, break out of a code span or table, mention someone, link a URL or
cross-reference an issue or commit, hide text behind bidi or zero-width characters, or be so
long that the comment no longer fits.
"""

import re
import unicodedata

from markupsafe import Markup

MARKER = "<!-- mutcheck -->"
INLINE_LIMIT = 300  # characters of one untrusted value in a paragraph or table cell

# Backslash-escaped so that GitHub renders them literally instead of as Markdown ($ opens math)
# or HTML (< opens a tag, a comment or our own </details>; & an entity). Markdown escapes, not
# HTML entities: notification e-mails and the API show the comment's source, where &#x27; is
# noise. Text is never placed at the start of a line, and [ ] are escaped, so # + - ( ) ! cannot
# start a heading, list, link or image.
_SPECIAL = re.compile(r"([\\`*_\[\]|~$<>&])")
# What GitHub turns into a link, a mention or a reference (GFM's extended autolinks, then
# GitHub's own: @user, #N, owner/repo#N, GH-N, user@sha, bare 7-40-hex SHAs), matched in the
# escaped text. A zero-width space is put where it breaks the pattern: GitHub renders the literal
# text and links nothing. No Markdown escape can do this (GitHub links the rendered text); the
# character itself, unlike its entity, stays invisible in e-mails, and as visible() spells out
# every one that came from the run, each raw one in a comment is ours. A SHA gets one every 6
# characters, so no piece of it is long enough to be a SHA again.
_REFERENCE = r"@|#(?=[0-9])|gh-(?=[0-9])|(?<![0-9a-f])[0-9a-f]{7,40}\b"
_LINKING = re.compile(rf"{_REFERENCE}|:(?=//)|www(?=\.)", re.IGNORECASE)
_SHA_PIECE = 6
_BREAK = "\u200b"
# Characters that change how text around them is shown without being seen: bidi controls,
# zero-width characters, the byte-order mark, soft hyphens, terminal and other control codes.
_INVISIBLE_CATEGORIES = ("Cf", "Cc")
_KEPT_IN_CODE = "\n\t"


def visible(text: str, kept: str = "") -> str:
    """Every invisible formatting or control character (except those in `kept`) spelled <U+XXXX>."""
    return "".join(
        f"<U+{ord(c):04X}>" if c not in kept and unicodedata.category(c) in _INVISIBLE_CATEGORIES else c for c in text
    )


def _capped(text: str) -> str:
    return text if len(text) <= INLINE_LIMIT else text[: INLINE_LIMIT - 1] + "…"


def _literal(value: object) -> str:
    """One line shown as written: invisible characters spelled out, capped, Markdown escaped."""
    return _SPECIAL.sub(r"\\\1", _capped(visible(" ".join(str(value).split()))))


def inline(value: object) -> Markup:
    """One line of literal text, safe inside a paragraph, a list item or a table cell."""
    return Markup(_broken(_LINKING, _literal(value)))


def _broken(pattern: re.Pattern[str], text: str) -> str:
    return pattern.sub(_break, text)


def _break(match: re.Match[str]) -> str:
    found = match.group(0)
    if len(found) < _SHA_PIECE:  # @, #, gh-, :, www
        return found + _BREAK
    return _BREAK.join(found[start : start + _SHA_PIECE] for start in range(0, len(found), _SHA_PIECE))


_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_CELL_PIPE = "\\|"  # a pipe, even in a code span, would split a table cell


def catalog_inline(value: object, cell: bool = False) -> Markup:
    """A catalog text (title, why, hint): literal like `inline`, but a backtick span of it stays a
    code span, as its author wrote it (`self.clear()` deleted). Inside one nothing links, mentions
    or renders; invisible characters are spelled out there too. In a table's `cell` a code span's
    pipe is escaped (it would end the cell); elsewhere a backslash in a code span would show."""
    shown = []
    for index, part in enumerate(_CODE_SPAN.split(_capped(" ".join(str(value).split())))):  # text, code, …, text
        seen = visible(part)
        if index % 2:
            shown.append(f"`{seen.replace('|', _CELL_PIPE)}`" if cell else f"`{seen}`")
        else:
            shown.append(_broken(_LINKING, _SPECIAL.sub(r"\\\1", seen)))
    return Markup("".join(shown))


def listing(values: list[str]) -> Markup:
    """Values joined by commas, each escaped and capped on its own."""
    return Markup(", ").join(inline(value) for value in values)


def fence(value: object, language: str = "") -> Markup:
    """A fenced code block whose fence is longer than any backtick run inside, so nothing in the
    content can close it early (CommonMark: a closing fence must be at least as long). Nothing
    links inside code, but invisible characters would still hide what the code does."""
    text = visible(str(value).replace("\r", "").rstrip("\n"), _KEPT_IN_CODE)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return Markup(f"{ticks}{language}\n{text}\n{ticks}")


def finalize(value: object) -> object:
    """Jinja2 `finalize`: everything printed is escaped unless it is already Markup."""
    return value if isinstance(value, Markup) else inline(value)
