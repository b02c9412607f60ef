"""Which tests run under a mutant: those whose baseline run reached its scope."""

from mutcheck.core.module_scope import is_module_code


def select_tests(scope: str, covered: list[set[str]], import_reached: set[str] = frozenset()) -> list[int]:
    """Indices of the tests whose baseline run executed the scope (or anything nested in it); all
    names are reach names (see `module_scope.reach_name`).

    Module statements run at import, before any test, so no trace tells who depends on them: all.
    So does a function that ran while pytest imported the project (a table built at import, a
    decorator, a parametrize list): what it made may reach any test."""
    prefix = scope + "."
    if is_module_code(scope) or any(name == scope or name.startswith(prefix) for name in import_reached):
        return list(range(len(covered)))
    return [index for index, names in enumerate(covered) if scope in names or any(n.startswith(prefix) for n in names)]
