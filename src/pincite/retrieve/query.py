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
# What a contraction leaves once \w+ splits it at the apostrophe ("I'm", "we've",
# "doesn't", "they’re"): no word of the question, yet it would be matched as one.
_CONTRACTED = """
    d ll m re ve aren couldn didn doesn don hadn hasn haven isn mightn mustn needn shan
    shouldn wasn weren wouldn
"""
STOPWORDS = frozenset(_STOPWORD_LIST.split()) | frozenset(_CONTRACTED.split())


def query_terms(question: str, *, limit: int = 64) -> list[str]:
    """Lowercased content words of ``question`` in first-seen order, deduplicated."""
    seen: dict[str, None] = {}
    for word in WORD.findall(question.casefold()):
        if word in STOPWORDS or word in seen:
            continue
        seen[word] = None
        if len(seen) >= limit:
            break
    if not seen:
        # A question of nothing but stopwords still deserves a lexical try.
        seen = dict.fromkeys(WORD.findall(question.casefold())[:limit])
    return list(seen)
