"""The catalog entries `mutcheck suggest` writes: stable ids, observed expectations, texts, the TOML."""

import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence, Set
from functools import cache
from pathlib import Path
from string import Formatter

from mutcheck.catalog.catalog import Mutant, Text
from mutcheck.core.problems import InputError
from mutcheck.core.texts import say, strings
from mutcheck.core.toml_file import read_toml
from mutcheck.suggest.operators import Proposal
from mutcheck.suggest.quotes import code_span, differing, quoted

ORIGIN = "mutcheck suggest: refine title and why"
KILLERS_LISTED = 3  # more than this and only the most specific killers are listed
_TEXTS = ("title", "why", "hint")  # a person's kept from an earlier entry, what suggest generated made anew
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def entry_id(proposal: Proposal, file: str, taken: Set[str] = frozenset()) -> str:
    """Scope, operator and a short hash of the edit: the same suggestion gets the same id every run.
    Two files can hold the same function (a sync and an async twin): when the catalog's entries for
    other files already use the id (`taken`), the hash covers the file too."""
    edit = f"{proposal.match}\0{'<delete>' if proposal.replace is None else proposal.replace}"
    scope = re.sub(r"[^A-Za-z0-9._-]", "_", proposal.scope)
    found = f"S-{scope}-{proposal.operator}-{_digest(edit)}"
    return found if found not in taken else f"S-{scope}-{proposal.operator}-{_digest(file + chr(0) + edit)}"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:6]


def _texts(proposal: Proposal, languages: Sequence[str]) -> dict[str, Text]:
    code, new = differing(proposal.code or proposal.match, proposal.new)
    values = {"code": code_span(code), "new": code_span(new)}
    return {
        field: {lang: say(lang, f"suggest_{field}", proposal.operator, **values) for lang in languages}
        for field in _TEXTS
    }


def mutant_of(
    proposal: Proposal, file: str, source: str, languages: Sequence[str], taken: Set[str] = frozenset()
) -> Mutant:
    """The proposal as a catalog mutant (no expectation yet), to apply and run; `taken`: see `entry_id`."""
    texts = _texts(proposal, languages)
    return Mutant(
        id=entry_id(proposal, file, taken),
        family=proposal.operator,
        file=file,
        scope=proposal.scope,
        match=proposal.match,
        replace=proposal.replace,
        killed_by=(),
        equivalent=None,
        origin=ORIGIN,
        title=texts["title"],
        why=texts["why"],
        hint=texts["hint"],
        aliases=(),
        source=source,
    )


def most_specific(killers: Sequence[str], kills: Counter[str]) -> list[str]:
    """All killers when few, else those that kill the fewest of the run's suggestions (ties by id)."""
    if len(killers) <= KILLERS_LISTED:
        return list(killers)
    return sorted(killers, key=lambda test: (kills[test], test))[:KILLERS_LISTED]


def _person_expectation(previous: dict[str, object]) -> dict[str, object] | None:
    """The expectation a person wrote in an entry (an equivalence proof, a gap's own reason, with
    its issue and review), or None where the entry holds only what `suggest` wrote."""
    if "equivalent" in previous:
        return {"equivalent": previous["equivalent"]}
    survives = previous.get("survives")
    if isinstance(survives, dict) and not all(
        _as_generated(survives[lang], "suggest", "survives", lang) for lang in survives
    ):
        return {field: previous[field] for field in ("survives", "tracked", "reviewed") if field in previous}
    return None


def _kept_text(written: object, generated: Text, group: str, key: str) -> object:
    """A text of an earlier entry from the sentence `group.key`: each language a person wrote
    kept, the others written anew."""
    if not isinstance(written, dict):
        return generated if written is None else written
    return {
        lang: written[lang] if lang in written and not _as_generated(written[lang], group, key, lang) else text
        for lang, text in generated.items()
    }


def _as_generated(text: object, group: str, key: str, lang: object) -> bool:
    """A text in the very words `suggest` writes from the sentence `group.key`, whatever code it
    quotes: no person wrote it, so a re-run writes it anew, its code quoted as `suggest` does now."""
    pattern = _sentence(group, key, str(lang))
    return pattern is not None and isinstance(text, str) and pattern.fullmatch(text) is not None


@cache
def _sentence(group: str, key: str, lang: str) -> re.Pattern[str] | None:
    """A sentence of strings.toml as a pattern: its words as written, any code span for each
    placeholder (None in a language it is not written in)."""
    template = strings()[group][key].get(lang)
    if template is None:
        return None
    parts = (re.escape(text) + ("" if field is None else "`.+?`") for text, field, _, _ in Formatter().parse(template))
    return re.compile("".join(parts))


def entry_table(
    mutant: Mutant,
    killers: Sequence[str] | None,
    languages: Sequence[str],
    previous: dict[str, object] | None,
    all_killers: Sequence[str] = (),
) -> dict[str, object]:
    """One `[[mutant]]` table: `killers` listed as `killed_by`, or a gap awaiting review when None.
    What a person wrote in the output file's entry of the same id is kept: origin, title, why,
    hint, aliases, an expectation of their own (an equivalence proof, a gap's reason, its issue),
    an accepted gap, and a `killed_by` whose tests all still kill (`all_killers`, this run's). A
    text as `suggest` writes it, whatever code it quotes, is written anew."""
    table: dict[str, object] = {
        "id": mutant.id,
        "family": mutant.family,
        "file": mutant.file,
        "scope": mutant.scope,
        "match": mutant.match,
    }
    if mutant.replace is None:
        table["delete"] = True
    else:
        table["replace"] = mutant.replace
    code = code_span(quoted(mutant.match))
    generated_survives = {lang: say(lang, "suggest", "survives", code=code) for lang in languages}
    previous = previous or {}
    edited_killers = previous.get("killed_by")
    if expectation := _person_expectation(previous):
        table.update(expectation)
    elif killers is None:
        table["survives"] = generated_survives
        # a gap is a person's to accept (`mutcheck accept`); one accepted before stays accepted
        if not ("survives" in previous and previous.get("reviewed", True)):
            table["reviewed"] = False
    elif isinstance(edited_killers, list) and edited_killers and set(edited_killers) <= set(all_killers):
        table["killed_by"] = edited_killers
    else:
        table["killed_by"] = list(killers)
    table["origin"] = previous.get("origin", mutant.origin)
    for field in _TEXTS:
        table[field] = _kept_text(previous.get(field), getattr(mutant, field), f"suggest_{field}", mutant.family)
    if "aliases" in previous:
        table["aliases"] = previous["aliases"]
    return table


def family_tables(
    families: Iterable[str], languages: Sequence[str], titles: Mapping[str, Mapping[str, str]] | None = None
) -> str:
    """`[family.NAME]` tables for families.toml, each title in every language: the one `titles`
    gives (another target's catalog declares the family), else suggest's own."""
    titles = titles or {}

    def title(family: str, lang: str) -> str:
        return titles.get(family, {}).get(lang) or say(lang, "suggest_family", family)

    return "".join(
        f"\n[family.{family}]\n" + "".join(f"{lang} = {_string(title(family, lang))}\n" for lang in languages)
        for family in families
    )


OWNED = "# Written by `mutcheck suggest`, which rewrites it: edit its entries, not the rest of the file.\n"


def render(tables: Iterable[dict[str, object]]) -> str:
    """The catalog file: a line saying who owns it, then one `[[mutant]]` per table, keys in the order given."""
    return OWNED + "\n".join(
        "[[mutant]]\n" + "".join(f"{_key(key)} = {_value(value)}\n" for key, value in table.items()) for table in tables
    )


def foreign_content(path: Path, source: str) -> str | None:
    """What in an existing output file `suggest` did not write, and a rewrite would lose; None for
    a file it owns: one it wrote (its first line says so), or, written before that line existed,
    one of [[mutant]] tables with suggest's origin and no comment."""
    if not path.exists():
        return None
    document, problems = read_toml(path, source)
    if problems:
        raise InputError(problems)
    others = [key for key in document if key != "mutant"]
    if others:
        return f"tables or keys other than [[mutant]] ({', '.join(others)})"
    text = path.read_text(encoding="utf-8")
    if text.startswith(OWNED):
        return None
    tables = document.get("mutant", [])
    if any(not str(table.get("origin", "")).startswith("mutcheck suggest") for table in tables):
        return "entries `mutcheck suggest` did not write"
    if any(line.lstrip().startswith("#") for line in text.splitlines()):
        return "comments"
    return None


def read_previous(path: Path, source: str) -> list[dict[str, object]]:
    """The entries of an output file written before (none when there is no such file)."""
    if not path.exists():
        return []
    document, problems = read_toml(path, source)
    if problems:
        raise InputError(problems)
    tables = document.get("mutant", [])
    return [table for table in tables if isinstance(table, dict)] if isinstance(tables, list) else []


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _value(value: object) -> str:
    """A TOML value; anything another entry of the file holds is written back as it was read."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _string(value, multiline=True)
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, int | float):
        return repr(value) if math.isfinite(value) else str(value)  # TOML writes nan and inf as Python does
    return value.isoformat()  # dates and times, TOML's own form


def _string(text: str, multiline: bool = False) -> str:
    """Code over several lines as a literal block (as the file has it), anything else as a basic
    string: JSON's escapes are TOML's, and DEL, which JSON leaves as it is, is escaped too."""
    literal_safe = "'''" not in text and not text.endswith("'") and all(c == "\n" or c.isprintable() for c in text)
    if multiline and "\n" in text and literal_safe:
        return f"'''\n{text}'''" if text.endswith("\n") else f"'''\n{text}\n'''"
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
