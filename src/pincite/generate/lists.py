"""Lists in a passage: the items under a lead-in or heading, as a list question wants them.

Items are bulleted or numbered lines, statements set on lines of their own
under a lead-in that announces them, term labels with their first sentence,
or short sibling headings each over its paragraph ("CONFIDENTIALITY" /
"INTEGRITY" / "AVAILABILITY"); a list is followed into the next chunk when a
chunk boundary cuts it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pincite.generate.base import Passage
from pincite.generate.faq import restates, turned_round
from pincite.generate.layout import TITLES, Role, Unit
from pincite.generate.pool import Piece, Pool, adjacent, ends_sentence
from pincite.generate.question import Question, QuestionKind
from pincite.generate.words import content_stems

__all__ = ["items_after", "list_items", "run"]

_ITEM_HEADING_WORDS = 4
# What names a procedure's task over its steps: a heading ("Resetting your
# password"), or a lead-in ("To start a return:") read with the heading above it.
_TASK_TITLES = frozenset({Role.HEADING, Role.LEADIN})
_NUMBERED = re.compile(r"\s*(?:\d|[A-Z]\.\d)")
# A fenced code block opening on the line after a lead-in ("```bash").
_FENCE = re.compile(r"[ \t]*\n(?:[ \t]*\n)?[ \t]*(```|~~~)[^\n`]*\n")
_ANY_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.M)
_CODE_LINES = 40  # longer than any command a runbook's lead-in introduces
# An entry of a definition list: "Confidential\n: Customer data ..." (Markdown's, and
# how HTML's <dt>/<dd> is read).
_ENTRY = re.compile(r"[^\n:]{1,80}\n[ \t]*:[ \t]")


# A lead-in that only names someone ("The incident commander:", "Owners:"): the
# duties of a role, not a task's steps. Named by the role's own noun, so that
# "To deploy:", "Setup instructions:" or "Windows users:" are still a task's.
_BARE_LABEL = re.compile(
    r"\s*(?:the\s+|an?\s+|each\s+|every\s+)?(?:[\w-]+\s+)?"
    r"(?:commander|lead|owner|manager|reviewer|approver|responder|officer|coordinator|"
    r"scribe|sponsor|on-call|engineer|administrator|admin)s?\s*:\s*$",
    re.I,
)


def list_items(
    question: Question, passages: Sequence[Passage], term_match: float, limit: int
) -> tuple[float, list[tuple[Piece, ...]]]:
    """The items under the lead-in or heading that names what a list question asks for.

    Returns the lead-in's match with the question's focus and the items (each a
    label with its first sentence, or a list item), following the list into the
    next chunk when the lead-in ends its passage.
    """
    # "How do I reset my password?" under "Resetting your password" and its steps:
    # a procedure's focus is its task, all its words.
    procedure = question.kind is QuestionKind.PROCEDURE
    focus = question.stems if procedure else question.focus
    if not (question.kind is QuestionKind.LIST or procedure):
        return _under_asked_heading(question, passages, limit)
    if not focus:
        return 0.0, []
    pool = Pool(question, passages)
    best: tuple[float, list[tuple[Piece, ...]]] = (0.0, [])
    # Lead-ins naming the focus alike ("Factors ... when setting telework policy",
    # "Major factors ... where to place a server") are told apart by the rest of the question.
    best_rest = -1.0
    for p in pool.passages:
        units = pool.units[p.number]
        for i, u in enumerate(units):
            if u.role not in TITLES or u.role is Role.LABEL:
                continue
            if procedure and u.role not in _TASK_TITLES:
                continue
            title = p.text[u.start : u.end]
            if _acronym_entry(title):
                continue  # "OS Operating System" opens no list of operating systems
            if turned_round(title, question.text, set(question.stems)):
                continue  # "Which expenses are reimbursed?" is not "## What is not reimbursed"
            title_stems = set(content_stems(title))
            if procedure and u.role is Role.LEADIN:
                # "To start a return:" under "Returning an item": the heading names the
                # task with it; "To track a delivery:" under it names another task,
                # and "The incident commander:" someone's duties.
                if not title_stems & set(focus) or _BARE_LABEL.match(title):
                    continue
                title_stems |= set(content_stems(u.title))
            if (
                question.head
                and not procedure
                and question.head in pool.present
                and question.head not in title_stems
            ):
                # "Appendix A. HTTP Version History" names HTTP, not the methods a
                # question about HTTP methods wants listed.
                continue
            m = pool.match(focus, title_stems)
            if m < term_match or m < best[0]:
                continue
            rest = pool.match(question.stems, title_stems | _said_before(p, units, i))
            if m == best[0] and rest <= best_rest:
                continue
            # A heading announces no list: under it, each paragraph of unwrapped
            # text (Markdown, a paper's section) opens a line of its own, so only
            # bullets, labels and item headings are its items.
            items = items_after(p, units, i + 1, pool, limit, lines=u.role is not Role.HEADING)
            if procedure and not all(_is_step(p, units, piece) for piece in items):
                continue  # a procedure's answer is its steps, not any lines under its heading
            if len(items) >= 2:
                best, best_rest = (m, items), rest
    return best


def _under_asked_heading(
    question: Question, passages: Sequence[Passage], limit: int
) -> tuple[float, list[tuple[Piece, ...]]]:
    """The bullets under a heading that asks the question itself ("## What is not
    reimbursed" over its list): a handbook's FAQ answers with all of them.

    The heading must be worded as a question, hold every word the question holds
    and no more than one other, and not be the question turned round; its
    bullets must follow it, in its passage or at the start of the next. The
    match is 1.0 when found.
    """
    asked = set(question.stems)
    # Read the passages' layout only when some line could be such a heading: most
    # questions meet none, and this runs for every question.
    if not asked or not any(
        restates(line, question.text, asked) for p in passages for line in p.text.splitlines()
    ):
        return 0.0, []
    pool = Pool(question, passages)
    for p in pool.passages:
        units = pool.units[p.number]
        for i, u in enumerate(units):
            if u.role is not Role.HEADING:
                continue
            title = p.text[u.start : u.end]
            if not restates(title, question.text, asked):
                continue
            if turned_round(title, question.text, asked):
                continue
            if not _opens_with_item(p, units, i + 1, pool):
                continue  # its answer opens with a sentence, which any question can find
            items = items_after(p, units, i + 1, pool, limit, lines=False)
            if len(items) >= 2:
                return 1.0, items
    return 0.0, []


def _opens_with_item(p: Passage, units: list[Unit], i: int, pool: Pool) -> bool:
    """True when ``units[i]`` is a list item, or the next chunk opens with one when ``p`` ends."""
    if i < len(units):
        return units[i].role is Role.ITEM
    nxt = adjacent(p, pool.passages)
    return (
        nxt is not None
        and bool(pool.units[nxt.number])
        and (pool.units[nxt.number][0].role is Role.ITEM)
    )


def _said_before(p: Passage, units: list[Unit], i: int) -> set[str]:
    """The words of the statement a lead-in follows in its paragraph ("Each organization
    should decide what levels of remote access ... Factors ... include the following:")."""
    if i == 0 or units[i - 1].role is not Role.STATEMENT:
        return set()
    before = units[i - 1]
    if "\n\n" in p.text[before.end : units[i].start]:
        return set()
    return set(content_stems(p.text[before.start : before.end]))


def _acronym_entry(title: str) -> bool:
    """True for a line of an acronym table: "OS Operating System", "PII Personally ..."."""
    words = title.split()
    if len(words) < 2 or sum(c.isupper() for c in words[0]) < 2 or not words[0].isalpha():
        return False
    initials = "".join(w[0] for w in words[1:] if w[:1].isupper())
    return (
        initials.startswith(words[0][0]) and len(initials) >= sum(c.isupper() for c in words[0]) - 1
    )


def _entry(p: Passage, start: int, end: int, pool: Pool) -> tuple[Piece, ...]:
    """A list entry, continued into the next chunk when a chunk boundary cuts its sentence."""
    units = pool.units[p.number]
    if units and end == units[-1].end and not ends_sentence(p.text[start:end]):
        nxt = adjacent(p, pool.passages)
        if nxt is not None and pool.units[nxt.number]:
            first = pool.units[nxt.number][0]
            if nxt.text[first.start : first.start + 1].islower():
                return ((p, start, end), (nxt, first.start, first.end))
    return ((p, start, end),)


def _new_paragraph(text: str, units: list[Unit], i: int, item_indent: int) -> bool:
    """True for a unit that opens a paragraph in upper case, after a blank line, indented
    no deeper than the items ("- Laptops.\n\n  They must be encrypted." is the item's own;
    RFC text indents its paragraphs and its items alike)."""
    u = units[i]
    gap = text[units[i - 1].end : u.start] if i > 0 else ""
    blank = "\n\n" in gap.replace(" ", "").replace("\t", "")
    return blank and text[u.start : u.start + 1].isupper() and _indent(text, u.start) <= item_indent


def _indent(text: str, start: int) -> int:
    """How far ``text[start]`` sits from its line's start (spaces and tabs only)."""
    line = text.rfind("\n", 0, start) + 1
    before = text[line:start]
    return len(before.expandtabs(4)) if not before.strip() else 0


def _own_line(text: str, u: Unit, units: list[Unit], i: int) -> bool:
    """True for a statement that opens a line, as list items without bullets do, unless
    its paragraph leads into items of its own."""
    before = text[: u.start].rstrip(" \t")
    if text[u.start : u.start + 1].islower():
        return False  # the rest of a sentence the previous chunk began
    if before and not before.endswith("\n"):
        return False
    # "EXAMPLE 2: ... is moderate. The resulting security category ... is expressed
    # as:": a paragraph that leads into items of its own is the next entry, not an item.
    end = u.end
    for nxt in units[i + 1 :]:
        if "\n\n" in text[end : nxt.start]:
            break
        if nxt.role is Role.LEADIN:
            return False
        end = nxt.end
    return True


def _heading_shape(text: str) -> tuple[bool, bool]:
    """(all capitals, a single line): what sibling headings of one list share."""
    letters = [c for c in text if c.isalpha()]
    return (bool(letters) and all(c.isupper() for c in letters), "\n" not in text.strip())


def _item_heading(text: str, u: Unit, shape: tuple[bool, bool] | None) -> bool:
    """True for a short unnumbered heading shaped like the list's earlier heading items."""
    heading = text[u.start : u.end]
    words = heading.split()
    if not words or len(words) > _ITEM_HEADING_WORDS or _NUMBERED.match(heading):
        return False
    return shape is None or _heading_shape(heading) == shape


def items_after(
    p: Passage, units: list[Unit], i: int, pool: Pool, limit: int, *, lines: bool = True
) -> list[tuple[Piece, ...]]:
    """The entries of the list whose first unit is ``units[i]``; with ``lines`` False,
    statements that open a line of their own are no entries."""
    items: list[tuple[Piece, ...]] = []
    seen: set[int] = {p.number}
    # The shape of the short headings that are this list's items, once one is found.
    shape: tuple[bool, bool] | None = None
    item_indent: int | None = None  # the outermost bulleted item's, once there is one
    opened = False  # item_indent comes from a passage's first line only
    # Also when the table opens the next chunk.
    after_leadin = i > 0 and units[i - 1].role is Role.LEADIN
    while len(items) < limit:
        if i >= len(units):
            nxt = adjacent(p, pool.passages)
            if nxt is None or nxt.number in seen:
                break
            p, units, i = nxt, pool.units[nxt.number], 0
            seen.add(p.number)
            continue
        u = units[i]
        if u.row and not items and after_leadin:
            break  # the lead-in announces a table: the bullets after it are another list
        if (
            item_indent is not None
            and u.role is Role.STATEMENT
            and _new_paragraph(p.text, units, i, item_indent)
        ):
            break  # "You may claim up to £300 ..." after the bullets: the list has ended
        if u.role is Role.LABEL and i + 1 < len(units) and units[i + 1].role is Role.STATEMENT:
            items.append(_entry(p, u.start, units[i + 1].end, pool))
            i += 2
        elif u.role is Role.ITEM or (
            u.role is Role.STATEMENT
            and shape is None
            and (_ENTRY.match(p.text, u.start) or (lines and _own_line(p.text, u, units, i)))
        ):
            items.append(((p, u.start, u.end),))
            if u.role is Role.ITEM:
                # The outermost item's: a nested list's parent paragraph is no end.
                # A passage's first line lost its indent to the chunk: it counts
                # only until another item gives one.
                indent = _indent(p.text, u.start)
                if not p.text[: u.start].strip():
                    first_line = indent if item_indent is None else item_indent
                    item_indent, opened = first_line, item_indent is None
                elif item_indent is None or opened:
                    item_indent, opened = indent, False
                else:
                    item_indent = min(item_indent, indent)
            i += 1
        elif u.role is Role.HEADING and (not items or shape) and _item_heading(p.text, u, shape):
            # "CONFIDENTIALITY" / "INTEGRITY" / "AVAILABILITY", each over its own paragraph.
            shape = _heading_shape(p.text[u.start : u.end])
            body = i + 1 < len(units) and units[i + 1].role is Role.STATEMENT
            items.append(_entry(p, u.start, units[i + 1].end if body else u.end, pool))
            i += 2 if body else 1
        elif u.role in (Role.STATEMENT, Role.FOOTNOTE, Role.FURNITURE, Role.FRAGMENT) and items:
            i += 1  # the rest of an item's entry, or page furniture between items
        elif u.role in (Role.HEADING, Role.LEADIN) or (u.role is Role.STATEMENT and not items):
            break
        else:
            i += 1
    return items


def run(p: Passage, units: list[Unit], i: int, pool: Pool, limit: int) -> tuple[Piece, ...]:
    """A lead-in with the items under it, as contiguous stretches of passage text.

    "The potential impact is LOW if— − The loss of ... limited adverse
    effect": the lead-in says what the items are for, so neither answers
    alone. One stretch per passage, cut where page furniture lies inside it.
    Empty when no item follows the lead-in.
    """
    # A command block first: its fence and "# comment" lines are no list.
    code = _code_block(p.text, units[i].end)
    if code:
        return ((p, units[i].start, code),)
    items = items_after(p, units, i + 1, pool, limit)
    if not items:
        return ()
    spans: dict[int, list[int]] = {p.number: [units[i].start, units[i].end]}
    order = [p]
    for entry in items:
        for q, s, e in entry:
            if q.number not in spans:
                spans[q.number] = [s, e]
                order.append(q)
            spans[q.number][1] = max(spans[q.number][1], e)
    return tuple(
        piece
        for q in order
        for piece in _around_furniture(q, pool.units[q.number], *spans[q.number])
    )


def _code_block(text: str, end: int) -> int:
    """Where the fenced code block that opens right after ``end`` closes (0 if none).

    "Set the variables, then restart the service:" over "```bash\nsudo systemctl
    restart payments\n```": a runbook's lead-in says what its command is for.
    """
    m = _FENCE.match(text, end)
    if m is None:
        return 0
    close = re.compile(rf"^[ \t]*{re.escape(m.group(1))}[ \t]*$", re.M).search(text, m.end())
    if close is None:
        return 0
    # An unclosed block would run to some later block's opening fence.
    body = text[m.end() : close.start()]
    if body.count("\n") > _CODE_LINES or _ANY_FENCE.search(body):
        return 0
    return close.end()


def _around_furniture(p: Passage, units: list[Unit], start: int, end: int) -> list[Piece]:
    """``p.text[start:end]`` as pieces that leave out the page furniture inside it.

    A page break between two items, or inside one, leaves its running header
    and page number in the text; the claim quotes around them.
    """
    pieces: list[Piece] = []
    cuts = [u for u in units if u.role is Role.FURNITURE and start <= u.start and u.end <= end]
    starts = [start, *(u.end for u in cuts)]
    ends = [*(u.start for u in cuts), end]
    for a, b in zip(starts, ends, strict=True):
        text = p.text[a:b]
        if text.strip():
            lead = len(text) - len(text.lstrip())
            pieces.append((p, a + lead, a + len(text.rstrip())))
    return pieces


def _is_step(p: Passage, units: list[Unit], entry: tuple[Piece, ...]) -> bool:
    """True for an entry that is a list item of ``p`` (a bulleted or numbered line)."""
    (q, start, _), *_ = entry
    return q.number == p.number and any(u.role is Role.ITEM and u.start == start for u in units)
