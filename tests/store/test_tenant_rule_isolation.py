"""The one tenant-name rule every store read relies on (issue 21's mutation run).

A store query is filtered by the tenant it is given; what keeps "no tenant" from
meaning "every tenant" is ``check_tenant`` refusing anything that is not a
plain, printable, bounded name. Each case pins one condition of that rule.
"""

from __future__ import annotations

import pytest

from pincite.errors import InputError
from pincite.tenancy import check_tenant


def test_a_usable_name_is_returned_unchanged() -> None:
    assert check_tenant("acme") == "acme"
    assert check_tenant("a" * 128) == "a" * 128  # the longest allowed


@pytest.mark.parametrize("missing", ["", None, 0, 5, b"acme", ["acme"]])
def test_no_tenant_is_an_error_never_all_tenants(missing: object) -> None:
    with pytest.raises(InputError, match=r"^a tenant \(workspace\) is required$"):
        check_tenant(missing)


def test_a_name_past_128_characters_is_refused() -> None:
    with pytest.raises(InputError, match=r"^tenant name longer than 128 characters$"):
        check_tenant("a" * 129)


@pytest.mark.parametrize("bad", [" acme", "acme ", "ac\nme", "ac\x00me", "\u200eacme"])
def test_spaces_and_control_characters_are_refused(bad: str) -> None:
    with pytest.raises(InputError) as caught:
        check_tenant(bad)
    assert str(caught.value) == (
        f"tenant name {bad!r} has surrounding spaces or control characters"
    )
