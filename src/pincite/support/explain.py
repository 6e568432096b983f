"""The reasons a support verdict gives, in words a reader can check."""

from __future__ import annotations

from pincite.support import features as f
from pincite.support.scoring import FEATURES, Analysis

__all__ = ["explain"]


def explain(claim: str, analysis: Analysis, x: list[float], shown: list[int]) -> tuple[str, ...]:
    """Why the checker judged as it did, in words: coverage, what is missing, conflicts.

    ``x`` is the feature vector (``scoring.FEATURES``) and ``shown`` the
    sentences the verdict rests on.
    """
    values = dict(zip(FEATURES, x, strict=True))
    reasons = [f"the closest sentences cover {values['cov_set']:.0%} of the claim's content words"]
    covered = analysis.terms_of(shown)
    missing = []
    for word in f.words(claim):
        terms = f.content_terms(word)
        if (
            any(c.isdigit() for c in word)
            or word in ("thousand", "million", "billion", "trillion")
            or all(t.startswith("#") for t in terms)
        ):
            continue  # numbers ("1,200", "2nd", "ten") are listed whole below
        if not terms & covered and word not in missing:
            missing.append(word)
    # The same test the number features use, so this never contradicts the verdict.
    stated = {q for i in shown for q in analysis.sentences[i].numbers}
    for value in sorted({v for v, _ in f.missing_numbers(analysis.claim_numbers, stated)}):
        missing.append(_show_number(value))
    if missing:
        reasons.append("not in the cited text: " + ", ".join(missing[:6]))
    if values["num_conflict"]:
        reasons.append("the closest sentence states different numbers than the claim")
    if values["negation"]:
        reasons.append("the claim and the closest sentence disagree on negation")
    if values["polarity"]:
        reasons.append("the claim and the closest sentence point in opposite directions")
    if values["antonym"]:
        reasons.append("the closest sentence says the opposite of a word of the claim")
    if values["scope"]:
        reasons.append("the claim widens what the closest sentence limits (or the reverse)")
    if values["counterpart"]:
        reasons.append("the closest sentence gives what the claim says to the other party")
    elif values["role"]:
        reasons.append("the closest sentence names someone else doing what the claim says")
    return tuple(reasons)


def _show_number(value: float) -> str:
    if not value.is_integer():
        return f"{value:g}"
    return f"{int(value):,}" if value >= 10_000 else str(int(value))  # 1993, 1,200, 25,000
