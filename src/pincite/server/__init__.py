"""pincite's HTTP API and evidence viewer (extra ``pincite[server]``).

``create_app`` is imported on first use, so `pincite keys ...` does not load FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pincite.server.keys import KeyInfo, create_key, list_keys, revoke_key

if TYPE_CHECKING:
    from pincite.server.app import create_app

__all__ = ["KeyInfo", "create_app", "create_key", "list_keys", "revoke_key"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from pincite.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
