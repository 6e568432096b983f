"""The offline default generator: answers with the passages' own best sentences.

Deterministic and model-free. Each claim is one sentence copied from a
passage, citing that passage and the sentence's exact span; so an extractive
answer can be wrong about relevance but never about what a source says.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pincite.embed.base import Embedder
from pincite.generate.base import GeneratedClaim, Generation, Passage
from pincite.retrieve.query import STOPWORDS
from pincite.sentences import sentence_spans

_WORD = re.compile(r"\w+")
_CACHE_LIMIT = 50_000
_NUMBERED_HEADING = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.\d+(?:\.\d+)*)\s+\S")


def is_statement(text: str) -> bool:
    """True for a sentence that can stand as a claim; false for headings and page furniture."""
    words = text.split()
    if len(words) < 5:
        return False
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.6 * len(letters):
        return False  # ALL-CAPS running headers and titles
    if _NUMBERED_HEADING.match(text) and not text.rstrip().endswith((".", "!", "?", ":")):
        return False
    if text.rstrip().endswith(":"):
        return False  # a lead-in to a list says nothing by itself
    return text.rstrip().endswith((".", "!", "?", ";", ")", '"', "”")) or len(words) >= 12


_SUFFIXES = (
    "ational",
    "ization",
    "ations",
    "ation",
    "ities",
    "ness",
    "ments",
    "ment",
    "ings",
    "ing",
    "ies",
    "ied",
    "ed",
    "es",
    "ly",
    "s",
)


def stem(word: str) -> str:
    """A light suffix stripper: enough to match 'encrypted' with 'encryption'."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_stems(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.casefold()) if w not in STOPWORDS]


@dataclass(frozen=True, slots=True)
class ExtractiveConfig:
    # Score = coverage_weight · idf-weighted coverage of the question's content
    # words + (1 - coverage_weight) · cosine(question, sentence) when an
    # embedder is given. The threshold below which the context is judged
    # insufficient was set on SQuAD 2.0 dev articles 0-9 (a calibration slice
    # that `pincite eval answers` excludes from what it reports):
    #   pincite eval answers ../shared/data/squad2_dev --calibrate
    coverage_weight: float = 0.5
    threshold: float = 0.54
    # Without an embedder the score is idf-weighted coverage alone, on another
    # scale; its threshold comes from the same sweep run with `--embedder none`.
    threshold_lexical: float = 0.50
    max_passages: int = 5
    max_claims: int = 2
    # Coverage is scaled by (1 - novelty_weight + novelty_weight * novelty),
    # novelty being the share of `novel_words` content words the sentence adds
    # beyond the question.
    novelty_weight: float = 0.3
    novel_words: int = 8
    # A second sentence joins the answer only if it scores this close to the best.
    second_ratio: float = 0.9


@dataclass(frozen=True, slots=True)
class _Candidate:
    passage: Passage
    start: int
    end: int
    score: float


class ExtractiveGenerator:
    """Selects the sentences of the retrieved passages that best answer the question."""

    name = "extractive"
    is_model = False

    def __init__(self, embedder: Embedder | None = None, config: ExtractiveConfig | None = None):
        self._embedder = embedder
        self.config = config or ExtractiveConfig()
        self._cache: dict[str, np.ndarray] = {}

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        summary: str = "",
        feedback: str | None = None,
    ) -> Generation:
        ranked = self.rank_sentences(question, passages)
        threshold = self.threshold
        if not ranked or ranked[0].score < threshold:
            return Generation(claims=(), sufficient_context=False, summary=summary)
        best = ranked[0]
        chosen = [best]
        for cand in ranked[1:]:
            if len(chosen) >= self.config.max_claims:
                break
            close = cand.score >= best.score * self.config.second_ratio
            if close and cand.score >= threshold:
                text = cand.passage.text[cand.start : cand.end]
                if all(text != c.passage.text[c.start : c.end] for c in chosen):
                    chosen.append(cand)
        claims = tuple(
            GeneratedClaim(
                text=" ".join(c.passage.text[c.start : c.end].split()),
                used_excerpt_numbers=(c.passage.number,),
                kind="fact",
                quote=c.passage.text[c.start : c.end],
                spans=((c.passage.start + c.start, c.passage.start + c.end),),
            )
            for c in chosen
        )
        return Generation(claims=claims, sufficient_context=True, summary=summary)

    @property
    def threshold(self) -> float:
        """The score below which the context is judged insufficient (refusal)."""
        if self._embedder is None:
            return self.config.threshold_lexical
        return self.config.threshold

    def _sentence_vectors(self, sentences: list[str]) -> np.ndarray:
        # The same passages come back for related questions; embedding each
        # sentence once per process keeps follow-up questions fast.
        assert self._embedder is not None
        missing = [s for s in dict.fromkeys(sentences) if s not in self._cache]
        if missing:
            for s, v in zip(missing, self._embedder.embed_documents(missing), strict=True):
                if len(self._cache) >= _CACHE_LIMIT:
                    self._cache.pop(next(iter(self._cache)))
                self._cache[s] = v
        return np.vstack([self._cache[s] for s in sentences])

    def rank_sentences(self, question: str, passages: Sequence[Passage]) -> list[_Candidate]:
        """Every sentence of the top passages, best first, with its score in [0, 1]."""
        q = list(dict.fromkeys(content_stems(question)))
        pool: list[tuple[Passage, int, int, set[str]]] = []
        for p in passages[: self.config.max_passages]:
            for s, e in sentence_spans(p.text):
                if not is_statement(p.text[s:e]):
                    continue
                pool.append((p, s, e, set(content_stems(p.text[s:e]))))
        if not pool or not q:
            return []
        n = len(pool)
        idf = {t: math.log((n + 1) / (sum(t in toks for *_, toks in pool) + 0.5)) for t in q}
        total = sum(max(v, 0.0) for v in idf.values()) or 1.0
        coverage = [sum(max(idf[t], 0.0) for t in q if t in toks) / total for *_, toks in pool]
        # An answer adds something the question does not already say: a
        # sentence made only of the question's words ("more on the four
        # categories is below") is a pointer, not an answer.
        q_set = set(q)
        novelty = [min(1.0, len(toks - q_set) / self.config.novel_words) for *_, toks in pool]
        coverage = [
            c * (1 - self.config.novelty_weight + self.config.novelty_weight * n)
            for c, n in zip(coverage, novelty, strict=True)
        ]
        if self._embedder is not None:
            w = self.config.coverage_weight
            qv = self._embedder.embed_query(question)
            sv = self._sentence_vectors([p.text[s:e] for p, s, e, _ in pool])
            cos = np.clip(sv @ qv, 0.0, 1.0)
            scores = [w * c + (1 - w) * float(x) for c, x in zip(coverage, cos, strict=True)]
        else:
            scores = coverage
        # Earlier passages ranked higher in retrieval: break ties toward them.
        cands = [_Candidate(p, s, e, sc) for (p, s, e, _), sc in zip(pool, scores, strict=True)]
        return sorted(cands, key=lambda c: (-c.score, c.passage.number, c.start))
