"""`python -m mutcheck`: the same command line as the `mutcheck` script."""

from mutcheck.cli import main

main()
