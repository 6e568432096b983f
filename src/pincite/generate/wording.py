"""How a sentence is worded: a term's label, a short statement, a field, code.

``layout`` reads these to tell a heading or a label from a statement.
"""

from __future__ import annotations

import re

from pincite.retrieve.query import STOPWORDS

__all__ = ["FIELD", "VERBS", "looks_like_code", "names_a_term", "sentence_case", "short_statement"]

_CODE = frozenset('|=<>*;[]{}"#\\')
_CODE_SHARE = 0.05
_QUOTES_AND_BRACKETS = str.maketrans("", "", '"[]')
_STAR_BULLET = re.compile(r"^\s*\*\s")
# "**bold**", "__bold__", "*emphasis*" around words, not ABNF's "1*DIGIT" or "*( ... )".
_EMPHASIS = re.compile(r"(?<![\w*])(\*\*|\*|__)(\w(?:[^*_\n]*?\S)?)\1(?![\w*])")

# Words a label may hold in sentence case; a longer one is title-cased.
_LABEL_SENTENCE_CASE = 3

# "Last reviewed: May 2026.", and a release note's "Released on 14 October 2026."
FIELD = re.compile(
    r"[A-Z][a-z]+(?: [a-z]+)?: (?:[A-Z][a-z]+ )?\d|[A-Z][a-z]+ed (?:on|in) (?:[A-Z][a-z]+ )?\d"
)

# A label names a term; a short sentence with a verb ("Cloud computing is an
# evolving paradigm.") says something about it.
VERBS = frozenset(
    {"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "can", "may"}
    | {"must", "shall", "should", "will", "would", "does", "do", "did", "provides", "uses"}
)


def names_a_term(words: list[str]) -> bool:
    """Whether a short verbless line reads as a label: a few words ("Rapid
    elasticity.", "Broad network access.") or a title-cased name ("Platform as a
    Service (PaaS).", "Lack of Physical Security Controls."), not a sentence whose
    verb the verb list lacks ("Managers review access rights every six months.")."""
    if len(words) <= _LABEL_SENTENCE_CASE:
        return words[0].casefold() not in ("yes.", "no.")  # an FAQ's reply opens, no term
    content = [w for w in words if w[:1].isalpha() and w.casefold() not in STOPWORDS]
    return all(w[0].isupper() for w in content)


def sentence_case(words: list[str]) -> bool:
    """Three words or more, the first capitalised and every other one in lower case."""
    return (
        len(words) >= 3
        and words[0][:1].isupper()
        and words[0][1:].islower()
        and all(not w[:1].isupper() for w in words[1:])
    )


def short_statement(words: list[str]) -> bool:
    """Three or four words with a verb ("Smoking is prohibited.") or a field's number or
    date ("Last reviewed: March 2026."); ``is_statement`` wants five, for headings' sake."""
    if not (3 <= len(words) < 5 and words[0][:1].isupper() and words[-1].endswith((".", "!"))):
        return False
    return any(w.casefold() in VERBS for w in words[1:]) or bool(FIELD.match(" ".join(words)))


def looks_like_code(sentence: str, item: bool) -> bool:
    """Grammar and code, by their share of symbols; a Markdown bullet or bold
    word is no symbol ("* a laptop", "**Receipts** are required for all claims."),
    nor are an item's paired quotes and brackets ('2. "Semantics and Content" [RFC7231]')."""
    prose = _EMPHASIS.sub(r"\2", _STAR_BULLET.sub("", sentence, count=1))
    if prose != sentence and len(prose.split()) < 2:
        prose = sentence  # " * age_value" in a C comment: code, not a one-word bullet
    if item and prose.count('"') % 2 == 0 and prose.count("[") == prose.count("]"):
        prose = prose.translate(_QUOTES_AND_BRACKETS)
    return sum(c in _CODE for c in prose) > _CODE_SHARE * len(sentence)
