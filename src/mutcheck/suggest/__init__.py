"""Proposing catalog entries: operators over a file's functions, entries and their texts, one engine run."""
