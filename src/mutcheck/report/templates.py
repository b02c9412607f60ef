"""The reports' Jinja2 environment over mutcheck's templates folder."""

from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2


@cache
def environment(autoescape: bool) -> "jinja2.Environment":
    import jinja2  # loaded when a report is rendered, not when the package is imported

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(files("mutcheck").joinpath("templates"))),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
