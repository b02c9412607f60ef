"""The last proof of a written test: run where it will live (the checkout, on the checkout's own code),
it must pass there; what it said when it did not."""

from pathlib import Path

from mutcheck.harden.child_process import Lab
from mutcheck.harden.proof import fails_in_checkout

TESTS = """\
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_here():
    assert (HERE / "data.txt").read_text() == "checkout"


def test_elsewhere():
    assert HERE.name == "somewhere-else"
"""


def test_a_test_is_run_in_the_checkout_itself_and_what_it_said_there_is_kept(tmp_path: Path) -> None:
    root, scratch = tmp_path / "checkout", tmp_path / "scratch"
    (root / "tests").mkdir(parents=True)
    scratch.mkdir()
    (root / "tests" / "test_place.py").write_text(TESTS, encoding="utf-8")
    (root / "tests" / "data.txt").write_text("checkout", encoding="utf-8")
    lab = Lab(scratch, scratch / "project", root, ("-p", "no:cacheprovider"))  # the copy is never looked at
    assert fails_in_checkout(lab, "tests/test_place.py::test_here") == ""
    said = fails_in_checkout(lab, "tests/test_place.py::test_elsewhere")
    assert said.startswith("failed (AssertionError: assert 'tests' == 'somewhere-else'")
    assert sorted(path.name for path in root.rglob("*") if path.is_file()) == ["data.txt", "test_place.py"]
