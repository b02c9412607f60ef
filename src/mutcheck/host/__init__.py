"""The pytest host: the only code that runs inside the project's interpreter (it never imports
LibCST, the catalog, unidiff or the reports)."""
