"""Making mutants: catalog entries applied with LibCST, mutmut's generic operators, the change and its reverts."""
