"""The review comment: the run's first language, then each other one collapsed, under our hidden
marker, kept below GitHub's body limit by dropping table rows (never by cutting inside a block),
or, when even that is not enough, by leaving only each language's verdict."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup

from mutcheck import __version__
from mutcheck.core import texts
from mutcheck.core.escape import MARKER, catalog_inline, fence, finalize, inline, listing
from mutcheck.report import templates
from mutcheck.report.view import GRID_MAX_TESTS, SYMBOLS, MutantView, ReportView, build_view
from mutcheck.results.model import Results

if TYPE_CHECKING:
    from mutcheck.results.artifact import NotRun

# GitHub rejects bodies over 65,536 characters; stay clear of it.
COMMENT_LIMIT = 60_000


@dataclass(frozen=True)
class Limits:
    findings: int
    matrix: int
    equivalents: int
    known_gaps: int
    unreviewed: int
    generic: int
    reverted: int
    skipped: int


DIFF_CONTEXT = 1  # lines kept around a change in the comment's diffs (the HTML report keeps them all)


@cache
def _environment() -> jinja2.Environment:
    environment = templates.environment(autoescape=False).overlay(finalize=finalize)
    environment.globals.update(fence=fence, listing=listing, narrowed=narrowed, catalog_inline=catalog_inline)
    return environment


def narrowed(diff: str, context: int = DIFF_CONTEXT) -> str:
    """A unified diff with at most `context` unchanged lines before a hunk's first change and
    after its last (those between changes stay), each hunk's ranges counted again."""
    out: list[str] = []
    hunk: list[str] = []
    header: re.Match[str] | None = None

    def flush() -> None:
        if header is None:
            return
        changed = [index for index, line in enumerate(hunk) if line[:1] in ("-", "+")]
        if not changed:
            return
        first, last = max(0, changed[0] - context), min(len(hunk), changed[-1] + context + 1)
        before = hunk[:first]
        old_start = int(header.group(1)) + sum(line[:1] != "+" for line in before)
        new_start = int(header.group(3)) + sum(line[:1] != "-" for line in before)
        kept = hunk[first:last]
        old_count = sum(line[:1] != "+" for line in kept)
        new_count = sum(line[:1] != "-" for line in kept)
        out.append(f"@@ -{old_start},{old_count} +{new_start},{new_count} @@{header.group(5)}")
        out.extend(kept)

    for line in diff.splitlines():
        if match := _HUNK.match(line):
            flush()
            header, hunk = match, []
        elif header is None:
            out.append(line)  # the file headers
        else:
            hunk.append(line)
    flush()
    return "\n".join(out) + ("\n" if diff.endswith("\n") else "")


_HUNK = re.compile(r"@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@(.*)")


def _symbol(mutant: MutantView, test: str) -> str:
    return SYMBOLS.get(mutant.outcomes.get(test, ""), "")


def _translator(lang: str) -> Callable[..., Markup]:
    def t(group: str, key: str, **values: Any) -> Markup:
        # Our own sentences are trusted; values placed into them are escaped first.
        escaped = {name: finalize(value) for name, value in values.items()}
        return Markup(texts.say(lang, group, key, **escaped))

    return t


def _language_body(view: ReportView, limits: Limits, quiet: bool, first: bool) -> str:
    rows = view.findings + [mutant for mutant in view.mutants if mutant.met]  # the unmet stay visible longest
    generic = view.generic.survivors if view.generic else []
    reverted = view.change_guard.reverted if view.change_guard else []
    skipped = view.change_guard.skipped if view.change_guard else []
    shown = {
        "reverted": reverted[: limits.reverted],
        "skipped": skipped[: limits.skipped],
        "generic": generic[: limits.generic],
        "findings": view.findings[: limits.findings],
        "matrix": rows[: limits.matrix],
        "equivalents": view.equivalents[: limits.equivalents],
        "known_gaps": view.known_gaps[: limits.known_gaps],
        "unreviewed": view.unreviewed_gaps[: limits.unreviewed],
    }
    hidden = {
        "reverted": len(reverted) - min(len(reverted), limits.reverted),
        "skipped": len(skipped) - min(len(skipped), limits.skipped),
        "generic": len(generic) - min(len(generic), limits.generic),
        "findings": len(view.findings) - len(shown["findings"]),
        "matrix": len(rows) - len(shown["matrix"]),
        "equivalents": len(view.equivalents) - len(shown["equivalents"]),
        "known_gaps": len(view.known_gaps) - len(shown["known_gaps"]),
        "unreviewed": len(view.unreviewed_gaps) - len(shown["unreviewed"]),
    }
    template = _environment().get_template("comment.md.j2")
    return template.render(
        view=view,
        shown=shown,
        hidden=hidden,
        t=_translator(view.lang),
        grid=len(view.killing_tests) <= GRID_MAX_TESTS,
        symbol=_symbol,
        quiet=quiet,
        first=first,
    )


def _in_languages(bodies: dict[str, str]) -> str:
    """The first language's text, then each other one collapsed under its own name."""
    first, *others = bodies.items()
    parts = [first[1].strip()]
    for lang, body in others:
        summary = texts.say(lang, "text", "language_section")
        parts += ["", "<details>", f"<summary>{summary}</summary>", "", body.strip(), "", "</details>"]
    return "\n".join(parts)


def _assemble(views: list[ReportView], limits: Limits, footer: str, quiet: bool) -> str:
    """Every language's body; in a quiet comment the kill matrix appears once, in the first language,
    as e-mail notifications show collapsed sections expanded."""
    bodies = {view.lang: _language_body(view, limits, quiet, view is views[0]) for view in views}
    return _framed(bodies, footer)


def _framed(bodies: dict[str, str], footer: str) -> str:
    return "\n".join([MARKER, "", _in_languages(bodies), "", "---", f"<sub>{footer}</sub>", ""])


def _footer(results: Results, lang: str) -> str:
    run = results.run
    return _footer_line(lang, run.mutcheck_version, run.head_sha, bool(run.uncommitted_changes))


def _footer_line(lang: str, version: str, sha: str | None, uncommitted: bool) -> str:
    """The version and the head commit, and whether the tested code differed from it; the SHA,
    checked by the schema, is the one reference we mean to link."""
    t = _translator(lang)
    if sha is None:
        return t("text", "footer_no_head", version=version)
    return t("text", "footer_uncommitted" if uncommitted else "footer", version=version, sha=Markup(sha))


def _headlines_only(views: list[ReportView], footer: str) -> str:
    """When even the shortest full comment does not fit: each language's verdict, and where the rest is."""
    bodies = {}
    for view in views:
        t = _translator(view.lang)
        bodies[view.lang] = f"### {t('text', 'report_title')}\n\n**{inline(view.headline)}**\n\n{t('text', 'too_long')}"
    return _framed(bodies, footer)


def render_markdown(results: Results, languages: tuple[str, ...] | None = None, limit: int = COMMENT_LIMIT) -> str:
    """The whole comment (default: in every language of the run); rows are dropped (generic
    survivors, skipped hunks, matrix, equivalents, known gaps, unreviewed gaps, revert mutants, then findings)
    until it fits. When every expectation is met, the comment is quiet: the verdict and the family table, the
    rest collapsed."""
    views = [build_view(results, lang) for lang in languages or results.languages]
    quiet = results.summary.exit_code == 0
    first = views[0]
    generic = len(first.generic.survivors) if first.generic else 0
    guard = first.change_guard
    reverted, skipped = (len(guard.reverted), len(guard.skipped)) if guard else (0, 0)
    footer = _footer(results, first.lang)
    counts = (len(first.findings), len(first.mutants), len(first.equivalents), len(first.known_gaps))
    counts += (len(first.unreviewed_gaps),)
    full = Limits(*counts, generic, reverted, skipped)
    body = _assemble(views, full, footer, quiet)
    for field in ("generic", "skipped", "matrix", "equivalents", "known_gaps", "unreviewed", "reverted", "findings"):
        if len(body) <= limit:
            return body
        low, high = 0, getattr(full, field)
        while low < high:  # the most rows of `field` that still fit
            middle = (low + high + 1) // 2
            if len(_assemble(views, _with(full, field, middle), footer, quiet)) <= limit:
                low = middle
            else:
                high = middle - 1
        full = _with(full, field, low)
        body = _assemble(views, full, footer, quiet)
    return body if len(body) <= limit else _headlines_only(views, footer)


def _with(limits: Limits, field: str, value: int) -> Limits:
    return Limits(**{**vars(limits), field: value})


def render_inline_finding(results: Results, mutant_id: str) -> str:
    """The body of one inline review comment (without its marker): the finding in every language of the run."""
    template = _environment().get_template("inline.md.j2")
    bodies = {}
    for lang in results.languages:
        view = build_view(results, lang)
        generic = view.generic.survivors if view.generic else []
        mutant = next(m for m in [*view.mutants, *generic] if m.id == mutant_id)
        bodies[lang] = template.render(mutant=mutant, t=_translator(lang))
    return _in_languages(bodies)


def render_sentence(languages: tuple[str, ...], key: str, **values: Any) -> str:
    """One of our sentences in each of `languages`, values escaped."""
    return _in_languages({lang: str(_translator(lang)("text", key, **values)) for lang in languages})


def render_not_run(not_run: "NotRun", languages: tuple[str, ...]) -> str:
    """The comment for a run that wrote no results: why, in each language, and its last error lines."""
    command = "mutcheck merge" if not_run.stage == "merge" else "mutcheck run"
    bodies = {}
    for lang in languages:
        t = _translator(lang)
        if not_run.stage == "install":
            reason = texts.say(lang, "not_run", "install")
        elif not_run.exit_status is None:
            reason = texts.say(lang, "not_run", "unfinished", command=command)
        else:
            reason = texts.say(lang, "not_run", "exited", command=command, exit_status=not_run.exit_status)
        parts = [f"### {t('text', 'report_title')}", "", f"**{t('text', 'not_run', reason=reason)}**"]
        if not_run.errors:
            parts += ["", f"{t('text', 'not_run_said')}:", "", fence("\n".join(not_run.errors))]
        bodies[lang] = "\n".join(parts)
    return _framed(bodies, _footer_line(languages[0], __version__, not_run.head_sha, uncommitted=False))
