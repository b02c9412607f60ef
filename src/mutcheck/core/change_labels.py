"""How the change guard names what it reverted: the whole change's id, a hunk's lines, the base."""

import re

from mutcheck.core.texts import say

WHOLE_CHANGE = "revert:all"


def lines_label(first: int, count: int, lang: str) -> str:
    """A hunk's lines in the working tree, as the reports word them."""
    if count == 0:
        return say(lang, "revert", "after", line=first)
    if count == 1:
        return say(lang, "revert", "line", line=first)
    return say(lang, "revert", "lines", first=first, last=first + count - 1)


def shown_base(base: str) -> str:
    """BASE as the texts name it: a full commit SHA shortened as git shortens it for people."""
    return base[:12] if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", base) else base
