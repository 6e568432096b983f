"""Follow-up questions made standalone, offline and deterministically.

"And how long are they kept?" after "Which invoices must we archive?" searches
for nothing useful alone. :func:`standalone` resolves a third-person pronoun
against the previous turn's key terms, completes an ellipsis ("What about
backups?", "And for contractors?") with them, and leaves a question that
names its own subject unchanged. Only the previous standalone question is
read: it already carries what came before it, so a chain of follow-ups keeps
its topic without piling up every earlier turn's words.

:func:`rewrite_turn` picks the rewrite for a conversation's turn: a model
generator that offers ``condense`` (a :class:`~pincite.generate.base.Condenser`)
rewrites a follow-up in one forced tool call that also updates the running
summary; any other generator, or a model whose reply is unusable, gets the
deterministic rewrite, and the turn says which one was searched.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pincite.errors import GeneratorError
from pincite.generate.base import Condenser, Exchange, Generator
from pincite.retrieve.query import STOPWORDS

__all__ = ["FALLBACK_NOTE", "HISTORY_TURNS", "Rewritten", "key_terms", "rewrite_turn", "standalone"]

log = logging.getLogger(__name__)

_WORD = re.compile(r"\w+")
# Words a question uses to ask, not to name its subject; they are never carried over.
_ASKING_WORDS = """
    also another anything else explain mean means meant say says said tell know
    please kind kinds type types thing things way ways much many long often soon
    like want need get got give go use used make made happen happens one ones
    well okay ok yes thanks thank sure really actually exactly
    must may might shall cannot
"""
_ASKING = frozenset(_ASKING_WORDS.split())
# Pronouns that point back at the previous turn's subject.
_PRONOUN_WORDS = "it its they them their theirs this that these those"
_PRONOUNS = frozenset(_PRONOUN_WORDS.split())
# Openers of an elliptical follow-up: what follows them is the new part.
_ELLIPSIS = re.compile(
    r"^\s*(?:and|also|but|so|then|what about|how about|and what about|and how about|"
    r"what of|same for|same with|and for|and in|and the)\b[\s,]*",
    re.IGNORECASE,
)
# A turn with at most this many words of its own (past stopwords) needs context:
# "Why?", "How?". MTRAG's short turns with a word of their own ("Value",
# "Spousal support") mostly open a new subject, so one word is enough to stand.
_SHORT = 0
# At most this many carried terms: enough for a subject, few enough not to
# drown the turn (BM25 weighs a carried word like one of the turn's own).
_CARRY = 3
# A turn with this many words of its own names its subject, even with an "it"
# in it ("How does IBM Cloud Kubernetes Service work and why use it?").
_NAMED = 4
# "this"/"that" before a word of content is a determiner ("this policy"), and
# "that" after one is a relative pronoun ("the law that applies"): neither points back.
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})


def key_terms(question: str) -> list[str]:
    """The words that name a question's subject, in order, without repeats."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(question):
        folded = word.casefold()
        if folded in STOPWORDS or folded in _ASKING or (folded.isdigit() and len(folded) < 2):
            continue
        if folded not in {s.casefold() for s in seen}:
            seen[word] = None
    return list(seen)


def _content(word: str) -> bool:
    folded = word.casefold()
    return folded not in STOPWORDS and folded not in _ASKING


def _pointer(words: Sequence[str]) -> str | None:
    """The first word that points back at an earlier subject, if any."""
    for i, word in enumerate(words):
        folded = word.casefold()
        if folded not in _PRONOUNS:
            continue
        if folded in _DEMONSTRATIVES:
            after = words[i + 1] if i + 1 < len(words) else ""
            before = words[i - 1] if i > 0 else ""
            if (after and _content(after)) or (folded == "that" and before and _content(before)):
                continue
        return word
    return None


def standalone(question: str, previous: Sequence[str] = ()) -> str:
    """The question as a search would need it, given the earlier standalone questions.

    The first turn, and any turn that names its own subject without pointing
    back, is returned as it was asked (stripped).
    """
    text = question.strip()
    if not previous or not text:
        return text
    own = {w.casefold() for w in key_terms(text)}
    if len(own) >= _NAMED:
        return text
    terms = [t for t in key_terms(previous[-1]) if t.casefold() not in own]
    # A pronoun stands for a thing: the previous turn's verbs ("retained") stay
    # behind; an ellipsis ("What about receipts?") keeps them, they are what it asks.
    things = [t for t in terms if not t.casefold().endswith("ed")][:_CARRY]
    if not terms:
        return text
    pronoun = _pointer(_WORD.findall(text))
    if pronoun is not None and things:
        # Only the first pronoun: "Are they kept with their receipts?" names one subject.
        pattern = re.compile(rf"\b{re.escape(pronoun)}\b")
        name = " ".join(things)
        if pronoun.casefold() in {"its", "their", "theirs"}:
            name += "'" if name.endswith("s") else "'s"
        return pattern.sub(lambda _: name, text, count=1)
    topic = " ".join(terms[:_CARRY])
    opened = _ELLIPSIS.match(text)
    if opened is not None or len(own) <= _SHORT:
        rest = text[opened.end() :] if opened is not None else text
        rest = rest.strip() or text
        if rest.endswith("?"):
            return f"{rest.rstrip('?').rstrip()} ({topic})?"
        return f"{rest} ({topic})"
    return text


# The condense call sees the running summary and this many latest turns: the
# summary carries the older ones, and two turns resolve "it" in nearly all cases.
HISTORY_TURNS = 2
FALLBACK_NOTE = "the model's rewrite was unusable; searched the offline rewrite"


@dataclass(frozen=True, slots=True)
class Rewritten:
    """How a turn is searched: its standalone question and the summary the answer call gets.

    ``by`` is ``"asked"`` (a first turn, searched as asked, no model call),
    ``"model"`` (the generator's ``condense`` call) or ``"offline"`` (the
    deterministic rewrite); ``note`` says that a model's rewrite was not used
    and ``error`` why. The error may quote the model's reply, so only the note
    is stored with the turn (an erasure could not find document text in it).
    """

    standalone: str
    summary: str
    by: str
    note: str = ""
    error: str = ""
    # Model calls made for the rewrite: 1 when ``condense`` was called, even if it failed.
    calls: int = 0


def rewrite_turn(
    question: str,
    history: Sequence[Exchange],
    *,
    summary: str = "",
    generator: Generator | None = None,
) -> Rewritten:
    """The standalone question for ``question`` after ``history`` (oldest first).

    Makes at most one model call (``condense``), and none on a first turn. A
    ``GeneratorError`` from it (endpoint down, malformed arguments) falls back
    to the offline rewrite with a ``note``; it never fails the turn.
    """
    text = question.strip()
    if not history:
        return Rewritten(text, summary, "asked")
    note = error = ""
    if isinstance(generator, Condenser):
        try:
            got = generator.condense(text, history[-HISTORY_TURNS:], summary=summary)
        except GeneratorError as exc:
            note, error = FALLBACK_NOTE, str(exc)
            log.warning("%s: %s", note, error)
        else:
            return Rewritten(got.standalone, got.summary or summary, "model", calls=1)
    searched = standalone(text, [e.standalone for e in history])
    return Rewritten(searched, summary, "offline", note, error, calls=1 if note else 0)
