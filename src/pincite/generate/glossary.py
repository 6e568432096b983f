"""A glossary's entries in plain text: the term alone on its line, its definition
indented deeper on the lines below.

RFC 2616 writes its terminology (section 1.3) and its cache directives so:

       cacheable
          A response is cacheable if a cache is allowed to store a copy of ...

A sentence splitter reads the term and the definition's first sentence as one
sentence; the layout reads the term as the label of the sentence under it, as
it reads "Rapid elasticity." before "Capabilities can be ...".
"""

from __future__ import annotations

import re

__all__ = ["glossary_terms"]

# A term of a few lower-case words: "cacheable", "user agent", "upstream/downstream",
# "max-age".
_TERM = re.compile(r"[a-z][a-z/-]*(?: [a-z][a-z/-]*){0,3}")
_INDENT = re.compile(r"[ \t]*")
# The definition sits at least this much deeper than its term.
_DEEPER = 2


def glossary_terms(
    text: str, spans: list[tuple[int, int]]
) -> tuple[list[tuple[int, int]], set[int]]:
    """``spans`` (sentences) with each glossary term split from the definition under it,
    and where the terms start."""
    out: list[tuple[int, int]] = []
    terms: set[int] = set()
    for s, e in spans:
        line_start = text.rfind("\n", 0, s) + 1
        line_end = text.find("\n", s, e)
        if line_end == -1 or text[line_start:s].strip(" \t"):
            out.append((s, e))  # one line, or not the first thing on its line
            continue
        term = text[s:line_end].rstrip(" \t")
        rest = _INDENT.match(text, line_end + 1).end()  # type: ignore[union-attr]
        if (
            _TERM.fullmatch(term)
            and text[rest : rest + 1].isupper()
            and _width(text[line_end + 1 : rest]) >= _width(text[line_start:s]) + _DEEPER
            and rest < e
        ):
            out.extend(((s, s + len(term)), (rest, e)))
            terms.add(s)
        else:
            out.append((s, e))
    return out, terms


def _width(indent: str) -> int:
    return len(indent.expandtabs(8))
