"""The catalog of guard mutants and mutcheck's configuration."""
