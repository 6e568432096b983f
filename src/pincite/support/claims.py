"""A claim of several sentences, checked as the answer path reads it: each sentence must hold.

The support checkers score one statement against its closest evidence. A
claim that quotes a run of a passage (a lead-in with its list, a definition
with the sentence completing it) or an LLM's two-sentence claim would be
scored as one long statement against a single closest sentence and judged
unsupported although every sentence of it is in the passage. Judging each
sentence and keeping the weakest verdict is both fairer to a true run and
stricter with a claim that adds one false sentence to a true one. A lead-in
quoted with its items ("... when it is caused by: - Scheduled Maintenance; -
features labelled as beta; ...") is one sentence to a sentence splitter; each
item is judged on its own, as the list it was cut from states it. A part
found word for word in a cited passage (whitespace aside) is supported by what
it is, a quote: a checker that scores wording and roles can misjudge a verbless
table row or a list item it reads out of its lead-in, but not an identity.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from pincite.sentences import sentence_spans
from pincite.support.base import SupportChecker, SupportPassage, SupportResult, SupportVerdict

__all__ = ["check_claim"]

# A sentence this short ("The potential impact is LOW if—") is no statement of its own.
_MIN_WORDS = 4
# Where a flattened list's next item starts: a bullet after a lead-in's colon or an
# item's semicolon, a table row after a colon or the previous row, or a bullet,
# number or row opening a line.
# Bullets as extracted: ASCII and Unicode ones, and the private-use glyphs of PDF
# symbol fonts ("\uf03c", "\uf0b7").
_MARK = "-–•*▪◦‣●○■□➢\uf000-\uf0ff"
_MARK_CHARS = frozenset("-–•*▪◦‣●○■□➢") | {chr(c) for c in range(0xF000, 0xF100)}
_ITEM_BREAK = re.compile(
    rf"(?<=[:;])\s+(?=[{_MARK}]\s)|(?<=[:|])\s+(?=\|\s)|\n\s*(?=(?:[{_MARK}|]|\d{{1,2}}[.)])\s)"
)
_BULLET = re.compile(rf"^(?:[{_MARK}|]|\d{{1,2}}[.)])\s+")
_QUOTE = "quoted word for word from the cited passage"
_RANK = {SupportVerdict.UNSUPPORTED: 0, SupportVerdict.PARTIAL: 1, SupportVerdict.SUPPORTED: 2}


def check_claim(
    checker: SupportChecker, claim: str, passages: Sequence[SupportPassage]
) -> SupportResult:
    """``checker.check`` of the claim; of each of its sentences when it has several."""
    parts = [claim[s:e] for s, e in sentence_spans(claim)] if claim.strip() else []
    parts = [piece.strip() for part in parts for piece in _ITEM_BREAK.split(part)]
    # An item is a statement however short ("- Scheduled Maintenance;"); a sentence
    # this short is a fragment.
    parts = [p for p in parts if _BULLET.match(p) or len(p.split()) >= _MIN_WORDS]
    if len(parts) < 2:
        return _quoted(claim, passages) or checker.check(claim, passages)
    results = [_quoted(part, passages) or checker.check(part, passages) for part in parts]
    weakest = min(results, key=lambda r: (_RANK[r.verdict], r.score))
    ids = dict.fromkeys(i for r in results for i in r.sentence_ids)
    return replace(weakest, sentence_ids=tuple(ids))


def _quoted(part: str, passages: Sequence[SupportPassage]) -> SupportResult | None:
    """Supported, at the span it quotes, when ``part`` is word for word a whole
    sentence, item or row of a passage (or a run of them). A piece cut from inside
    one is left to the checker: "customers pay the fees", quoted out of "Many
    believe that customers pay the fees; in fact the vendor does.", is no quote."""
    words = part.split()
    if not words:
        return None
    pattern = re.compile(r"\s+".join(re.escape(w) for w in words))
    for passage in passages:
        text = passage.text
        for m in pattern.finditer(text):
            if _opens_unit(text, m.start()) and _closes_unit(text, m.end()):
                span = passage.span_id(m.start(), m.end())
                return SupportResult(SupportVerdict.SUPPORTED, 1.0, (span,), reasons=(_QUOTE,))
    return None


def _opens_unit(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \t")
    if not before or before[-1] in "\n.!?:;|":
        return True
    # after a bullet, not after the hyphen of "non-payment"
    return before[-1] in _MARK_CHARS and (len(before) == 1 or before[-2].isspace())


def _closes_unit(text: str, end: int) -> bool:
    if text[end - 1] in ".!?:;|":
        return True
    after = text[end:].lstrip(" \t")
    return not after or after[0] == "\n"
