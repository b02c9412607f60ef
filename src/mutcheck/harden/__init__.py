"""`mutcheck harden`: a surviving mutant becomes a test that kills it, proven in a scratch copy."""
