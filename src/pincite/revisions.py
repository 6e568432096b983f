"""How a document's revision is spelled, read alike in titles and in questions.

People write "Rev. 2" and "rev 2" for the "Revision 2" most titles spell out;
the ingest side (does a title already hold its designation?) and the answer
side (does a question name this document?) compare names in one spelling.
"""

from __future__ import annotations

import re

__all__ = ["spell_revisions"]

_REVISION = re.compile(r"\brev\b\.?")


def spell_revisions(folded: str) -> str:
    """``folded`` (case-folded) with "rev." spelled "revision"."""
    return _REVISION.sub("revision", folded)
