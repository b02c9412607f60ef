"""How `suggest`'s texts quote code: on one line, cut at a word, two versions by the part that differs."""

import re
from itertools import accumulate

WIDTH = 60  # characters a quote shows, "…" included, unless what tells two versions apart lies further
CONTEXT = 24  # characters of the code two versions share kept before where they differ, room allowing
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")  # quotes are cut between these, never inside a name or number


def quoted(code: str) -> str:
    """Code on one line, cut short at a word ("…" where it is cut)."""
    return differing(code, "")[0]


def code_span(quote: str) -> str:
    """A quote in backticks, as Markdown reads code: more of them around code that holds some."""
    fence = "`" * (max(map(len, re.findall(r"`+", quote)), default=0) + 1)
    padding = " " if quote.startswith("`") or quote.endswith("`") else ""
    return f"{fence}{padding}{quote}{padding}{fence}"


def differing(old: str, new: str) -> tuple[str, str]:
    """Two versions of code, each on one line: whole when both are short, else the part where they
    differ, as much of it as fits, with a little of the code around it; what is left out is "…".
    The two quotes differ wherever the versions do, however far into them that is."""
    old, new = _one_line(old), _one_line(new)
    if len(old) <= WIDTH and len(new) <= WIDTH:
        return old, new
    old_tokens, new_tokens = _TOKEN.findall(old), _TOKEN.findall(new)
    shared = _shared(old_tokens, new_tokens, min(len(old_tokens), len(new_tokens)))
    shared_end = _shared(old_tokens[::-1], new_tokens[::-1], min(len(old_tokens), len(new_tokens)) - shared)
    prefix = "".join(old_tokens[:shared])
    longest = max(
        len(text) - len(prefix) - len("".join(tokens[len(tokens) - shared_end :]))
        for text, tokens in ((old, old_tokens), (new, new_tokens))
    )
    start = _context_start(old, _bounds(old_tokens), len(prefix), WIDTH - 2 - longest)
    difference = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), len(old))
    difference = min(difference, len(new))
    return _quote(old, old_tokens, start, difference), _quote(new, new_tokens, start, difference)


def _one_line(code: str) -> str:
    """Code's lines joined by one space (none inside the brackets a line opens or closes), runs of
    spaces made one."""
    text = ""
    for line in code.splitlines():
        line = " ".join(line.split())
        if line:
            tight = not text or text.endswith(("(", "[", "{")) or line.startswith((")", "]", "}"))
            text += line if tight else " " + line
    return text


def _shared(first: list[str], second: list[str], most: int) -> int:
    """How many tokens the two sequences share at their start, at most `most`."""
    count = 0
    while count < most and first[count] == second[count]:
        count += 1
    return count


def _bounds(tokens: list[str]) -> list[int]:
    """Where each token starts, and where the last ends: the places a quote may be cut."""
    return list(accumulate(map(len, tokens), initial=0))


def _context_start(text: str, bounds: list[int], end: int, room: int) -> int:
    """Where a quote starts, `end` being where the versions start to differ and `room` what the
    width leaves beside the longer differing part: at the start when all of it fits there, else
    about CONTEXT characters before `end` (down to half that when the room is short): from a word
    after a space that keeps at least half of them, else from the start of the name they begin in
    when it fits the room, else from the first place to cut inside them."""
    most = max(min(CONTEXT, room), CONTEXT // 2)
    if end <= max(room, most):
        return 0
    near = [bound for bound in bounds if end - most <= bound <= end]
    after_space = [bound for bound in near if text[bound - 1] == " " and end - bound >= most // 2]
    name_start = max(bound for bound in bounds if bound < end - most)
    if after_space:
        start = min(after_space)
    elif end - name_start <= min(room, 2 * CONTEXT):
        start = name_start
    else:
        start = min(near)
    return start + 1 if start < end and text[start] == " " else start


def _quote(text: str, tokens: list[str], start: int, difference: int) -> str:
    """`text` from `start`, cut at a word to fit the width, but never before the first word at or
    after character `difference`: what tells the two versions apart."""
    bounds = _bounds(tokens)
    lead = 1 if start > 0 else 0
    stop = len(text)
    if stop - start + lead > WIDTH:
        word = difference + len(text[difference:]) - len(text[difference:].lstrip())
        telling = next((bound for bound in bounds if bound > word), stop)
        stop = max(_fitting_stop(bounds, start + WIDTH - lead - 1), telling)
    return "…" * lead + text[start:stop].rstrip() + ("…" if stop < len(text) else "")


def _fitting_stop(bounds: list[int], limit: int) -> int:
    """The last word boundary up to `limit`; or the next one, where a long name would leave a quote
    much shorter than the width (a name finished reads better than one cut)."""
    before = max(bound for bound in bounds if bound <= limit)
    after = min((bound for bound in bounds if bound > limit), default=before)
    return after if limit - before > CONTEXT and after - limit <= CONTEXT else before
