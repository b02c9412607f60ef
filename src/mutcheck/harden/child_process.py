"""Starting `harden`'s child in the scratch copy, and reading its answer: nothing it starts outlives it."""

import dataclasses
import itertools
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from mutcheck.harden.wire import AnswerKind, ChildSpec, read_answer
from mutcheck.sandbox.imports import Relocation, machinery_command
from mutcheck.sandbox.process import SESSION_TAG, new_session_tag, stop_session_leader

_numbers = itertools.count()


@dataclass(frozen=True)
class Lab:
    """Where the children run: the scratch copy of the project, the folder around it, the checkout."""

    folder: Path
    project: Path
    root: Path
    pytest_args: tuple[str, ...]


class ChildFailed(Exception):
    """The child ended without an answer (it timed out, or crashed): the message says which."""


def run_child(
    lab: Lab, spec: ChildSpec, kind: type[AnswerKind], timeout: float, hash_seed: int | None = None
) -> AnswerKind:
    """`spec` run by the child in the copy; its answer, of the `kind` its mode gives. ChildFailed when it
    gives none in `timeout` seconds.
    `hash_seed`: the child's `PYTHONHASHSEED` (else the environment's, random by default)."""
    number = next(_numbers)
    spec_path, answer = lab.folder / f"harden-{number}.json", lab.folder / f"harden-{number}.answer.json"
    full = dataclasses.replace(
        spec,
        project=str(lab.project),
        roots=[str(lab.root)],
        scratch=str(lab.folder),
        parent=os.getpid(),
        answer=str(answer),
        pytest_args=list(lab.pytest_args),
    )
    full.write(spec_path)
    tag = new_session_tag()
    environment = {
        **Relocation([lab.root], lab.project).environment(os.environ),
        "PYTHONDONTWRITEBYTECODE": "1",
        "MUTCHECK_RUNNING": "1",
        SESSION_TAG: tag,
        **({"PYTHONHASHSEED": str(hash_seed)} if hash_seed is not None else {}),
    }
    log = lab.folder / f"harden-{number}.log"
    with log.open("w", encoding="utf-8") as output:
        child = subprocess.Popen(
            machinery_command("harden.project_child", spec_path),
            cwd=lab.project,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=environment,
        )
        try:
            child.wait(timeout)
        except subprocess.TimeoutExpired:
            raise ChildFailed(f"did not finish in {timeout:.0f} s") from None
        finally:
            stop_session_leader(child, tag)
    if not answer.is_file():
        tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise ChildFailed(f"ended (exit status {child.returncode}) without an answer: {tail[0][:200]}")
    return read_answer(kind, answer)
