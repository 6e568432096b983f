"""Every way the evidence-id codec refuses a value says which part and why, in one line.

(tests/test_ids.py round-trips and rejects; this pins what the rejection says,
which the mutation run found unchecked.)
"""

from __future__ import annotations

import pytest

from pincite import ids
from pincite.errors import EvidenceIdError

DOC = "0f8fad5b-d9cb-469f-a165-70867728950e"
CHUNK = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
H = "0123456789abcdef"
CANONICAL = "not in canonical form (lowercase UUIDs, 16 hex digits, offsets without leading zeros)"


def _reason(call: object) -> EvidenceIdError:
    assert callable(call)
    with pytest.raises(EvidenceIdError) as info:
        call()
    return info.value


@pytest.mark.parametrize(
    ("call", "value", "reason"),
    [
        (lambda: ids.encode_chunk(DOC.upper(), H, CHUNK), DOC.upper(),
         "document id must be a lowercase hyphenated UUID"),
        (lambda: ids.encode_chunk(DOC, H.upper(), CHUNK), H.upper(),
         "version must be 16 lowercase hex digits"),
        (lambda: ids.encode_chunk(DOC, H, CHUNK.replace("-", "")), CHUNK.replace("-", ""),
         "chunk id must be a lowercase hyphenated UUID"),
        (lambda: ids.encode_span(DOC, H, 5, 5), "5-5", "span needs 0 <= start < end"),
        (lambda: ids.encode_span(DOC, H, True, 5), "True-5", "span needs 0 <= start < end"),
        (lambda: ids.encode_span(DOC, H, 0, True), "0-True", "span needs 0 <= start < end"),
        (lambda: ids.decode(42), "42", "not a string"),
        (lambda: ids.decode(f"ev1:s:{DOC}:{H}:9-3"), f"ev1:s:{DOC}:{H}:9-3",
         "span needs start < end"),
    ],
)  # fmt: skip
def test_encoder_and_decoder_errors_name_the_part_and_the_rule(
    call: object, value: str, reason: str
) -> None:
    error = _reason(call)
    assert (error.value, error.reason) == (value, reason)
    assert str(error) == f"malformed evidence id {value!r}: {reason}"


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (f"EV1:c:{DOC}:{H}:{CHUNK}", "must start with 'ev1:'"),
        (f"ev1:c:{DOC}:{H}:{CHUNK} ", "contains whitespace"),
        (f"ev1:c:{DOC}:{H}: {CHUNK}", "contains whitespace"),  # inside: strip() alone misses it
        (f"ev1:x:{DOC}:{H}:{CHUNK}", "kind must be 'c' (chunk) or 's' (span)"),
        (f"ev1:C:{DOC}:{H}:{CHUNK}", "kind must be 'c' (chunk) or 's' (span)"),
        (f"ev1:c:{DOC}:{H.upper()}:{CHUNK}", CANONICAL),
        (f"ev1:s:{DOC}:{H}:01-5", CANONICAL),
    ],
)
def test_decode_diagnoses_each_kind_of_misspelling(value: str, reason: str) -> None:
    error = _reason(lambda: ids.decode(value))
    assert (error.value, error.reason) == (value, reason)
    assert ids.is_canonical(value) is False


def test_is_canonical_accepts_both_shapes() -> None:
    assert ids.is_canonical(ids.encode_chunk(DOC, H, CHUNK)) is True
    assert ids.is_canonical(ids.encode_span(DOC, H, 0, 1)) is True
