"""The scope of a module's own statements, as the catalog, the reach trace and the host name it."""

MODULE_SCOPE = "<module>"  # also Python's name for their code
