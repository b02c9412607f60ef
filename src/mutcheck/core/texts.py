"""The sentences mutcheck says, in every language (templates/strings.toml): the table, `say`, the languages."""

import re
import tomllib
from functools import cache
from importlib.resources import files
from typing import Any

from mutcheck.core.verdicts import Unmet

STRINGS_FILE = "strings.toml"


@cache
def strings() -> dict[str, dict[str, dict[str, str]]]:
    """{group: {key: {"en": …, "zh": …}}}, e.g. strings()["verdict"]["killed"]["zh"]."""
    return tomllib.loads(files("mutcheck").joinpath("templates", STRINGS_FILE).read_text(encoding="utf-8"))


@cache
def known_languages() -> tuple[str, ...]:
    """The languages every sentence is written in: the ones a catalog and a report may use."""
    sentences = [set(text) for group in strings().values() for text in group.values()]
    return tuple(sorted(set.intersection(*sentences)))


# `«count|entry|entries»`: the first word when the value named is 1, else the second (a language
# without plurals, such as Chinese, has none of these).
_PLURAL = re.compile(r"«(\w+)\|([^|»]*)\|([^»]*)»")


def say(lang: str, group: str, key: str, **values: Any) -> str:
    """One sentence in `lang`, placeholders filled, plurals chosen; a missing key or language raises KeyError."""
    text = _PLURAL.sub(
        lambda match: match.group(2 if str(values[match.group(1)]) == "1" else 3), strings()[group][key][lang]
    )
    return text.format(**values)


def describe(problem: Unmet, lang: str) -> str:
    return say(lang, "problem", problem.kind, test=problem.test, detail=_detail(problem, lang))


def _detail(problem: Unmet, lang: str) -> str | None:
    """Verdict and outcome words inside a problem are translated too."""
    detail = problem.detail
    if problem.kind in ("equivalent-killed", "unguarded-change"):
        return say(lang, "verdict", detail)
    if problem.kind == "gap-killed":
        return say(lang, "outcome", detail)
    if problem.kind == "killer-passed" and detail:
        return ", ".join(say(lang, "outcome", outcome) for outcome in detail.split(", "))
    return detail
