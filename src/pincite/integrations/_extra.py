"""The one-line error a missing framework extra gives."""

from __future__ import annotations

from pincite.errors import ConfigurationError


class MissingExtraError(ConfigurationError, ImportError):
    """A framework adapter was imported without its extra installed."""

    def __init__(self, module: str, extra: str) -> None:
        super().__init__(
            f"pincite.integrations.{module} needs the {extra} extra: "
            f"pip install 'pincite[{extra}]' (from a clone: pip install -e '.[{extra}]')"
        )
        self.extra = extra
