"""pincite: answers whose every claim is pinned to the exact characters it rests on."""

from pincite._open import open
from pincite.corpus import Corpus
from pincite.errors import (
    ConcurrentWriteError,
    ConfigurationError,
    EvidenceIdError,
    GeneratorError,
    GroundingError,
    InputError,
    NotFoundError,
    ParseError,
    PinciteError,
    QuoteMismatchError,
    TenantCrossingError,
    UncitedClaimError,
    UngroundedCitationError,
    UnsupportedClaimError,
)
from pincite.ground.check import CitationVerdict, Verdict, check_citations
from pincite.ground.fetch import FetchLedger, FetchOutcome, FetchStatus, fetch_evidence
from pincite.ground.render import Rendered, render_citations
from pincite.ingest.pipeline import IngestReport, IngestStatus
from pincite.model import (
    BBox,
    Branches,
    Chunk,
    Document,
    DocumentStatus,
    Hit,
    RetrievalResult,
    Span,
    Version,
)
from pincite.retrieve.search import SearchMode, SearchOptions

__all__ = [
    "BBox",
    "Branches",
    "Chunk",
    "CitationVerdict",
    "ConcurrentWriteError",
    "ConfigurationError",
    "Corpus",
    "Document",
    "DocumentStatus",
    "EvidenceIdError",
    "FetchLedger",
    "FetchOutcome",
    "FetchStatus",
    "GeneratorError",
    "GroundingError",
    "Hit",
    "IngestReport",
    "IngestStatus",
    "InputError",
    "NotFoundError",
    "ParseError",
    "PinciteError",
    "QuoteMismatchError",
    "Rendered",
    "RetrievalResult",
    "SearchMode",
    "SearchOptions",
    "Span",
    "TenantCrossingError",
    "UncitedClaimError",
    "UngroundedCitationError",
    "UnsupportedClaimError",
    "Verdict",
    "Version",
    "check_citations",
    "fetch_evidence",
    "open",
    "render_citations",
]
