"""Claim-versus-sentences analysis: the pure core of the heuristic checker.

``analyse`` splits the cited passages into sentences and computes each one's
terms, numbers and negation once; ``windows`` ranks single sentences and
adjacent pairs by weighted coverage of the claim; ``greedy_cover`` picks the
smallest set of sentences that covers the claim's terms (greedy set cover,
which is within ln(n) of optimal, Chvátal 1979); ``feature_vector`` turns all
that into the numbers the logistic combination weighs. Nothing here loads a
model: the embedding cosine comes in as an argument.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pincite.sentences import sentence_spans
from pincite.support import cues, quantities
from pincite.support import features as f
from pincite.support.base import SupportPassage

__all__ = [
    "FEATURES",
    "Analysis",
    "Sentence",
    "Window",
    "analyse",
    "clear_caches",
    "feature_vector",
    "focus",
    "greedy_cover",
    "sentence_ids",
    "windows",
]

#: The order of the feature vector the logistic weights refer to.
FEATURES = (
    "cov_best",  # weighted claim-term recall of the best sentence or adjacent pair
    "cov_set",  # weighted claim-term recall of the greedy cover set
    "uncovered",  # log(1 + number of claim terms the cover set misses)
    "num_missing",  # share of the claim's numbers that no selected sentence states
    "num_conflict",  # 1 when a claim number is missing and the best window (+1) states others
    "negation",  # cov_best when claim and best window disagree on negation, else 0
    "polarity",  # cov_best when the best window has a directional opposite of a claim word
    "entity_missing",  # share of the claim's capitalised words absent from the passages
    "length",  # log(1 + number of claim terms)
    "cosine",  # embedding cosine of claim and best embedded window (0 without an embedder)
    "num_agree",  # share of the claim's numbers stated (in any unit), 0 when it has none
    "role",  # cov_best when the claim's actor is swapped against the best window (cues.py)
    "scope",  # cov_best when the claim widens what the best window narrows, or the reverse
    "antonym",  # cov_best when the best window says the opposite of a claim word
    "disorder",  # 1 - share of shared word pairs in the same order as in the best window
    "cos_x_cov",  # cosine * cov_best: a paraphrase is close in meaning with few shared words
    "neg_claim",  # cov_best when the claim negates what the best window states un-negated
    "num_absent",  # 1 when a claim number is stated in no cited sentence at all (any unit)
    "counterpart",  # cov_best when the swapped actor is the other party ("customers" / "vendor")
)


_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of one passage: local offsets and its precomputed signals."""

    passage: int
    start: int
    end: int
    terms: frozenset[str]
    numbers: frozenset[f.Quantity]
    negated: bool
    stems: tuple[str, ...]
    negated_terms: frozenset[str]


@dataclass(frozen=True, slots=True)
class Window:
    """One sentence or two adjacent sentences (indexes into ``Analysis.sentences``)."""

    sentences: tuple[int, ...]
    coverage: float


@dataclass(frozen=True, slots=True)
class Analysis:
    claim_terms: frozenset[str]
    claim_numbers: frozenset[f.Quantity]
    claim_entities: frozenset[str]
    claim_negated: bool
    claim_negated_terms: frozenset[str]
    claim_stems: tuple[str, ...]
    weights: dict[str, float]
    sentences: tuple[Sentence, ...]

    def indexes(self, passage: int | None = None) -> list[int]:
        """Indexes of the sentences of one passage, or of all passages."""
        return [i for i, s in enumerate(self.sentences) if passage is None or s.passage == passage]

    def terms_of(self, indexes: Sequence[int]) -> set[str]:
        out: set[str] = set()
        for i in indexes:
            out |= self.sentences[i].terms
        return out

    def coverage(self, indexes: Sequence[int]) -> float:
        return f.coverage(self.claim_terms, self.terms_of(indexes), self.weights)


@lru_cache(maxsize=512)
def _passage_sentences(
    text: str,
) -> tuple[
    tuple[int, int, frozenset[str], frozenset[f.Quantity], bool, tuple[str, ...], frozenset[str]],
    ...,
]:
    out = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        out.append(
            (
                start,
                end,
                frozenset(f.content_terms(sentence)),
                frozenset(f.quantities(sentence)),
                negated := f.negated(sentence),
                tuple(cues.stems(sentence)),
                # Every cue negated_terms reads is one ``negated`` sees: skip the rest.
                f.negated_terms(sentence) if negated else frozenset(),
            )
        )
    return tuple(out)


def clear_caches() -> None:
    """Forget the per-passage sentence analyses (kept for the 512 most recent texts)."""
    _passage_sentences.cache_clear()
    quantities.clear_cache()


def analyse(claim: str, passages: Sequence[str]) -> Analysis:
    """Split ``passages`` into sentences and weigh the claim's terms by their IDF over them."""
    sentences = tuple(
        Sentence(p, start, end, terms, nums, neg, stems, negs)
        for p, text in enumerate(passages)
        for start, end, terms, nums, neg, stems, negs in _passage_sentences(text)
    )
    claim_terms = frozenset(f.content_terms(claim))
    weights = f.idf_weights((s.terms for s in sentences), claim_terms)
    return Analysis(
        claim_terms=claim_terms,
        claim_numbers=frozenset(f.quantities(claim, bare_scaled=False)),
        claim_entities=frozenset(f.entity_terms(claim)) & claim_terms,
        claim_negated=f.negated(claim),
        claim_negated_terms=f.negated_terms(claim),
        claim_stems=tuple(cues.stems(claim)),
        weights=weights,
        sentences=sentences,
    )


def windows(
    analysis: Analysis, indexes: Sequence[int], k: int, *, pairs: bool = True
) -> list[Window]:
    """The ``k`` best sentences or adjacent same-passage pairs, by coverage, best first.

    With ``pairs=False`` only single sentences are ranked.
    Ties go to the single sentence and then to the earlier one, so the result
    is deterministic.
    """
    ranked: list[tuple[float, int, int, tuple[int, ...]]] = []
    previous: int | None = None
    sents = analysis.sentences
    for i in indexes:
        ranked.append((analysis.coverage([i]), 0, i, (i,)))
        if pairs and previous is not None and sents[previous].passage == sents[i].passage:
            ranked.append((analysis.coverage([previous, i]), 1, previous, (previous, i)))
        previous = i
    ranked.sort(key=lambda r: (-r[0], r[1], r[2]))
    out: list[Window] = []
    seen: set[int] = set()
    for cov, _, _, members in ranked:
        if len(out) == k:
            break
        if seen.issuperset(members):
            continue  # a pair adds nothing over sentences already taken
        seen.update(members)
        out.append(Window(members, cov))
    return out


def focus(text: str, claim_terms: frozenset[str], max_words: int) -> tuple[int, int]:
    """The ``(start, end)`` of the run of at most ``max_words`` words with most claim-term words.

    The embedding model's cost grows with every token, and a long sentence's
    tail about something else only dilutes its cosine with the claim, so the
    checker embeds this run rather than the whole sentence. Ties go to the
    earliest run; a text of ``max_words`` words or fewer is returned whole, less
    surrounding whitespace (``(0, 0)`` when it has no words).
    """
    spans = [m.span() for m in _TOKEN.finditer(text)]
    if len(spans) <= max_words:
        return (spans[0][0], spans[-1][1]) if spans else (0, 0)
    hits = [1 if f.content_terms(text[a:b]) & claim_terms else 0 for a, b in spans]
    best = current = sum(hits[:max_words])
    best_first = 0
    for first in range(1, len(spans) - max_words + 1):
        current += hits[first + max_words - 1] - hits[first - 1]
        if current > best:
            best, best_first = current, first
    return spans[best_first][0], spans[best_first + max_words - 1][1]


def greedy_cover(
    analysis: Analysis, indexes: Sequence[int], max_sentences: int, min_gain: float
) -> list[int]:
    """Sentences that together cover the claim's terms, fewest first (greedy set cover).

    Each step takes the sentence adding the most uncovered term weight; after
    the first, a sentence must add at least ``min_gain`` of the claim's total
    weight. Returned in passage order.
    """
    weights = analysis.weights
    remaining = set(analysis.claim_terms)
    # fsum: exact, so neither a gain nor a tie between sentences depends on the
    # order a set yields its terms in, which changes with PYTHONHASHSEED.
    total = math.fsum(weights.get(t, 1.0) for t in remaining) or 1.0
    chosen: list[int] = []
    while remaining and len(chosen) < max_sentences:
        best, best_gain = -1, 0.0
        for i in indexes:
            gain = math.fsum(weights.get(t, 1.0) for t in remaining & analysis.sentences[i].terms)
            if gain > best_gain:
                best, best_gain = i, gain
        if best < 0 or (chosen and best_gain < min_gain * total):
            break
        chosen.append(best)
        remaining -= analysis.sentences[best].terms
    return sorted(chosen)


def feature_vector(
    analysis: Analysis,
    pool: Sequence[int],
    best: Window | None,
    cover: Sequence[int],
    cosine: float,
) -> list[float]:
    """The ``FEATURES`` for a pool of sentences, given its best window and cover set."""
    n_terms = len(analysis.claim_terms)
    entities = analysis.claim_entities
    entity_missing = len(entities - analysis.terms_of(pool)) / len(entities) if entities else 0.0
    if best is None:  # nothing to compare with: the claim is entirely uncovered
        has_numbers = 1.0 if analysis.claim_numbers else 0.0
        return [0.0, 0.0, math.log1p(n_terms), has_numbers, 0.0, 0.0, 0.0, entity_missing,
                math.log1p(n_terms), cosine, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                1.0 if _absent(analysis, pool) else 0.0, 0.0]  # fmt: skip
    sents = analysis.sentences
    best_terms = analysis.terms_of(best.sentences)
    # A conflict is a number the claim asserts and the text around its best
    # window states otherwise; that includes the sentence right after a single
    # best sentence ("...enrolled patients. In total, 1,200 took part.").
    around = list(best.sentences)
    after = around[-1] + 1
    if len(around) == 1 and after < len(sents) and sents[after].passage == sents[around[0]].passage:
        around.append(after)
    best_numbers = {n for i in around for n in sents[i].numbers}
    evidence_terms = analysis.terms_of(cover) | best_terms
    # Numbers count as stated only in a window or cover sentence that shares a
    # word with the claim (units must agree too: ``f.missing_numbers``). The
    # best window counts whole: "In total, 1,200 took part." may follow the
    # sentence that names what was counted.
    words = {t for t in analysis.claim_terms if not t.startswith("#")}
    stated: set[f.Quantity] = set()
    for group in (best.sentences, *((i,) for i in cover if i not in best.sentences)):
        if not words or words & analysis.terms_of(group):
            stated.update(n for i in group for n in sents[i].numbers)
    missing = f.missing_numbers(analysis.claim_numbers, stated)
    # A quantity stated in another unit ("24 hours" for "one business day")
    # covers the claim's number and unit words too.
    for value, unit in set(analysis.claim_numbers) - set(missing):
        evidence_terms = evidence_terms | {f"#{value:g}", f.stem(unit)}
    best_negated = any(sents[i].negated for i in best.sentences)
    claim_seq = analysis.claim_stems
    best_seq = tuple(t for i in best.sentences for t in sents[i].stems)
    n_numbers = len(analysis.claim_numbers)
    pool_terms = analysis.terms_of(pool)
    return [
        best.coverage,
        f.coverage(analysis.claim_terms, evidence_terms, analysis.weights),
        math.log1p(len(analysis.claim_terms - evidence_terms)),
        len(missing) / len(analysis.claim_numbers) if analysis.claim_numbers else 0.0,
        1.0 if missing and best_numbers else 0.0,
        best.coverage if best_negated != analysis.claim_negated else 0.0,
        best.coverage if f.polarity_conflict(analysis.claim_terms, best_terms) else 0.0,
        entity_missing,
        math.log1p(n_terms),
        cosine,
        (n_numbers - len(missing)) / n_numbers if n_numbers else 0.0,
        best.coverage * cues.role_conflict(claim_seq, best_seq, pool_terms),
        best.coverage * cues.scope_conflict(claim_seq, best_seq),
        best.coverage * cues.antonym_conflict(claim_seq, best_seq),
        1.0 - cues.order_agreement(claim_seq, best_seq),
        cosine * best.coverage,
        best.coverage if _negates(analysis, best, best_terms, best_negated) else 0.0,
        1.0 if missing and _absent(analysis, pool) else 0.0,
        best.coverage * cues.counterpart_conflict(claim_seq, best_seq, pool_terms),
    ]


def _negates(analysis: Analysis, best: Window, best_terms: set[str], best_negated: bool) -> bool:
    """True when the claim negates what its best window says without negation.

    Either the claim has a negation cue and the window none, or the words the
    claim negates are in the window and none is negated there ("is not linked
    to Y" against "is linked to Y, but not to Z"; not against "is linked to
    Y, but not to Z" for "is not linked to Z").
    """
    if analysis.claim_negated and not best_negated:
        return True
    window_negated: set[str] = set()
    for i in best.sentences:
        window_negated |= analysis.sentences[i].negated_terms
    shared = analysis.claim_negated_terms & best_terms
    # Any of them negated there too: the window negates the same thing, in its own words.
    return bool(shared) and not shared & window_negated


def _absent(analysis: Analysis, pool: Sequence[int]) -> bool:
    """True when some claim number is stated by no sentence of ``pool``, whatever its words.

    ``num_missing`` looks only in the best window and the cover set, where the
    claim's words are; a number the whole cited text never states (a year, a
    count, a changed figure) is stronger evidence against the claim than one
    stated in a sentence the checker did not pick. (Looking only in sentences
    that share a word with the claim measured worse on WiCE and
    AttributionBench dev: a page's sentences often name their subject "he".)
    """
    if not analysis.claim_numbers:
        return False
    stated = {n for i in pool for n in analysis.sentences[i].numbers}
    return bool(f.missing_numbers(analysis.claim_numbers, stated))


def sentence_ids(
    passages: Sequence[SupportPassage], analysis: Analysis, indexes: Sequence[int]
) -> tuple[str, ...]:
    """The span ids of the analysed sentences at ``indexes``, for a verdict to cite."""
    out = []
    for i in indexes:
        s = analysis.sentences[i]
        out.append(passages[s.passage].span_id(s.start, s.end))
    return tuple(out)
