"""One run end to end: the host started, mutants planned and run, outcomes collected, progress shown."""
