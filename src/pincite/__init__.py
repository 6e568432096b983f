"""pincite: answers whose every claim is pinned to the exact characters it rests on."""

from pincite._open import open
from pincite.answer.pipeline import Outcome, SupportPolicy
from pincite.citation import Citation, CitedAnswer, Claim, ClaimKind, Rendered
from pincite.corpus import Answer, Corpus
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
from pincite.ground.cite import check_grounding, cite
from pincite.ground.fetch import FetchLedger, FetchOutcome, FetchStatus, fetch_evidence
from pincite.ground.resolve import CitationResolver, MemoryRecord, citation_attributes, excerpt
from pincite.ingest.pipeline import IngestReport, IngestStatus
from pincite.model import (
    BBox,
    Branches,
    ChannelRank,
    Chunk,
    Document,
    DocumentStatus,
    Hit,
    RetrievalResult,
    Span,
    Version,
)
from pincite.present.render import render_citations
from pincite.retrieve.search import SearchMode, SearchOptions
from pincite.settings import EmbedderSettings, GeneratorSettings

__all__ = [
    "Answer",
    "BBox",
    "Branches",
    "ChannelRank",
    "Chunk",
    "Citation",
    "CitationResolver",
    "CitationVerdict",
    "CitedAnswer",
    "Claim",
    "ClaimKind",
    "ConcurrentWriteError",
    "ConfigurationError",
    "Corpus",
    "Document",
    "DocumentStatus",
    "EmbedderSettings",
    "EvidenceIdError",
    "FetchLedger",
    "FetchOutcome",
    "FetchStatus",
    "GeneratorError",
    "GeneratorSettings",
    "GroundingError",
    "Hit",
    "IngestReport",
    "IngestStatus",
    "InputError",
    "MemoryRecord",
    "NotFoundError",
    "Outcome",
    "ParseError",
    "PinciteError",
    "QuoteMismatchError",
    "Rendered",
    "RetrievalResult",
    "SearchMode",
    "SearchOptions",
    "Span",
    "SupportPolicy",
    "TenantCrossingError",
    "UncitedClaimError",
    "UngroundedCitationError",
    "UnsupportedClaimError",
    "Verdict",
    "Version",
    "check_citations",
    "check_grounding",
    "citation_attributes",
    "cite",
    "excerpt",
    "fetch_evidence",
    "open",
    "render_citations",
]
