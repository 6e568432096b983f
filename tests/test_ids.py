"""The evidence id codec accepts exactly one spelling per id."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pincite import ids
from pincite.errors import EvidenceIdError

uuids = st.uuids().map(str)
hash16s = st.text(alphabet="0123456789abcdef", min_size=16, max_size=16)
offsets = st.integers(min_value=0, max_value=10**12)


@given(uuids, hash16s, uuids)
def test_chunk_ids_round_trip(doc: str, h: str, chunk: str) -> None:
    encoded = ids.encode_chunk(doc, h, chunk)
    assert ids.decode(encoded) == ids.ChunkRef(doc, h, chunk)
    assert ids.decode(encoded).encode() == encoded


@given(uuids, hash16s, offsets, st.integers(min_value=1, max_value=10**6))
def test_span_ids_round_trip(doc: str, h: str, start: int, length: int) -> None:
    encoded = ids.encode_span(doc, h, start, start + length)
    assert ids.decode(encoded) == ids.SpanRef(doc, h, start, start + length)
    assert ids.decode(encoded).encode() == encoded


def _valid_ids(doc: str, h: str, chunk: str, start: int) -> list[str]:
    return [ids.encode_chunk(doc, h, chunk), ids.encode_span(doc, h, start, start + 5)]


MUTATIONS = [
    ("upper case", lambda s: s.upper()),
    ("leading space", lambda s: " " + s),
    ("trailing newline", lambda s: s + "\n"),
    ("inner space", lambda s: s.replace(":", ": ", 1)),
    ("wrong version", lambda s: s.replace("ev1:", "ev2:", 1)),
    ("wrong kind", lambda s: s.replace(":c:", ":x:", 1).replace(":s:", ":x:", 1)),
    ("uuid without hyphens", lambda s: s.replace("-", "", 4)),
    ("braced uuid", lambda s: s.replace(s.split(":")[2], "{" + s.split(":")[2] + "}")),
    ("short hash", lambda s: s.replace(s.split(":")[3], s.split(":")[3][:15])),
    ("long hash", lambda s: s.replace(s.split(":")[3], s.split(":")[3] + "0")),
    ("trailing colon", lambda s: s + ":"),
    ("dropped field", lambda s: s.rsplit(":", 1)[0]),
]


@pytest.mark.parametrize(("name", "mutate"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
@given(doc=uuids, h=hash16s, chunk=uuids, start=st.integers(0, 10**6))
def test_mutated_ids_are_rejected(
    name: str, mutate: object, doc: str, h: str, chunk: str, start: int
) -> None:
    assert callable(mutate)
    for valid in _valid_ids(doc, h, chunk, start):
        mutated = mutate(valid)
        assume(mutated != valid)
        with pytest.raises(EvidenceIdError):
            ids.decode(mutated)


@given(uuids, hash16s, st.integers(0, 10**6), st.integers(1, 10**6))
def test_span_offsets_have_one_spelling(doc: str, h: str, start: int, length: int) -> None:
    end = start + length
    base = f"ev1:s:{doc}:{h}:"
    for bad in (
        f"0{start}-{end}",
        f"{start}-0{end}",
        f"+{start}-{end}",
        f"{start}-+{end}",
        f"{end}-{start}",
        f"{start}-{start}",
        f"-{start}-{end}",
        f"{start}.0-{end}",
    ):
        with pytest.raises(EvidenceIdError):
            ids.decode(base + bad)


def test_zero_is_a_valid_offset_but_empty_spans_are_not() -> None:
    doc, h = str(uuid.uuid4()), "0123456789abcdef"
    assert ids.decode(f"ev1:s:{doc}:{h}:0-1") == ids.SpanRef(doc, h, 0, 1)
    with pytest.raises(EvidenceIdError):
        ids.decode(f"ev1:s:{doc}:{h}:0-0")
    with pytest.raises(EvidenceIdError):
        ids.encode_span(doc, h, 4, 4)


def test_encoders_refuse_non_canonical_parts() -> None:
    doc = str(uuid.uuid4())
    with pytest.raises(EvidenceIdError):
        ids.encode_chunk(doc.upper(), "0123456789abcdef", doc)
    with pytest.raises(EvidenceIdError):
        ids.encode_chunk(doc, "0123456789ABCDEF", doc)
    with pytest.raises(EvidenceIdError):
        ids.encode_span(doc, "0123456789abcdef", -1, 3)


@pytest.mark.parametrize("value", ["", "ev1", "ev1:", "ev1:c:", "hello", "ev1:c:a:b:c"])
def test_garbage_is_rejected_with_a_reason(value: str) -> None:
    with pytest.raises(EvidenceIdError) as info:
        ids.decode(value)
    assert info.value.reason
