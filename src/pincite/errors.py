"""Every error pincite raises on purpose.

One root, so callers can catch everything pincite means with one clause; each
leaf also subclasses the builtin a Python programmer would reach for first::

    PinciteError
    ├── ConfigurationError (ValueError)        wrong setup: embedder mismatch, missing extra
    ├── InputError (ValueError)                bad user input: empty file, unknown extension
    │   └── ParseError                         a file that cannot be turned into text
    ├── EvidenceIdError (ValueError)           a string that is not a canonical evidence id
    ├── NotFoundError (LookupError)            missing *or* not yours: one message for both
    ├── ConcurrentWriteError (RuntimeError)    another writer changed the document first
    ├── GroundingError (ValueError)            an answer whose citations do not hold
    │   ├── UncitedClaimError                  a fact claim with no citation
    │   ├── UngroundedCitationError            a citation this run did not retrieve, or altered
    │   ├── QuoteMismatchError                 a quote that is not verbatim in its passage
    │   ├── UnsupportedClaimError              cited passages do not support the claim
    │   └── TenantCrossingError                a citation from another workspace
    └── GeneratorError (RuntimeError)          a model endpoint failed or answered out of protocol
"""

from __future__ import annotations

from collections.abc import Iterable


class PinciteError(Exception):
    """Root of every error pincite raises on purpose."""


class ConfigurationError(PinciteError, ValueError):
    """pincite is set up in a way that cannot work (store, embedder, extra, data)."""


class InputError(PinciteError, ValueError):
    """A user-supplied value is invalid; the message says which and why."""


class ParseError(InputError):
    """A file could not be turned into canonical text."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class EvidenceIdError(PinciteError, ValueError):
    """A string is not a canonical evidence id."""

    def __init__(self, value: str, reason: str) -> None:
        super().__init__(f"malformed evidence id {value!r}: {reason}")
        self.value = value
        self.reason = reason


class NotFoundError(PinciteError, LookupError):
    """Nothing by that key in this workspace.

    The message never says whether the key exists in another workspace.
    """

    def __init__(self, kind: str, key: str) -> None:
        super().__init__(f"{kind} not found: {key}")
        self.kind = kind
        self.key = key


class ConcurrentWriteError(PinciteError, RuntimeError):
    """Another writer created a version of the same document first; retry the ingest."""


class GroundingError(PinciteError, ValueError):
    """An answer's citations do not hold. Raised, never repaired."""


class UncitedClaimError(GroundingError):
    """A fact claim carries no citation."""

    def __init__(self, claim_text: str) -> None:
        super().__init__(f"claim has no citation: {claim_text!r}")
        self.claim_text = claim_text


class UngroundedCitationError(GroundingError):
    """A cited id was not retrieved in this run, or its citation was altered."""

    def __init__(self, reason: str, missing: Iterable[str], available: Iterable[str]) -> None:
        self.missing = tuple(missing)
        self.available = tuple(available)
        super().__init__(
            f"{reason}; missing: {list(self.missing)}; available: {list(self.available)}"
        )
        self.reason = reason


class QuoteMismatchError(GroundingError):
    """A claim's quote does not appear verbatim in the passage it cites."""

    def __init__(self, quote: str, citation_ids: Iterable[str]) -> None:
        self.quote = quote
        self.citation_ids = tuple(citation_ids)
        super().__init__(f"quote not found verbatim in cited passages {list(self.citation_ids)}")


class UnsupportedClaimError(GroundingError):
    """Every passage a fact claim cites was judged not to support it."""

    def __init__(self, claim_text: str, citation_ids: Iterable[str]) -> None:
        self.claim_text = claim_text
        self.citation_ids = tuple(citation_ids)
        super().__init__(f"cited passages do not support the claim: {claim_text!r}")


class TenantCrossingError(GroundingError):
    """A citation belongs to another workspace than the answer's."""

    def __init__(self, expected: str, citation_ids: Iterable[str]) -> None:
        self.expected = expected
        self.citation_ids = tuple(citation_ids)
        super().__init__(f"citations outside workspace {expected!r}: {list(self.citation_ids)}")


class GeneratorError(PinciteError, RuntimeError):
    """A generator endpoint failed or answered outside the expected protocol."""
