"""Making untrusted text (test ids, failure lines, mutant text) inert in Markdown.

Every value from a run is treated as hostile: it may try to close our <details>, open an HTML
comment, fake our marker, break out of a code span or table, or mention someone.
"""

import html
import re
from urllib.parse import quote

from markupsafe import Markup

MARKER = "<!-- mutcheck -->"

# Backslash-escaped so that GitHub renders them literally instead of as Markdown. Text is never
# placed at the start of a line, and [ ] are escaped, so # + - ( ) ! cannot start a heading,
# list, link or image.
_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_ZERO_WIDTH_SPACE = "\u200b"


def inline(value: object) -> Markup:
    """One line of literal text, safe inside a paragraph, a list item or a table cell."""
    text = " ".join(str(value).split())
    text = _SPECIAL.sub(r"\\\1", text)
    text = html.escape(text, quote=True)  # <!--, -->, </details>, <script> become entities
    text = text.replace("@", "@" + _ZERO_WIDTH_SPACE)  # no @mention, no notification
    return Markup(text)


def fence(value: object, language: str = "") -> Markup:
    """A fenced code block whose fence is longer than any backtick run inside, so nothing in the
    content can close it early (CommonMark: a closing fence must be at least as long)."""
    text = str(value).replace("\r", "").rstrip("\n")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return Markup(f"{ticks}{language}\n{text}\n{ticks}")


def link(target: str) -> Markup:
    """A known gap's `tracked`: an http(s) URL as a link whose destination is percent-encoded (so
    nothing in it can end the link or the line); anything else (#N, which GitHub links) as text."""
    if not target.startswith(("http://", "https://")):
        return inline(target)
    return Markup(f"[{inline(target)}]({quote(target, safe='/:?#&=%~+,;-._')})")


def finalize(value: object) -> object:
    """Jinja2 `finalize`: everything printed is escaped unless it is already Markup."""
    return value if isinstance(value, Markup) else inline(value)
