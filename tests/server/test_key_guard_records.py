"""Key records and the route-level tenant check, pinned field by field (issue 21).

The guard hands each ``/v1/`` route its tenant; ``require_tenant`` must still
refuse on its own when a route is reached without the guard's answer. A
revoked key's record keeps its tenant and creation time (``keys list`` shows
it), and the key-id rules are exact at their bounds.
"""

from __future__ import annotations

import json

import pytest
from fastapi.security import HTTPAuthorizationCredentials
from fastapi.testclient import TestClient
from starlette.requests import Request

from pincite.corpus import Corpus
from pincite.errors import InputError, NotFoundError
from pincite.server import create_app, keys
from pincite.server.deps import Service, require_tenant
from pincite.server.errors import UNAUTHORIZED, ApiError
from pincite.server.guard import TENANT_STATE, too_large


def _request(state: dict[str, object]) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "headers": [], "state": state})


def _bearer(key: str) -> HTTPAuthorizationCredentials:
    return HTTPAuthorizationCredentials(scheme="Bearer", credentials=key)


@pytest.fixture
def service(corpus: Corpus) -> Service:
    found: Service = create_app(corpus).state.pincite
    return found


def test_the_guards_tenant_is_used_as_it_is(service: Service) -> None:
    assert require_tenant(_request({TENANT_STATE: "alpha"}), service, None) == "alpha"


def test_without_the_guard_a_live_key_still_names_its_tenant(service: Service) -> None:
    key = keys.create_key(service.corpus.store, "beta")
    assert require_tenant(_request({}), service, _bearer(key)) == "beta"


@pytest.mark.parametrize(
    ("credentials", "message"),
    [
        (None, "missing API key: send 'Authorization: Bearer <key>'"),
        (_bearer("pk_unknown"), "invalid or revoked API key"),
    ],
)
def test_without_the_guard_no_live_key_is_a_401(
    service: Service, credentials: HTTPAuthorizationCredentials | None, message: str
) -> None:
    with pytest.raises(ApiError) as caught:
        require_tenant(_request({}), service, credentials)
    assert (caught.value.status, caught.value.code, caught.value.message) == (
        401,
        UNAUTHORIZED,
        message,
    )


def test_a_revoked_key_keeps_its_record(corpus: Corpus) -> None:
    key = keys.create_key(corpus.store, "acme")
    before = keys.list_keys(corpus.store)[0]
    keys.revoke_key(corpus.store, key)
    stored = json.loads(corpus.store.get_meta("apikey:" + keys.key_hash(key)) or "")
    assert stored == {"tenant": "acme", "created_at": before.created_at, "revoked": True}
    after = keys.list_keys(corpus.store)
    assert [(k.key_id, k.tenant, k.created_at, k.revoked) for k in after] == [
        (before.key_id, "acme", before.created_at, True)
    ]


def test_a_listed_key_shows_its_stored_creation_time(corpus: Corpus) -> None:
    key = keys.create_key(corpus.store, "acme")
    stored = json.loads(corpus.store.get_meta("apikey:" + keys.key_hash(key)) or "")
    assert keys.list_keys(corpus.store)[0].created_at == stored["created_at"]
    assert stored["created_at"].startswith("20")  # an ISO timestamp, not a placeholder


def _plant(corpus: Corpus, key: str, tenant: str) -> None:
    """A live record for ``key`` as create_key writes it (keys it would never make)."""
    record = {"tenant": tenant, "created_at": "2026-01-01T00:00:00.000000+00:00", "revoked": False}
    corpus.store.set_meta("apikey:" + keys.key_hash(key), json.dumps(record))


def test_keys_up_to_200_characters_are_looked_up_and_longer_ones_never(corpus: Corpus) -> None:
    longest, too_long = "pk_" + "a" * 197, "pk_" + "b" * 198
    _plant(corpus, longest, "acme")
    _plant(corpus, too_long, "acme")
    assert keys.tenant_for(corpus.store, longest) == "acme"
    assert keys.tenant_for(corpus.store, too_long) is None


def test_only_pk_keys_are_looked_up(corpus: Corpus) -> None:
    _plant(corpus, "sk_foreign", "acme")
    assert keys.tenant_for(corpus.store, "sk_foreign") is None


def test_a_six_character_key_id_is_enough(corpus: Corpus) -> None:
    key = keys.create_key(corpus.store, "acme")
    assert keys.revoke_key(corpus.store, keys.key_hash(key)[:6]).revoked
    assert keys.tenant_for(corpus.store, key) is None


def test_a_five_character_key_id_is_refused_with_its_rule(corpus: Corpus) -> None:
    keys.create_key(corpus.store, "acme")
    with pytest.raises(InputError, match=r"^give at least 6 characters of the key id$"):
        keys.revoke_key(corpus.store, "abcde")


def test_an_unknown_key_is_named_in_the_error(corpus: Corpus) -> None:
    with pytest.raises(NotFoundError) as caught:
        keys.revoke_key(corpus.store, "  ffffffffffff ")
    assert str(caught.value) == "api key not found: ffffffffffff"
    assert (caught.value.kind, caught.value.key) == ("api key", "ffffffffffff")


def test_an_id_matching_two_keys_is_ambiguous_and_revokes_nothing(corpus: Corpus) -> None:
    record = {"tenant": "acme", "created_at": "2026-01-01T00:00:00+00:00", "revoked": False}
    for digest in ("abcdef" + "0" * 58, "abcdef" + "1" * 58):
        corpus.store.set_meta("apikey:" + digest, json.dumps(record))
    with pytest.raises(InputError) as caught:
        keys.revoke_key(corpus.store, "ABCDEF")
    assert str(caught.value) == "key id 'ABCDEF' matches 2 keys; give more characters"
    assert [k.revoked for k in keys.list_keys(corpus.store)] == [False, False]


def test_a_streamed_body_past_the_limit_closes_the_connection(corpus: Corpus) -> None:
    key = keys.create_key(corpus.store, "acme")

    def chunks() -> list[bytes]:
        return [b'{"text": "', b"x" * 5000, b'", "uri": "u"}']

    with TestClient(create_app(corpus, max_upload_bytes=4096)) as client:
        r = client.post(
            "/v1/documents",
            content=iter(chunks()),
            headers={"Authorization": f"Bearer {key}", "content-type": "application/json"},
        )
    assert r.status_code == 413
    assert r.json() == {"error": {"code": "payload_too_large", "message": too_large(4096)}}
    assert r.headers["connection"] == "close"


def test_a_key_carries_32_random_bytes(corpus: Corpus) -> None:
    key = keys.create_key(corpus.store, "acme")
    assert key.startswith("pk_") and len(key) == 3 + 43  # token_urlsafe(32): 43 characters


def test_creation_times_are_utc_with_microseconds(corpus: Corpus) -> None:
    keys.create_key(corpus.store, "acme")
    created = keys.list_keys(corpus.store)[0].created_at
    assert created.endswith("+00:00") and len(created) == len("2026-01-01T00:00:00.000000+00:00")


def test_keys_list_in_creation_order_whatever_their_hashes(corpus: Corpus) -> None:
    tenants = [f"t{i}" for i in range(8)]
    for tenant in tenants:
        keys.create_key(corpus.store, tenant)
    assert [k.tenant for k in keys.list_keys(corpus.store)] == tenants


def test_a_key_id_is_the_first_12_hex_digits_of_the_hash(corpus: Corpus) -> None:
    key = keys.create_key(corpus.store, "acme")
    assert keys.list_keys(corpus.store)[0].key_id == keys.key_hash(key)[:12]


def test_a_viewer_session_digest_names_its_tenant_while_the_key_lives(corpus: Corpus) -> None:
    key = keys.create_key(corpus.store, "acme")
    digest = keys.key_hash(key)
    assert keys.tenant_for_digest(corpus.store, digest) == "acme"
    assert keys.tenant_for_digest(corpus.store, "0" * 64) is None
    keys.revoke_key(corpus.store, key)
    assert keys.tenant_for_digest(corpus.store, digest) is None


def test_a_key_with_a_lone_surrogate_is_simply_unknown(corpus: Corpus) -> None:
    # A command-line argument can carry one (undecodable bytes); it is no crash.
    assert keys.tenant_for(corpus.store, "pk_\udcff") is None
    assert keys.key_hash("pk_\udcff") == keys.key_hash("pk_\udcff")
