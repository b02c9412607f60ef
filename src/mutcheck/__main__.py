"""`python -m mutcheck` and the `mutcheck` script: the command line, with SIGINT and SIGTERM handled
from before it loads (see `interrupt`)."""

from mutcheck.sandbox.interrupt import handled


def main() -> None:
    with handled():
        from mutcheck.cli import main as command_line

        command_line()


if __name__ == "__main__":
    main()
