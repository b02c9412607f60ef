"""Reusing a mutant's earlier outcomes when every piece of evidence that decided them is unchanged."""
