"""Sentence boundaries as code-point spans into a text.

``sentence_spans`` cuts a range of a text into sentences and returns their
``(start, end)`` offsets into the *same* string, so a sentence can be cited as
an ``ev1:s:`` span of the version it came from. Every span is stripped of
surrounding whitespace and never empty; together the spans cover every
non-whitespace character of the range, in order, without overlap.

Two passes:

1. **Lines into blocks.** A blank line always ends a block. A line break also
   ends one before a list item (``-``, ``*``, ``•``, ``1.``, ``(a)``, ``a)``),
   around a heading (Markdown ``#``, a numbered heading such as ``4.2 Results``,
   or a short Title Case line with no closing punctuation followed by a capital),
   and nowhere else: a hard-wrapped paragraph stays one block.
2. **Blocks into sentences.** A run of ``.``, ``!``, ``?`` or ``…`` (with any
   closing quotes or brackets) followed by whitespace ends a sentence, unless
   what follows starts in lower case, or the word before a period is an
   abbreviation (``e.g.``, ``Fig.``, ``Dr.``, ``et al.``, ``U.S.``, ``J.``). The
   ambiguous ones (``et al.``, ``etc.``, ``U.S.``, initials) end a sentence only
   when the next word is a frequent sentence starter ("The", "We", "However",
   ...), the orthographic evidence Punkt uses (Kiss & Strunk 2006, §4).
   Decimals and section numbers (``3.5``, ``4.2.1``) have no space after the
   period and never split. CJK full stops (``。！？``) end a sentence with or
   without a following space.

Why not a library: ``sentencex`` 1.0.32 (fast, well kept) panics in Rust on
some non-ASCII input near initials, which surfaces as ``BaseException``;
``pysbd`` has been unmaintained since 2021 and is ~100× slower.
"""

from __future__ import annotations

import re

__all__ = ["MD_HEADING", "sentence_spans"]


def _wordset(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` (keeps long word lists compact)."""
    return frozenset(text.split())


# Abbreviations after which a period never ends a sentence: titles and
# scholarly shorthand (``Fig. 3``, ``e.g. the``, ``Dr. Smith``). Lower case,
# without the final period.
_NEVER_END = _wordset(
    """
    e.g eg i.e ie cf vs viz approx ca incl resp al dr mr mrs ms prof rev gen col sgt lt capt hon
    mt fr sen rep gov pres dept univ assoc eds op cit ibid
    """
)
# Abbreviations that precede a number or label (``Fig. 3``, ``No. 5``,
# ``Sec. IV``, ``Fig. S2``); before an ordinary word they end a sentence
# ("He said no. It rained.").
_BEFORE_NUMBER = _wordset(
    """
    fig figs eq eqs sec secs ch chap ref refs vol vols no nos pp p tab app suppl fn ed
    """
)
# Abbreviations that often end a sentence too: they end one only before a
# frequent sentence starter. ``al`` (et al.) is in both sets; see _is_boundary.
_MAYBE_END = _wordset(
    """
    etc al inc ltd co corp jr sr st jan feb mar apr jun jul aug sep sept oct nov dec
    """
)
# Frequent sentence starters (after Punkt's collocation heuristic): capitalised
# words that, after an ambiguous abbreviation, signal a new sentence.
_STARTERS = _wordset(
    """
    the this that these those there then thus therefore here hence it its in on at for from as
    by with without we our they their he she his her i a an and but or so yet however moreover
    furthermore although though while when where whereas after before since if because also both
    each all most many some no not one to other such finally first second third overall together
    further additionally similarly consequently nevertheless nonetheless instead indeed despite
    during among using of what who how why which you your
    """
)

_ENDER = re.compile(r"(?:[.!?…]+|[。！？]+)[\"'”’»)\]]*")
_DOTTED_ACRONYM = re.compile(r"(?:[a-z]{1,2}\.)+[a-z]{1,2}")
_WORD = re.compile(r"\w+", re.UNICODE)
_CJK_ENDERS = frozenset("。！？")
_OPENERS = "\"'“‘«([¿¡"
_TERMINAL = tuple(".!?…:;。！？\"'”’)")

_LIST_ITEM = re.compile(
    # "(iv)", "a)", "ii)"; not "RDP)", the end of a parenthesis a line break split off.
    r"[ \t]*(?:[-*•·‣◦▪●○–—+]|\d{1,3}[.)]|\([a-zA-Z0-9]{1,4}\)"
    r"|(?:[a-zA-Z]|[ivx]{1,4}|[IVX]{1,4}|\d{1,2}[a-z])\)|[a-z][.)])\s"
)
# An ATX heading line's marker ("## "), as Markdown writes it.
MD_HEADING = re.compile(r"[ \t]*#{1,6}(?:\s|$)")
_LIST_MARKER = re.compile(r"\d{1,3}(?:\.\d{1,3})*|[a-zA-Z]|[ivxIVX]{1,4}")
_NUMBERED_HEADING = re.compile(r"[ \t]*\d+(?:\.\d+)*\.?[ \t]+\S")
# A sentence ending inside the line (a word of prose or a closing bracket or
# quote, a period, then a capital): a wrapped line of running text whose words
# happen to be capitalised ('Authentication" [43] . Unlike'), never a heading.
# Not ")": "Section 3(a). Scope" is a heading.
_SENTENCE_END_INSIDE = re.compile(r"(?:[a-z]{2}|[\]\"”’]\s?)(?P<mark>[.!?])[\"”’]?\s+[A-Z]")
# A quote opened and not closed on the line; not an inch mark ('19" Rack').
_OPEN_QUOTE = re.compile(r'(?:^|\s)["“][^"”]*$')
_LOWER_OK = _wordset(
    """
    a an and as at by for from in into of on or the to with vs via over under per
    """
)


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Return the sentences of ``text[start:end]`` as ``(start, end)`` offsets into ``text``.

    Offsets are Unicode code points, end exclusive. Spans are in order,
    non-overlapping, stripped of surrounding whitespace, never empty, and
    cover every non-whitespace character of the range. Raises ``ValueError``
    when the range is not within ``text``.
    """
    stop = len(text) if end is None else end
    if not 0 <= start <= stop <= len(text):
        raise ValueError(f"range {start}:{end} is not within a text of length {len(text)}")
    spans: list[tuple[int, int]] = []
    for block_start, block_end in _blocks(text, start, stop):
        cut = block_start
        for match in _ENDER.finditer(text, block_start, block_end):
            if _is_boundary(text, match.start(), match.end(), block_start, block_end):
                _append_stripped(text, cut, match.end(), spans)
                cut = match.end()
        _append_stripped(text, cut, block_end, spans)
    return spans


def _append_stripped(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        out.append((start, end))


# -- pass 1: lines into blocks ----------------------------------------------


def _lines(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    """Line ranges of ``text[start:stop]``, split on ``\\n``, ``\\r`` and other line breaks."""
    lines: list[tuple[int, int]] = []
    line_start = start
    for i in range(start, stop):
        if text[i] in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029":
            lines.append((line_start, i))
            line_start = i + 1
    lines.append((line_start, stop))
    return lines


def _blocks(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    blocks: list[tuple[int, int]] = []
    block_start: int | None = None
    previous: str | None = None
    for line_start, line_end in _lines(text, start, stop):
        line = text[line_start:line_end]
        if not line.strip():
            if block_start is not None:
                blocks.append((block_start, line_start))
            block_start, previous = None, None
            continue
        if block_start is None:
            block_start = line_start
        elif previous is not None and _breaks_between(previous, line):
            blocks.append((block_start, line_start))
            block_start = line_start
        previous = line
    if block_start is not None:
        blocks.append((block_start, stop))
    return blocks


def _breaks_between(previous: str, line: str) -> bool:
    """True when a single line break between these two lines ends a sentence."""
    if _LIST_ITEM.match(line) or MD_HEADING.match(line) or MD_HEADING.match(previous):
        return True
    if previous.rstrip().endswith(_TERMINAL) and _looks_like_heading(line):
        return True
    return _looks_like_heading(previous) and _starts_upper(line)


def _looks_like_heading(line: str) -> bool:
    stripped = line.strip()
    if len(stripped) > 80 or stripped.endswith(_TERMINAL) or stripped.endswith(","):
        return False
    if _NUMBERED_HEADING.match(stripped) and len(stripped) <= 60:
        return True
    if _OPEN_QUOTE.search(stripped):
        # A title quoted across a line break: 'Overell, "Augmented BNF for' goes on.
        return False
    words = _WORD.findall(stripped)
    if not words or len(words) > 10:
        return False
    # Title Case or ALL CAPS: every word but short function words starts upper.
    capitalised = all(w[0].isupper() or w[0].isdigit() or w.lower() in _LOWER_OK for w in words)
    return capitalised and not _ends_sentence_inside(stripped)


def _ends_sentence_inside(line: str) -> bool:
    for match in _SENTENCE_END_INSIDE.finditer(line):
        token = _token_before(line, match.start("mark")).lower()
        # "Prof. Jones Lecture Notes", "Acme Corp. Annual Report": an abbreviation's
        # period ends no sentence.
        if token not in _NEVER_END and token not in _MAYBE_END and token not in _BEFORE_NUMBER:
            return True
    return False


def _starts_upper(line: str) -> bool:
    for ch in line.lstrip():
        if ch.isalpha():
            return ch.isupper()
        if ch.isdigit():
            return True
        if ch not in _OPENERS:
            return False
    return False


# -- pass 2: blocks into sentences ------------------------------------------


def _is_boundary(
    text: str, ender_start: int, ender_end: int, block_start: int, block_end: int
) -> bool:
    marks = text[ender_start:ender_end]
    if marks[0] in _CJK_ENDERS:
        return True
    if ender_end >= block_end:
        return False  # the block ends here anyway
    if not text[ender_end].isspace():
        return False  # 3.5, 4.2.1, U.S.-based, "e.g.,"
    next_word = _next_word(text, ender_end, block_end)
    if not next_word:
        return True
    first = next_word[0]
    if first.isalpha() and first.islower():
        return False  # "e.g. the", "Smith et al. found", "... and so on"
    if marks[0] != ".":
        return True
    # Multi-dot runs like "..." are ellipses; an ellipsis before a capital ends a sentence.
    if len(marks.rstrip("\"'”’»)]")) > 1:
        return True
    before = _token_before(text, ender_start)
    token = before.lower()
    if _LIST_MARKER.fullmatch(text[block_start:ender_start].strip()):
        return False  # "1. First item", "a. Second item" at the start of a block
    starter = next_word.lower() in _STARTERS
    if token in _MAYBE_END:
        return starter
    if token in _NEVER_END:
        return False
    if len(before) == 1 and before.isupper():
        # An initial, not "p." (page): "Ed. and P. Overell, ..." in a reference list.
        return starter
    if token in _BEFORE_NUMBER:
        return not (next_word[0].isdigit() or (len(next_word) <= 3 and next_word.isupper()))
    if _DOTTED_ACRONYM.fullmatch(token) or (len(token) == 1 and token.isalpha()):
        return starter  # "U.S. Army" vs "in the U.S. The", "J. Smith" vs "vitamin C. The"
    return True


def _token_before(text: str, period: int) -> str:
    """The word the period closes: ``"(e.g"`` → ``"e.g"``, ``"Fig"`` → ``"Fig"``."""
    i = period
    while i > 0 and not text[i - 1].isspace():
        i -= 1
    return text[i:period].lstrip(_OPENERS)


def _next_word(text: str, start: int, stop: int) -> str:
    i = start
    while i < stop and (text[i].isspace() or text[i] in _OPENERS):
        i += 1
    match = _WORD.match(text, i, stop)
    if match:
        return match.group()
    return text[i:stop][:1]
