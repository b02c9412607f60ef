"""No silent green: a gap `suggest` finds is written for a person to accept. Until then the run fails
and every report names it in a line and a section of its own; `mutcheck accept` is that person's
word, and a second `suggest` keeps it. Real runs on a fixture whose guard no test checks."""

import json
import tomllib
from pathlib import Path

from tests.mutcheck.cli_runs import mutcheck
from tests.mutcheck.engine_project import families, pyproject

SOURCE = """\
def first_word(words, skip_blank):
    for word in words:
        if skip_blank and not word.strip():
            continue
        return word
    return None
"""

TESTS = """\
from words import first_word


def test_blanks_are_skipped():
    assert first_word([" ", "a"], True) == "a"
"""


def make_project(root: Path) -> Path:
    files = {
        "pyproject.toml": pyproject("gap-fixture", timeout_constant=1.0),
        "src/words.py": SOURCE,
        "tests/test_words.py": TESTS,
        "mutants/families.toml": families("boundary", "boundary conditions", "边界条件"),
        "mutants/catalog.toml": "",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_gap_suggest_found_fails_the_run_until_a_person_accepts_it(tmp_path):
    project = make_project(tmp_path / "project")
    assert mutcheck(project, "suggest", "src/words.py", "--all").returncode == 0
    out = project / "mutants/suggested_words.toml"
    written = {t["id"]: t for t in tomllib.loads(out.read_text(encoding="utf-8"))["mutant"]}
    gaps = [mutant_id for mutant_id, table in written.items() if "survives" in table]
    assert gaps and all(written[gap]["reviewed"] is False for gap in gaps)

    results = project / "results.json"
    red = mutcheck(project, "run", "--json", str(results), "--markdown", str(project / "comment.md"))
    assert red.returncode == 1, red.stdout
    assert f"{len(gaps)} unreviewed {'gap' if len(gaps) == 1 else 'gaps'}" in red.stdout.splitlines()[-1]
    assert "Unreviewed gaps: no test kills them, and no person has accepted them yet" in red.stdout
    comment = (project / "comment.md").read_text(encoding="utf-8")
    assert "#### Unreviewed gaps" in comment and "#### 待审阅的缺口" in comment
    assert json.loads(results.read_text(encoding="utf-8"))["summary"]["unreviewed_gaps"] == len(gaps)
    # the results of such a run read back: the saved run, the file, in every format, and `show`
    formats = ("text", "markdown", "html", "stryker")
    for args in (["report"], *(["report", str(results), "--format", form] for form in formats)):
        rendered = mutcheck(project, *args)
        assert rendered.returncode == 0, (args, rendered.stderr)
    shown = mutcheck(project, "show", gaps[0])
    assert shown.returncode == 0, shown.stderr

    accepted = mutcheck(project, "accept", *gaps)
    assert accepted.returncode == 0, accepted.stderr
    assert accepted.stdout.splitlines() == [f"accepted {gap} (mutants/suggested_words.toml)" for gap in gaps]
    green = mutcheck(project, "run")
    assert green.returncode == 0, green.stdout
    assert f"{len(gaps)} known {'gap' if len(gaps) == 1 else 'gaps'}" in green.stdout.splitlines()[-1]

    again = mutcheck(project, "suggest", "src/words.py", "--all")  # a second suggest keeps what a person decided
    assert again.returncode == 0
    rewritten = {t["id"]: t for t in tomllib.loads(out.read_text(encoding="utf-8"))["mutant"]}
    assert all("reviewed" not in rewritten[gap] for gap in gaps)


def test_accept_refuses_what_is_no_gap_awaiting_review(tmp_path):
    project = make_project(tmp_path / "project")
    assert mutcheck(project, "suggest", "src/words.py", "--all").returncode == 0
    out = project / "mutants/suggested_words.toml"
    killed = next(t["id"] for t in tomllib.loads(out.read_text(encoding="utf-8"))["mutant"] if "killed_by" in t)
    before = out.read_bytes()
    done = mutcheck(project, "accept", killed, "NO-SUCH-ID")
    assert done.returncode == 2
    assert done.stderr.splitlines()[:2] == [
        f"error: mutants/suggested_words.toml: {killed}: reviewed: is no gap awaiting review",
        "error: accept: NO-SUCH-ID: no mutant id, alias, family, catalog file or target file",
    ]
    assert out.read_bytes() == before


def test_accept_and_suggest_keep_a_crlf_catalog_behind_a_symlink_byte_for_byte(tmp_path):
    project = make_project(tmp_path / "project")
    assert mutcheck(project, "suggest", "src/words.py", "--all").returncode == 0
    link = project / "mutants/suggested_words.toml"
    real = project / "shared/words.toml"  # the catalog kept elsewhere in the project, linked in
    real.parent.mkdir()
    real.write_bytes(link.read_bytes().replace(b"\n", b"\r\n"))
    real.chmod(0o600)
    link.unlink()
    link.symlink_to("../shared/words.toml")
    before = real.read_bytes()
    gaps = [t["id"] for t in tomllib.loads(before.decode("utf-8"))["mutant"] if t.get("reviewed") is False]
    assert gaps

    assert mutcheck(project, "accept", *gaps).returncode == 0
    assert link.is_symlink() and real.stat().st_mode & 0o777 == 0o600
    after = real.read_bytes()
    assert after.count(b"\n") == after.count(b"\r\n")  # every line still ends in CRLF
    assert after == before.replace(b"reviewed = false\r\n", b"")  # and nothing else changed

    assert mutcheck(project, "suggest", "src/words.py", "--all").returncode == 0  # rewritten whole
    again = real.read_bytes()
    assert link.is_symlink() and again.count(b"\n") == again.count(b"\r\n")
    assert all("reviewed" not in t for t in tomllib.loads(again.decode("utf-8"))["mutant"])


def test_accept_takes_a_family_a_catalog_file_or_a_target_file_for_every_gap_in_it(tmp_path):
    project = make_project(tmp_path / "project")
    assert mutcheck(project, "suggest", "src/words.py", "--all").returncode == 0
    out = project / "mutants/suggested_words.toml"
    tables = tomllib.loads(out.read_text(encoding="utf-8"))["mutant"]
    gaps = {t["id"]: t["family"] for t in tables if t.get("reviewed") is False}
    family = sorted(gaps.values())[0]
    by_family = mutcheck(project, "accept", family)
    assert by_family.returncode == 0, by_family.stderr
    in_family = sorted(gap for gap, named in gaps.items() if named == family)
    assert sorted(line.split()[1] for line in by_family.stdout.splitlines()) == in_family
    again = mutcheck(project, "accept", family)  # nothing left to accept there: said, nothing written
    assert again.returncode == 2 and again.stderr == f"error: accept: {family}: holds no gap awaiting review\n"
    rest = sorted(set(gaps) - set(in_family))
    assert rest  # the fixture's gaps are of two families
    by_file = mutcheck(project / "src", "accept", "words.py")  # a path as the shell gives it, from a subfolder
    assert by_file.returncode == 0, by_file.stderr
    assert sorted(line.split()[1] for line in by_file.stdout.splitlines()) == rest
    catalog_file = mutcheck(project, "accept", "mutants/suggested_words.toml")
    assert catalog_file.returncode == 2 and "holds no gap awaiting review" in catalog_file.stderr
    assert all("reviewed" not in t for t in tomllib.loads(out.read_text(encoding="utf-8"))["mutant"])
