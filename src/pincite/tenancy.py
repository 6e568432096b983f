"""The one rule every entry point applies to a tenant name."""

from __future__ import annotations

from pincite.errors import InputError

DEFAULT_TENANT = "default"
_MAX = 128


def check_tenant(tenant: object) -> str:
    """Return ``tenant`` if it is a usable workspace name, else raise ``InputError``.

    A query without a tenant is an error, never "all tenants".
    """
    if not isinstance(tenant, str) or not tenant:
        raise InputError("a tenant (workspace) is required")
    if len(tenant) > _MAX:
        raise InputError(f"tenant name longer than {_MAX} characters")
    if tenant != tenant.strip() or not tenant.isprintable():
        raise InputError(f"tenant name {tenant!r} has surrounding spaces or control characters")
    return tenant
