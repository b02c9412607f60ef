"""Which mutants and which tests: the diff, shards, test selection."""
