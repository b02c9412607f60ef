"""What every report shows of a mutant: a revert mutant's diff as the change it undoes, base → head."""

from mutcheck.report.view import as_change


def test_a_revert_mutants_diff_is_shown_as_the_pull_request_made_the_change():
    revert = "--- a/m.py\n+++ b/m.py\n@@ -4,4 +4,3 @@ def f():\n a\n-new_one\n-new_two\n+old\n b\n"
    assert as_change(revert) == "--- a/m.py\n+++ b/m.py\n@@ -4,3 +4,4 @@ def f():\n a\n-old\n+new_one\n+new_two\n b\n"
    assert as_change(as_change(revert)) == revert  # turned round twice: as it was
