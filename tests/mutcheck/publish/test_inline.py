"""Reconciling inline findings with the comments already posted, as plain data (no HTTP)."""

from datetime import datetime, timedelta

from mutcheck.publish.inline import InlineFinding, PostedComment, inline_marker, marked_mutant, reconcile

DIFF = {"src/a.py": {5, 6, 7, 8}}
START = datetime(2026, 11, 29, 12, 0)
GONE = "Resolved at abc."
JUDGED = {"M1", "M2"}  # the mutants the run judged


def finding(mutant_id: str = "M1", line: int = 7) -> InlineFinding:
    return InlineFinding(mutant_id, "src/a.py", line, inline_marker(mutant_id) + "\nfinding")


def comment(comment_id: int, line: int | None = 7, mutant_id: str = "M1", minute: int = 0, **fields) -> PostedComment:
    values = {
        "body": inline_marker(mutant_id) + "\nfinding",
        "thread_id": f"T{comment_id}",
        "thread_resolved": False,
        "path": "src/a.py",
        **fields,
    }
    return PostedComment(comment_id, mutant_id, line=line, created_at=START + timedelta(minutes=minute), **values)


def test_the_marker_round_trips_an_id_that_could_end_the_comment():
    assert marked_mutant(inline_marker("a-->b c")) == "a-->b c"
    assert marked_mutant("quoting " + inline_marker("M1")) is None


def test_a_comment_on_another_path_is_not_the_finding_s():
    plan = reconcile([finding()], [comment(1, path="src/b.py")], DIFF, GONE, JUDGED)
    assert plan.post == [finding()] and plan.resolve == ["T1"] and plan.edits == []


def test_duplicates_are_told_apart_by_time_then_id_and_outdated_ones_are_never_duplicates():
    posted = [comment(3, minute=1), comment(2, minute=2), comment(1, minute=2), comment(4, None), comment(5, None)]
    plan = reconcile([finding()], posted, DIFF, GONE, JUDGED)
    assert plan.deletions == [3, 1]
    assert plan.resolve == ["T4", "T5"] and plan.post == [] and plan.counts["unchanged"] == 1


def test_a_gone_survivor_s_outdated_comment_is_edited_and_resolved_once():
    resolved_already = comment(1, None, body=inline_marker("M1") + "\n" + GONE, thread_resolved=True)
    assert reconcile([], [comment(1, None)], DIFF, GONE, JUDGED).edits == [(1, inline_marker("M1") + "\n" + GONE)]
    plan = reconcile([], [resolved_already], DIFF, GONE, JUDGED)
    assert (plan.edits, plan.resolve, plan.counts["resolved"]) == ([], [], 0)


def test_a_survivor_now_outside_the_diff_keeps_its_text_and_is_listed():
    plan = reconcile([finding(line=40)], [comment(1)], DIFF, GONE, JUDGED)
    assert plan.outside_diff == [finding(line=40)] and plan.post == []
    assert plan.edits == [] and plan.resolve == ["T1"]  # still a survivor: not marked resolved in its text


def test_a_comment_without_a_thread_is_edited_but_nothing_is_resolved():
    plan = reconcile([], [comment(1, thread_id=None)], DIFF, GONE, JUDGED)
    assert plan.resolve == [] and plan.counts["resolved"] == 1 and len(plan.edits) == 1


def test_a_thread_a_reviewer_resolved_over_the_same_finding_stays_resolved_and_ours_reopens():
    by_reviewer = comment(1, thread_resolved=True)
    plan = reconcile([finding()], [by_reviewer], DIFF, GONE, JUDGED)
    assert plan.unresolve == [] and plan.edits == [] and plan.counts["unchanged"] == 1
    by_us = comment(1, body=inline_marker("M1") + "\n" + GONE, thread_resolved=True)
    plan = reconcile([finding()], [by_us], DIFF, GONE, JUDGED)
    assert plan.unresolve == ["T1"] and plan.edits == [(1, finding().body)] and plan.counts["unresolved"] == 1


def test_a_comment_of_a_mutant_the_run_did_not_judge_is_left_alone():
    """`--diff` runs only the mutants in the change: one left out is not resolved, only not known."""
    plan = reconcile([], [comment(1, mutant_id="M3")], DIFF, GONE, JUDGED)
    assert (plan.edits, plan.resolve, plan.deletions, plan.post) == ([], [], [], [])
