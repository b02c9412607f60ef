"""How scopes are named: a module's own statements, as the catalog, the reach trace and the host name
them, and a function as the reach trace names it."""

MODULE_SCOPE = "<module>"  # also Python's name for their code


def reach_name(filename: str, qualname: str) -> str:
    """A function as the reach trace names it: its file (the path the host loads it from) and its
    qualified name, so that two files' functions of one name (a module and its async twin) stay apart."""
    return f"{filename}::{qualname}"


def is_module_code(name: str) -> bool:
    """Whether a reach name is a module's own code."""
    return name.endswith("::" + MODULE_SCOPE)
