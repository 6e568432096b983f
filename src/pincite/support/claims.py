"""A claim of several sentences, checked as the answer path reads it: each sentence must hold.

The support checkers score one statement against its closest evidence. A
claim that quotes a run of a passage (a lead-in with its list, a definition
with the sentence completing it) or an LLM's two-sentence claim would be
scored as one long statement against a single closest sentence and judged
unsupported although every sentence of it is in the passage. Judging each
sentence and keeping the weakest verdict is both fairer to a true run and
stricter with a claim that adds one false sentence to a true one. A lead-in
with its items ("... when it is caused by: - Scheduled Maintenance; - features
labelled as beta; ...") is one sentence to a sentence splitter; the lead-in and
each item are judged on their own, the lead-in however short ("Employees may:"
carries what the items are).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from pincite.sentences import sentence_spans
from pincite.support.base import SupportChecker, SupportPassage, SupportResult, SupportVerdict

__all__ = ["check_claim", "quoted"]

# A sentence this short ("The potential impact is LOW if—") is no statement of its own.
_MIN_WORDS = 4
# Bullets as extracted: ASCII and Unicode ones, and the private-use glyphs of PDF
# symbol fonts ("\uf03c", "\uf0b7").
_MARK = "-–•*▪◦‣●○■□➢\uf000-\uf0ff"
# Where a flattened list's next item starts: a bullet after a lead-in's colon or an
# item's semicolon, a table row after a colon or the previous row, or a bullet,
# number or row opening a line. (No ``\s*`` before a lookahead: on a long run of
# blank lines it would rescan the run from every newline.)
_ITEM_BREAK = re.compile(
    rf"(?<=[:;])\s+(?=[{_MARK}]\s)|(?<=[:|])\s+(?=\|\s)|\n[ \t]*(?=(?:[{_MARK}|]|\d{{1,2}}[.)])\s)"
)
_BULLET = re.compile(rf"^(?:[{_MARK}|]|\d{{1,2}}[.)])\s+")
_RANK = {SupportVerdict.UNSUPPORTED: 0, SupportVerdict.PARTIAL: 1, SupportVerdict.SUPPORTED: 2}


def check_claim(
    checker: SupportChecker, claim: str, passages: Sequence[SupportPassage]
) -> SupportResult:
    """``checker.check`` of the claim; of each of its sentences, lead-ins and items when
    it has several."""
    parts = [claim[s:e] for s, e in sentence_spans(claim)] if claim.strip() else []
    parts = [piece.strip() for part in parts for piece in _ITEM_BREAK.split(part)]
    # An item is a statement however short ("- Scheduled Maintenance;"), and so is a
    # lead-in; a sentence this short is a fragment.
    parts = [
        p for p in parts if _BULLET.match(p) or p.endswith(":") or len(p.split()) >= _MIN_WORDS
    ]
    if len(parts) < 2:
        return checker.check(claim, passages)
    results = [checker.check(part, passages) for part in parts]
    weakest = min(results, key=lambda r: (_RANK[r.verdict], r.score))
    ids = dict.fromkeys(i for r in results for i in r.sentence_ids)
    return replace(weakest, sentence_ids=tuple(ids))


_QUOTED = "the claim is word for word the text it cites"


def quoted(claim: str, cited: Sequence[tuple[str, str]]) -> SupportResult | None:
    """Supported when ``claim`` is, word for word, the text of its citations in order
    (``cited``: each citation's evidence id and the characters it pins); else ``None``.

    The extractive generator cites the sentences, items and rows it quotes; a
    claim that says exactly what its cited characters say needs no checker, which
    can misjudge a verbless table row or an item read apart from its lead-in. A
    citation pins a whole sentence or passage, so this is no licence to quote
    words cut from inside one: an LLM's claim cites passages, and only a claim
    that copies all of a cited passage's text is supported this way.
    """
    words = claim.split()
    if not words or not cited or words != " ".join(text for _, text in cited).split():
        return None
    spans = tuple(evidence_id for evidence_id, _ in cited if evidence_id.startswith("ev1:s:"))
    return SupportResult(SupportVerdict.SUPPORTED, 1.0, spans, reasons=(_QUOTED,))
