"""The retrieved passages as the extractive generator reads them.

Each passage's layout units with the idf statistics of the question's words
over them (``Pool``), which retrieved passage continues another in the
same document version (``adjacent``), so a sentence or a list cut by a chunk
boundary is read whole, and where a sentence a page break cut resumes
(``resumed``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pincite.generate.base import Passage
from pincite.generate.layout import Role, Unit, layout
from pincite.generate.page_break import ends_sentence, finishes
from pincite.generate.question import Question
from pincite.generate.rarity import stem_weights
from pincite.generate.words import content_stems

__all__ = ["Piece", "Pool", "adjacent", "ends_sentence", "resume", "resumed"]

Piece = tuple[Passage, int, int]  # passage-relative [start, end)
_ADJACENT_GAP = 4
# Room for a page's footnotes and footer between the halves of a sentence.
_PAGE_BREAK_GAP = 1500
# What the rest of a sentence reads as on its own: a clause, or a few words.
_RESUMING = frozenset({Role.STATEMENT, Role.FRAGMENT})


class Pool:
    """The units of the passages, with the idf statistics of their words.

    A word's idf over the passages is tempered by how common it is in English
    at large (``rarity.english_weight``).
    """

    def __init__(self, question: Question, passages: Sequence[Passage]) -> None:
        self.question = question
        self.passages = list(passages)
        self.units = {p.number: layout(p.text, p.title) for p in self.passages}
        docs: list[set[str]] = []
        for p in self.passages:
            docs.extend(set(content_stems(p.text[u.start : u.end])) for u in self.units[p.number])
        n = len(docs)
        wanted = set(question.stems) | set(question.focus)
        df = {t: sum(t in d for d in docs) for t in wanted}
        english = stem_weights(question.text)
        self.idf = {
            t: max(math.log((n + 1) / (df[t] + 0.5)), 0.0) * english.get(t, 1.0) for t in wanted
        }
        # The question's words that some passage holds (the rest no title can name).
        self.present = frozenset(t for t in wanted if df[t])

    def match(self, terms: Sequence[str], words: set[str]) -> float:
        """The idf-weighted share of ``terms`` found among ``words``."""
        total = sum(self.idf.get(t, 0.0) for t in terms)
        if not terms or total <= 0:
            return 0.0
        return sum(self.idf.get(t, 0.0) for t in terms if t in words) / total


def adjacent(first: Passage, passages: Sequence[Passage]) -> Passage | None:
    """The passage that continues ``first`` in the same document version, if retrieved.

    That is the next chunk; or, when ``first`` stops inside a sentence, a
    chunk shortly after it that starts in lower case or otherwise finishes
    that sentence (``_finished_in``): the rest of a sentence that a page's
    footnotes and running footer cut in two.
    """
    end = first.start + len(first.text)
    doc = first.evidence_id.split(":")[2:3]
    unfinished = not ends_sentence(first.text)
    for p in sorted(passages, key=lambda x: x.start):
        if p.version != first.version or p.evidence_id.split(":")[2:3] != doc:
            continue
        gap = p.start - end
        if 0 <= gap <= _ADJACENT_GAP:
            return p
        if (
            unfinished
            and 0 <= gap <= _PAGE_BREAK_GAP
            and (p.text[:1].islower() or _finished_in(first, p))
        ):
            return p
    return None


def _finished_in(first: Passage, nxt: Passage) -> bool:
    """True when ``nxt`` opens with the rest of the sentence ``first``'s last words began
    (``layout.finishes``: "the server", a page break, "SHOULD assume ...").

    Only across a page break ``first`` ends with (its footer, a form feed, the next
    page's header): between two chunks some way apart, where no break shows, a
    capitalised opening is the later chunk's own sentence, whatever word ``first``
    stops on.
    """
    said = [u for u in layout(first.text, first.title) if u.role is not Role.FURNITURE]
    follow = layout(nxt.text, nxt.title)
    if not said or not follow:
        return False
    last, rest = said[-1], follow[0]
    if "\f" not in first.text[last.end :]:
        return False
    return finishes(
        first.text[last.start : last.end],
        nxt.text[rest.start : rest.end],
        item=last.role is Role.ITEM,
    )


def resumed(text: str, units: Sequence[Unit], i: int) -> int | None:
    """The index of the unit that finishes sentence ``units[i]`` after a page break, if any.

    "… as obtained from the original URI given by the user or referring
    resource (generally an HTTP URL," then the page's footer, a form feed and
    the next page's running header, then "as described in section 3.2.2).":
    only page furniture and a page break lie between the halves, and the rest
    finishes the sentence (``layout.finishes``). A claim quotes both halves
    and leaves the furniture out. Furniture without a page break (a link line,
    a rule) is no break in the sentence: what it holds may be the answer.
    """
    if ends_sentence(text[units[i].start : units[i].end]):
        return None
    j = i + 1
    while j < len(units) and units[j].role is Role.FURNITURE:
        j += 1
    if j == i + 1 or j == len(units) or units[j].role not in _RESUMING:
        return None
    if "\f" not in text[units[i].end : units[j].start]:
        return None
    # Not a code line or a new sentence after the break.
    first, rest = text[units[i].start : units[i].end], text[units[j].start : units[j].end]
    return j if finishes(first, rest, item=units[i].role is Role.ITEM) else None


def resume(p: Passage, units: list[Unit], k: int, pieces: list[Piece]) -> int:
    """Quote the rest of ``units[k]`` if a page break cuts it; the index of the last unit quoted."""
    rest = resumed(p.text, units, k)
    if rest is None:
        return k
    pieces.append((p, units[rest].start, units[rest].end))
    return rest
