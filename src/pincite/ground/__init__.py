"""Pure citation checks: cite, check_grounding, check_citations, fetch, resolve, re-anchor.

No orchestration (:mod:`pincite.answer`) and no presentation (:mod:`pincite.present`).
"""
