"""Verdicts, the expectation check and the results document: read, checked, merged, saved."""
