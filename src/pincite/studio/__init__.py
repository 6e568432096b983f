"""Studio actions on one document: summary, FAQ, key terms, contract breakdown.

Each action returns a typed :class:`StudioResult` whose every item is made of
sentences of the document's current version, cited as exact ``ev1:s:`` spans,
and the result passes the checks a chat answer passes (``check_grounding``
against the document's own chunks, then the support checker, failing closed)
before it is returned. The offline actions are extractive and deterministic:

- ``summary``: the most central sentence of each of the largest sections
  (centrality = idf-weighted overlap with the section's own vocabulary);
- ``faq``: a question from each section heading, answered by that section's
  most central sentence;
- ``key_terms``: definition sentences ("X means ...", "X is a ...",
  "X: ..."), the term as the label;
- ``pros_cons``: sentences that argue one way only (benefit words without
  risk words, or the reverse), labelled ``pro`` or ``con``;
- ``contract``: sentences naming parties, obligations, dates, amounts and
  termination, each labelled with what it is.

A legal-adjacent action gets :data:`LEGAL_DISCLAIMER`, appended by this code
after validation, never written by a model.
"""

from pincite.studio.run import run_studio
from pincite.studio.types import LEGAL_DISCLAIMER, StudioAction, StudioItem, StudioResult

__all__ = ["LEGAL_DISCLAIMER", "StudioAction", "StudioItem", "StudioResult", "run_studio"]
