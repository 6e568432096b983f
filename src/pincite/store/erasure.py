"""The erasure rules every store applies; each backend keeps only its SQL.

Erasing text under a right-to-erasure request must leave nothing that gives
the text back, directly or by confirming a guess, while the tombstone keeps
every evidence id resolvable as ``erased`` (DESIGN.md, invariant 7):

- the erased characters become spaces (offsets of everything else hold);
- the version's stored content hash, a sha256 of the original text that
  would confirm a guess of a short text, is replaced by a random tombstone.
  A version erased in part keeps the first 16 hex digits (``hash16``), which
  every evidence id handed out for it already carries and which its unerased
  passages still need to resolve; a version erased whole keeps nothing;
- a document erased whole loses its title, uri and metadata (the title is
  often the text's first line, the uri a file name); a title found inside an
  erased passage is blanked too;
- re-ingesting the erased text is a new version, never ``unchanged``: the
  tombstone no longer equals the text's hash, and the uri no longer matches.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: The title an erased document shows: visible, so nobody mistakes it for data.
ERASED_TITLE = "[erased]"


def erased_uri(document_id: str) -> str:
    """The uri of a document erased whole: unique per tenant, derived from nothing erased."""
    return f"erased:{document_id}"


def tombstone_hash(content_hash: str, *, whole: bool) -> str:
    """A random stand-in for ``content_hash``: 64 hex digits, like a real one."""
    if whole:
        return secrets.token_hex(32)
    return content_hash[:16] + secrets.token_hex(24)


def blank_text(
    text: str, erased: Iterable[tuple[int, int]], ranges: Iterable[tuple[int, int]]
) -> tuple[str, list[tuple[int, int]]]:
    """Erase ``ranges`` of a version's text.

    Characters become spaces, so the text keeps its length and every other
    offset stays valid; the erased ranges (old and new) come back sorted and
    deduplicated.
    """
    spans = {(int(a), int(b)) for a, b in erased}
    for start, end in ranges:
        text = text[:start] + " " * (end - start) + text[end:]
        spans.add((start, end))
    return text, sorted(spans)


def wholly_erased(text: str, erased: Iterable[Iterable[Any]]) -> bool:
    """True when ``erased`` ranges cover the whole text (a document erased whole)."""
    covered = 0
    for a, b in sorted((int(a), int(b)) for a, b in erased):
        if a > covered:
            return False
        covered = max(covered, b)
    return covered >= len(text)


@dataclass(frozen=True, slots=True)
class VersionErasure:
    """What one version becomes: the row to write in place of the old one."""

    old_hash: str
    new_hash: str
    text: str
    erased: list[tuple[int, int]]


def erase_version(
    content_hash: str,
    text: str,
    erased: Iterable[Iterable[Any]],
    ranges: Iterable[tuple[int, int]],
    *,
    whole: bool,
) -> VersionErasure:
    """Blank ``ranges`` of one stored version and give it a tombstone hash."""
    pairs = [(int(a), int(b)) for a, b in erased]
    blanked, spans = blank_text(text, pairs, ranges)
    return VersionErasure(content_hash, tombstone_hash(content_hash, whole=whole), blanked, spans)


@dataclass(frozen=True, slots=True)
class DocumentErasure:
    """The document row's fields after an erasure (``None``: keep what is stored)."""

    title: str | None
    uri: str | None
    clear_metadata: bool


def erase_document(
    document_id: str, title: str, erased_texts: Iterable[str], *, whole: bool
) -> DocumentErasure:
    """Blank what the document row derived from erased text."""
    if whole:
        return DocumentErasure(ERASED_TITLE, erased_uri(document_id), clear_metadata=True)
    needle = title.strip().casefold()
    if needle and any(needle in t.casefold() for t in erased_texts):
        return DocumentErasure(ERASED_TITLE, None, clear_metadata=False)
    return DocumentErasure(None, None, clear_metadata=False)


def derived_from(
    title: str, sections: Iterable[Iterable[str]], erased_texts: Sequence[str]
) -> list[str]:
    """The document's title and headings that occur in erased text, longest first.

    Other chunks carry them in their index text (``embed_text``: title and
    heading path) and heading path; left there, an erased title or heading
    would still match a search.
    """
    folded = [t.casefold() for t in erased_texts]
    candidates = {title, *(s for path in sections for s in path)}
    found = [s for s in candidates if s.strip() and any(s.strip().casefold() in t for t in folded)]
    return sorted(found, key=len, reverse=True)


def scrub(
    embed_text: str, text: str, section: Sequence[str], removed: Sequence[str]
) -> tuple[str, list[str]]:
    """A remaining chunk's index text and heading path without ``removed`` strings.

    Only the header above the chunk's own ``text`` changes (``embed_text`` is
    title and heading path, then the text): the chunk's text is not erased.
    """
    head = embed_text[: len(embed_text) - len(text)] if embed_text.endswith(text) else embed_text
    body = embed_text[len(head) :]
    for s in removed:
        head = head.replace(s, "")
    return head + body, [s for s in section if s not in removed]
