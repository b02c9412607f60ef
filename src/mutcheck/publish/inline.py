"""Inline findings against the review comments already on a pull request: what to post, edit, delete, resolve.

Plain data in, plain data out; `github` reads the comments and carries the plan out.
"""

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import quote, unquote

_INLINE_ID = re.compile(r"<!-- mutcheck:inline (\S+) -->")


@dataclass(frozen=True)
class InlineFinding:
    mutant_id: str
    path: str
    line: int
    body: str  # already rendered and escaped, starting with the inline marker


@dataclass(frozen=True)
class PostedComment:
    """One of our inline comments as GitHub shows it now."""

    comment_id: int
    mutant_id: str
    path: str
    line: int | None  # None once GitHub marks the comment outdated: its line changed since
    body: str
    created_at: datetime
    thread_id: str | None  # its review thread, None if GitHub listed none for it
    thread_resolved: bool


@dataclass
class InlinePlan:
    post: list[InlineFinding] = field(default_factory=list)
    edits: list[tuple[int, str]] = field(default_factory=list)  # comment id, new body
    deletions: list[int] = field(default_factory=list)
    resolve: list[str] = field(default_factory=list)  # thread ids
    unresolve: list[str] = field(default_factory=list)
    outside_diff: list[InlineFinding] = field(default_factory=list)
    threads_refused: list[str] = field(default_factory=list)  # GitHub's reason for each thread left as it was
    counts: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            ("created", "updated", "resolved", "unresolved", "deleted", "unchanged"), 0
        )
    )


def inline_marker(mutant_id: str) -> str:
    """Marks our inline comment for one mutant; the id is quoted so it cannot end the comment."""
    return f"<!-- mutcheck:inline {quote(mutant_id, safe='')} -->"


def marked_mutant(body: str) -> str | None:
    """The mutant id of a body that starts with our inline marker."""
    match = _INLINE_ID.match(body)
    return unquote(match.group(1)) if match else None


def reconcile(
    findings: Iterable[InlineFinding],
    posted: Iterable[PostedComment],
    in_diff: dict[str, set[int]],
    resolved_text: str,
    judged: set[str],
) -> InlinePlan:
    """What makes the pull request show exactly the current findings, each on its current line.

    A comment counts for a finding only on the finding's path and current line; one elsewhere or outdated
    is left as it is and its thread resolved (the finding is posted again where it is now). Of several
    comments for one mutant on one line (a retried POST) the newest is kept. A comment whose survivor is
    gone says so and its thread is resolved; when it comes back, the thread we resolved is reopened (one
    a reviewer resolved over an unchanged finding stays resolved). A comment of a mutant this run did not
    judge (`judged`: the ids it ran; `--diff` leaves some out) is left alone: nothing is known of it."""
    plan = InlinePlan()
    findings = list(findings)
    surviving = {finding.mutant_id for finding in findings}
    posted = [comment for comment in posted if comment.mutant_id in judged]
    wanted = {}
    for finding in findings:
        if finding.line in in_diff.get(finding.path, set()):
            wanted[(finding.mutant_id, finding.path, finding.line)] = finding
        else:
            plan.outside_diff.append(finding)
    for comment in _without_duplicates(posted, plan):
        finding = wanted.pop((comment.mutant_id, comment.path, comment.line), None)
        if finding is not None:
            _keep_current(comment, finding, plan)
        else:
            _retire(comment, comment.mutant_id in surviving, resolved_text, plan)
    plan.post = list(wanted.values())
    plan.counts["created"] = len(plan.post)
    return plan


def _without_duplicates(posted: Iterable[PostedComment], plan: InlinePlan) -> list[PostedComment]:
    """The newest comment of each mutant on each current line; the older ones go into the plan's deletions."""
    places: dict[object, list[PostedComment]] = defaultdict(list)
    for comment in posted:
        # Outdated comments have no current line to share: each stays in its own thread.
        place = (comment.mutant_id, comment.path, comment.line) if comment.line is not None else comment.comment_id
        places[place].append(comment)
    kept = []
    for comments in places.values():
        comments.sort(key=lambda comment: (comment.created_at, comment.comment_id))
        plan.deletions += [comment.comment_id for comment in comments[:-1]]
        plan.counts["deleted"] += len(comments) - 1
        kept.append(comments[-1])
    return kept


def _keep_current(comment: PostedComment, finding: InlineFinding, plan: InlinePlan) -> None:
    if comment.body != finding.body:
        plan.edits.append((comment.comment_id, finding.body))
    # A resolved thread whose text is not the finding's was resolved with the survivor gone (or the
    # finding changed since): it comes back. One resolved over the same finding is a reviewer's call.
    if comment.thread_resolved and comment.thread_id is not None and comment.body != finding.body:
        plan.unresolve.append(comment.thread_id)
        plan.counts["unresolved"] += 1
    else:
        plan.counts["updated" if comment.body != finding.body else "unchanged"] += 1


def _retire(comment: PostedComment, survives: bool, resolved_text: str, plan: InlinePlan) -> None:
    changed = False
    if not survives and comment.body != (gone := inline_marker(comment.mutant_id) + "\n" + resolved_text):
        plan.edits.append((comment.comment_id, gone))
        changed = True
    if not comment.thread_resolved and comment.thread_id is not None:
        plan.resolve.append(comment.thread_id)
        changed = True
    plan.counts["resolved"] += changed
