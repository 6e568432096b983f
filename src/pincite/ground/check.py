"""check_citations: is each id an answer cites one this run actually read?"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from pincite import ids
from pincite.errors import EvidenceIdError
from pincite.ground.fetch import FetchLedger

# Candidate ids in free text: anything that starts like an id, in any case, up
# to whitespace or a bracket. Each candidate is then decoded strictly, so a
# near-miss is reported as malformed instead of silently skipped.
CANDIDATE = re.compile(r"(?i)\bev1:[^\s\[\](){}<>,;\"'`]+")


class Verdict(StrEnum):
    VALID = "valid"
    MALFORMED = "malformed"
    # Invented, unread and out-of-scope ids share one verdict so that the check
    # tells a caller nothing about what exists outside its scope.
    UNFETCHED = "unfetched"


@dataclass(frozen=True, slots=True)
class CitationVerdict:
    id: str
    verdict: Verdict


def find_ids(text: str) -> list[str]:
    """Evidence-id candidates in ``text`` in order of first appearance."""
    found = (clean(m.group(0)) for m in CANDIDATE.finditer(text))
    return list(dict.fromkeys(found))


def clean(candidate: str) -> str:
    """Drop sentence punctuation that follows an id in prose."""
    return candidate.rstrip(".:")


def check_citations(text_or_ids: str | Iterable[str], ledger: FetchLedger) -> list[CitationVerdict]:
    """One verdict per cited id: ``valid`` only for ids read in full in this scope."""
    cited = find_ids(text_or_ids) if isinstance(text_or_ids, str) else list(text_or_ids)
    verdicts = []
    for raw in dict.fromkeys(cited):
        try:
            ref = ids.decode(raw)
        except EvidenceIdError:
            verdicts.append(CitationVerdict(raw, Verdict.MALFORMED))
            continue
        ok = ledger.covers(ref, raw)
        verdicts.append(CitationVerdict(raw, Verdict.VALID if ok else Verdict.UNFETCHED))
    return verdicts
