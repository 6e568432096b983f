"""Drop near-duplicate passages from a ranked list, keeping the best-ranked copy.

Three tests, applied to each item against every item already kept (so the cost
is O(n · kept), fine for the ≤ 200 candidates a query fuses):

1. the normalised texts are equal (:func:`normalize_for_dedup`);
2. the word-shingle Jaccard similarity is at least ``jaccard``;
3. (optional) the two spans lie in the same document version and overlap by
   more than half of the shorter one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

from pincite.errors import InputError

T = TypeVar("T")

# Word w-shingles and their Jaccard "resemblance" are from Broder, "On the
# resemblance and containment of documents", SEQUENCES 1997. w = 5 follows the
# NearDup method of Lee et al., "Deduplicating Training Data Makes Language
# Models Better", ACL 2022, which shingles text into 5-grams (they flag pairs
# from 0.8; our default of 0.9 is stricter: near-verbatim copies only).
SHINGLE_SIZE = 5
DEFAULT_JACCARD = 0.9


@lru_cache(maxsize=4096)
def normalize_for_dedup(text: str) -> str:
    """Fold ``text`` to the form in which copies compare equal.

    NFKC (so ligatures and full-width forms from PDFs match their plain
    spelling), casefold, every Unicode punctuation character (category ``P*``)
    replaced by a space, runs of whitespace collapsed to one space, ends
    stripped. Replacing punctuation by a space rather than deleting it keeps
    ``"end-to-end"`` and ``"end to end"`` equal.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    # One category lookup per distinct character, then one C-level translate:
    # the same result as testing every character, ~50x faster on a passage.
    table = {ord(ch): " " for ch in set(folded) if unicodedata.category(ch).startswith("P")}
    return " ".join(folded.translate(table).split())


def forget_texts() -> None:
    """Drop the cached normalised texts: an erased or purged text leaves memory too."""
    normalize_for_dedup.cache_clear()


def shingles(normalized: str, size: int = SHINGLE_SIZE) -> frozenset[tuple[str, ...]]:
    """The set of ``size``-word shingles of an already normalised text.

    A text shorter than ``size`` words has one shingle, its whole word tuple;
    the empty text has none.
    """
    words = tuple(normalized.split())
    if not words:
        return frozenset()
    if len(words) <= size:
        return frozenset({words})
    # zip over shifted views builds the tuples in C: a query's dedup was a quarter of
    # a lexical retrieve with the slicing generator (benchmarks/bench_query_peers.py).
    return frozenset(zip(*(words[i:] for i in range(size)), strict=False))


def jaccard_similarity(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> float:
    """``|a ∩ b| / |a ∪ b|``; 0.0 when both are empty."""
    common = len(a & b)
    union = len(a) + len(b) - common
    return common / union if union else 0.0


def spans_overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True when ``[start, end)`` spans overlap by more than half of the shorter one.

    Empty spans never overlap anything.
    """
    overlap = min(a[1], b[1]) - max(a[0], b[0])
    shorter = min(a[1] - a[0], b[1] - b[0])
    return overlap > 0 and 2 * overlap > shorter


def dedup(
    items: Sequence[T],
    *,
    key_text: Callable[[T], str],
    key_span: Callable[[T], tuple[str, int, int]] | None = None,
    limit: int | None = None,
    jaccard: float = DEFAULT_JACCARD,
) -> list[T]:
    """Keep ``items`` in order, dropping each one that duplicates an item kept before it.

    ``key_text`` gives an item's text; ``key_span`` (optional) gives
    ``(version_key, start, end)``, the item's character span in one document
    version. An item is dropped when, against some kept item, its normalised
    text is equal, its shingle Jaccard similarity is ≥ ``jaccard``, or its span
    is in the same version and overlaps by more than half of the shorter span.
    Stops once ``limit`` items are kept (``None``: no limit).

    Raises ``InputError`` when ``limit`` is negative, ``jaccard`` is outside
    ``(0, 1]``, or a span ends before it starts.
    """
    if limit is not None and limit < 0:
        raise InputError(f"limit must be >= 0 or None, got {limit}")
    if not 0.0 < jaccard <= 1.0:
        raise InputError(f"jaccard threshold must be in (0, 1], got {jaccard!r}")

    kept: list[T] = []
    kept_texts: set[str] = set()
    kept_shingles: list[frozenset[tuple[str, ...]]] = []
    kept_spans: dict[str, list[tuple[int, int]]] = {}
    for item in items:
        if limit is not None and len(kept) >= limit:
            break
        text = normalize_for_dedup(key_text(item))
        if text in kept_texts:
            continue
        item_shingles = shingles(text)
        if any(
            # |a ∩ b| / |a ∪ b| <= min(|a|, |b|) / max(|a|, |b|): skip pairs whose
            # sizes alone rule the threshold out (most pairs, and the costly part).
            _sizes_allow(len(item_shingles), len(other), jaccard)
            and jaccard_similarity(item_shingles, other) >= jaccard
            for other in kept_shingles
        ):
            continue
        span: tuple[str, int, int] | None = None
        if key_span is not None:
            span = key_span(item)
            version, start, end = span
            if end < start:
                raise InputError(f"span ends before it starts: {span!r}")
            if any(spans_overlap((start, end), other) for other in kept_spans.get(version, ())):
                continue
        kept.append(item)
        kept_texts.add(text)
        kept_shingles.append(item_shingles)
        if span is not None:
            kept_spans.setdefault(span[0], []).append((span[1], span[2]))
    return kept


def _sizes_allow(a: int, b: int, threshold: float) -> bool:
    """Whether sets of sizes ``a`` and ``b`` can reach Jaccard ``threshold`` at all."""
    small, large = min(a, b), max(a, b)
    return large == 0 or small >= threshold * large - 1e-9  # slack: never prune a tie
