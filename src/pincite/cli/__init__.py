"""The ``pincite`` command line: parse arguments, call the library, format results."""

from __future__ import annotations

import sys

from pincite.cli.app import cli


def main() -> None:
    cli(prog_name="pincite")


__all__ = ["cli", "main"]

if __name__ == "__main__":  # pragma: no cover
    main()
    sys.exit(0)
