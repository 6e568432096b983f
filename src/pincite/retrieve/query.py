"""Turning a question into plain search terms (never into FTS syntax)."""

from __future__ import annotations

import re

WORD = re.compile(r"\w+", re.UNICODE)

# A short English stopword list (the classic SMART/Lucene core). Dropping these
# from OR-queries changes BM25 little (their IDF is near zero) and keeps FTS5
# from walking posting lists that cover every chunk.
_STOPWORD_LIST = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if
    in into is it its itself just me more most my myself no nor not now of off on once
    only or other our ours ourselves out over own s same she should so some such t than
    that the their theirs them themselves then there these they this those through to
    too under until up very was we were what when where which while who whom why will
    with would you your yours yourself yourselves
"""
STOPWORDS = frozenset(_STOPWORD_LIST.split())
# A contraction split at its apostrophe by \w+ leaves a piece that is no word of
# the question ("m" of "I'm", "doesn" of "doesn't", "ve" of "we've"), yet would be
# matched as one; a letter that is a word ("vitamin D", "plan B") stays.
_CONTRACTION = re.compile(r"(?<=\w)n['’]t\b|(?<=\w)['’](?:d|ll|m|re|ve)\b", re.I)
_IRREGULAR = re.compile(r"\b(ca|wo|sha)n['’]t\b", re.I)
_IRREGULAR_WORDS = {"ca": "can", "wo": "will", "sha": "shall"}


def uncontracted(text: str) -> str:
    """``text`` with contractions cut to the word they contract: "doesn't" → "does",
    "can't" → "can", "we've" → "we"."""
    if "'" not in text and "’" not in text:
        return text
    text = _IRREGULAR.sub(lambda m: _IRREGULAR_WORDS[m[1].casefold()], text)
    return _CONTRACTION.sub("", text)


def query_terms(question: str, *, limit: int = 64) -> list[str]:
    """Lowercased content words of ``question`` in first-seen order, deduplicated."""
    seen: dict[str, None] = {}
    for word in WORD.findall(uncontracted(question).casefold()):
        if word in STOPWORDS or word in seen:
            continue
        seen[word] = None
        if len(seen) >= limit:
            break
    if not seen:
        # A question of nothing but stopwords still deserves a lexical try.
        seen = dict.fromkeys(WORD.findall(question.casefold())[:limit])
    return list(seen)
