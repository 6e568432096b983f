"""Re-anchoring: where a span cited in an old version sits in the current one.

Three steps, first hit wins:

1. exact: the cited text occurs verbatim (the occurrence nearest the old
   relative position, when it occurs more than once) → ``unchanged``;
2. whitespace-normalised: it occurs once runs of whitespace are collapsed
   (re-extraction moved a line break) → ``unchanged``, ``whitespace_only``;
3. alignment: a word-level ``difflib`` alignment around the longest run of
   words the two share; its span is scored by the character similarity
   (``SequenceMatcher.ratio`` on whitespace-normalised text) → ``changed``
   with a word diff at or above :data:`REMOVED_BELOW`, else ``removed``.

Pure functions over strings: no store, no ids (the caller mints those).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["REMOVED_BELOW", "Anchor", "Reanchored", "Reanchorer", "word_diff"]

# Below this similarity the best alignment is reported as ``removed``. 0.6: a
# sentence that kept at least ~60% of its characters in order still reads as
# the same sentence edited; below it the match was mostly shared boilerplate
# (hand-checked on SP 800-46 r1 → r2, benchmarks/reanchor.py).
REMOVED_BELOW = 0.6
# Words of context around the seed match that the alignment may stretch into.
_SLACK = 0.5

_WORD = re.compile(r"\S+")
_SPACE = re.compile(r"\s+")


class Anchor(StrEnum):
    UNCHANGED = "unchanged"
    CHANGED = "changed"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class Reanchored:
    """Where an old span went: ``span`` into the new text (``None`` when removed)."""

    status: Anchor
    span: tuple[int, int] | None
    similarity: float
    diff: str = ""
    whitespace_only: bool = False


def _normalise(text: str) -> tuple[str, list[int]]:
    """``text`` with whitespace runs collapsed to one space, and each output index's source."""
    out: list[str] = []
    where: list[int] = []
    for m in re.finditer(r"\s+|\S+", text):
        if m.group().isspace():
            out.append(" ")
            where.append(m.start())
        else:
            out.append(m.group())
            where.extend(range(m.start(), m.end()))
    return "".join(out), where


def word_diff(old: str, new: str) -> str:
    """A one-line word diff: ``[-removed-]`` and ``{+added+}`` between kept words."""
    a, b = old.split(), new.split()
    parts: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            parts.extend(a[i1:i2])
            continue
        if i2 > i1:
            parts.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(parts)


def _similarity(old: str, new: str) -> float:
    a, b = _SPACE.sub(" ", old).strip(), _SPACE.sub(" ", new).strip()
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


class Reanchorer:
    """Re-anchors many spans into one new text, indexing it once."""

    def __init__(self, new_text: str) -> None:
        self.text = new_text
        self._normal, self._where = _normalise(new_text)
        self._words = [m.group() for m in _WORD.finditer(new_text)]
        self._spans = [(m.start(), m.end()) for m in _WORD.finditer(new_text)]
        self._matcher = difflib.SequenceMatcher(None, autojunk=False)
        self._matcher.set_seq2(self._words)

    def find(self, old: str, *, position: float = 0.0) -> Reanchored:
        """Where ``old`` went; ``position`` (0..1) is its relative place in the old text."""
        if not old.strip():
            return Reanchored(Anchor.REMOVED, None, 0.0)
        exact = self._nearest(self.text, old, position)
        if exact is not None:
            return Reanchored(Anchor.UNCHANGED, (exact, exact + len(old)), 1.0)
        normal_old = _SPACE.sub(" ", old).strip()
        at = self._nearest(self._normal, normal_old, position)
        if at is not None:
            start = self._where[at]
            end = self._where[at + len(normal_old) - 1] + 1
            return Reanchored(Anchor.UNCHANGED, (start, end), 1.0, whitespace_only=True)
        return self._align(old)

    @staticmethod
    def _nearest(text: str, needle: str, position: float) -> int | None:
        hits = [m.start() for m in re.finditer(re.escape(needle), text)]
        if not hits:
            return None
        target = position * max(len(text), 1)
        return min(hits, key=lambda h: abs(h - target))

    def _align(self, old: str) -> Reanchored:
        words = old.split()
        if not self._words:
            return Reanchored(Anchor.REMOVED, None, 0.0)
        self._matcher.set_seq1(words)
        seed = self._matcher.find_longest_match(0, len(words), 0, len(self._words))
        if seed.size == 0:
            return Reanchored(Anchor.REMOVED, None, 0.0)
        slack = max(3, int(len(words) * _SLACK))
        lo = max(0, seed.b - seed.a - slack)
        hi = min(len(self._words), seed.b + (len(words) - seed.a) + slack)
        window = difflib.SequenceMatcher(None, words, self._words[lo:hi], autojunk=False)
        blocks = [b for b in window.get_matching_blocks() if b.size]
        first, last = lo + blocks[0].b, lo + blocks[-1].b + blocks[-1].size - 1
        span = (self._spans[first][0], self._spans[last][1])
        new = self.text[span[0] : span[1]]
        score = _similarity(old, new)
        if score < REMOVED_BELOW:
            return Reanchored(Anchor.REMOVED, None, round(score, 4))
        return Reanchored(Anchor.CHANGED, span, round(score, 4), word_diff(old, new))
