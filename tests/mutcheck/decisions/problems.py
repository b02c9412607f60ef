"""A refusal as the user reads it: one line per problem, each part of it a string."""

from dataclasses import astuple

from mutcheck.core.problems import InputError, Problem


def lines_of(problems: list[Problem]) -> list[str]:
    """Each problem as its line; every part of it a string (an empty one when there is none)."""
    assert all(isinstance(part, str) for problem in problems for part in astuple(problem))
    return [str(problem) for problem in problems]


def problem_lines(error: InputError) -> list[str]:
    return lines_of(error.problems)
