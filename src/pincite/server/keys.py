"""Workspace API keys, stored hashed in the store's ``meta`` table.

A key is shown once, when it is created; the store keeps only its sha256:

- ``apikey:<sha256 hex>`` → ``{"tenant", "created_at", "revoked"}``

Keys are listed by that prefix, so creating one is a single write: two
``keys create`` at once cannot lose each other. No schema change is needed.
The tenant of a request comes from its key alone.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from pincite.errors import InputError, NotFoundError
from pincite.store.base import Store
from pincite.tenancy import check_tenant

KEY_PREFIX = "pk_"
_RECORD = "apikey:"
# A key id shown by `keys list`: enough of the hash to name a key, too little to matter.
_ID_CHARS = 12


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """What the store knows about one key (never the key itself)."""

    key_id: str
    tenant: str
    created_at: str
    revoked: bool


def key_hash(key: str) -> str:
    # mutmut: equivalent because codec names are case-blind ("UTF-8").
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def create_key(store: Store, tenant: str) -> str:
    """Create a random key for ``tenant``; return it (the only time it exists in clear)."""
    check_tenant(tenant)
    # mutmut: equivalent because token_urlsafe(None) is its default, 32 bytes.
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    digest = key_hash(key)
    record = {"tenant": tenant, "created_at": _now(), "revoked": False}
    store.set_meta(_RECORD + digest, json.dumps(record))
    return key


def tenant_for(store: Store, key: str) -> str | None:
    """The tenant a live key belongs to; ``None`` for an unknown, malformed or revoked key."""
    if not key.startswith(KEY_PREFIX) or len(key) > 200:
        return None
    record = _record(store, key_hash(key))
    if record is None or record.revoked:
        return None
    return record.tenant


def tenant_for_digest(store: Store, digest: str) -> str | None:
    """The tenant of the live key with this sha256 digest (a viewer session's key)."""
    record = _record(store, digest)
    return record.tenant if record is not None and not record.revoked else None


def list_keys(store: Store, tenant: str | None = None) -> list[KeyInfo]:
    """Every key (or ``tenant``'s), oldest first."""
    found = [r for d in _digests(store) if (r := _record(store, d)) is not None]
    found.sort(key=lambda r: r.created_at)  # stable: same second keeps hash order
    return [r for r in found if tenant is None or r.tenant == tenant]


def revoke_key(store: Store, key_or_id: str) -> KeyInfo:
    """Revoke a key named by itself or by its key id (a hash prefix from ``list_keys``).

    Raises ``InputError`` for an ambiguous id and ``NotFoundError`` for an unknown one.
    """
    wanted = key_or_id.strip()
    if wanted.startswith(KEY_PREFIX):
        matches = [key_hash(wanted)] if _record(store, key_hash(wanted)) else []
    else:
        if len(wanted) < 6:
            raise InputError("give at least 6 characters of the key id")
        matches = [d for d in _digests(store) if d.startswith(wanted.lower())]
    if not matches:
        raise NotFoundError("api key", wanted)
    if len(matches) > 1:
        raise InputError(f"key id {wanted!r} matches {len(matches)} keys; give more characters")
    digest = matches[0]
    info = _record(store, digest)
    if info is None:  # a damaged record authenticates nobody already; say so
        raise InputError(f"key {digest[:_ID_CHARS]} has a damaged record and is not usable")
    data = {"tenant": info.tenant, "created_at": info.created_at, "revoked": True}
    store.set_meta(_RECORD + digest, json.dumps(data))
    return replace(info, revoked=True)


def _record(store: Store, digest: str) -> KeyInfo | None:
    raw = store.get_meta(_RECORD + digest)
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        return KeyInfo(
            digest[:_ID_CHARS], str(data["tenant"]), str(data["created_at"]), bool(data["revoked"])
        )
    except (ValueError, KeyError, TypeError):
        return None  # a damaged record authenticates nobody


def _digests(store: Store) -> list[str]:
    return [k.removeprefix(_RECORD) for k in store.meta_keys(_RECORD)]


def _now() -> str:
    # Microseconds: keys made within one second still list in creation order.
    return datetime.now(UTC).isoformat(timespec="microseconds")
