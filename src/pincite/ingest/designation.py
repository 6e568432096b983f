"""The designation a document gives itself on its cover ("RFC 2616", "NIST SP 800-46 Revision 2").

Users name documents by their number ("Does RFC 2616 ...", "In SP 800-46
Revision 2, ..."), and search and the answerer read a document's title for
such names. A file's declared title often lacks it: a PDF's metadata gives
the long title alone, an RFC's centred title line holds no "RFC". So a
designation the opening text states is put in front of a title that does not
already hold its number. Only series whose cover pages name them in a fixed
form are read; anything else leaves the title as it is.
"""

from __future__ import annotations

import re

from pincite.revisions import spell_revisions

__all__ = ["designation", "with_designation"]

# The cover page and the header block: designations stated further in are
# citations of other documents, not the document's own name.
_OPENING = 1500

# Each stands as a cover page or an RFC's header block sets it: at the start
# of a line, and (but for the RFC header's label, which authors follow) at
# its end, the revision allowed on the next line. A table row, or a sentence
# that cites another document and wraps there, names none.
_END = r"(?![\w-])[ \t]*$"
_RFC = re.compile(r"^Request for Comments:[ \t]*(\d{1,5})\b", re.M)
_NIST_SP = re.compile(
    r"^[ \t]*(?:NIST\s+)?Special\s+Publication\s+(\d{3,4}-\d{1,4}(?:-\d{1,2})?[A-Z]?)"
    rf"(?:{_END}\s+Revision\s+(\d{{1,2}}))?{_END}",
    re.M,
)
_FIPS = re.compile(rf"^[ \t]*FIPS\s+PUB(?:LICATION)?\s+(\d{{2,3}}(?:-\d)?){_END}", re.M)


def designation(text: str) -> str | None:
    """The document's own designation, read from the opening of its text, or ``None``.

    Of several, the first one the text states.
    """
    opening = text[:_OPENING]
    found: list[tuple[int, str]] = []
    if m := _RFC.search(opening):
        found.append((m.start(), f"RFC {m.group(1)}"))
    if m := _NIST_SP.search(opening):
        number = f"NIST SP {m.group(1)}"
        found.append((m.start(), f"{number} Revision {m.group(2)}" if m.group(2) else number))
    if m := _FIPS.search(opening):
        found.append((m.start(), f"FIPS {m.group(1)}"))
    return min(found)[1] if found else None


def with_designation(title: str | None, text: str) -> str | None:
    """``title`` led by the designation ``text`` opens with, unless the title already holds it.

    A title holds a designation when it names its number (and its revision,
    if any) as whole words: "NIST SP 800-46 Revision 1, Guide ..." is kept.
    """
    named = designation(text)
    if named is None or not title or not title.strip():
        return title
    # "RFC 2616" -> ["2616"]; "NIST SP 800-46 Revision 2" -> ["800-46", "Revision 2"].
    parts = re.findall(r"\d[\w-]*|Revision \d+", named)
    # "RFC2616" and "Rev. 2" hold the number too.
    folded = spell_revisions(" ".join(title.casefold().split()))
    folded = re.sub(r"(?<=[a-z])(?=\d)", " ", folded)
    if all(re.search(rf"(?<![\w-]){re.escape(p.casefold())}(?![\w-])", folded) for p in parts):
        return title
    return f"{named}, {title}"
