"""``python -m pincite.server``: the service commands (serve, keys, mcp, agent) on their own."""

from __future__ import annotations

import click

from pincite.cli.service import COMMANDS


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """pincite service commands; the same as `pincite serve|keys|mcp|agent`."""


for command in COMMANDS:
    main.add_command(command)

if __name__ == "__main__":
    main(prog_name="python -m pincite.server")
