"""Commands that answer: ask, demo."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
