"""A tenant's answer threshold, picked on its own questions and kept in the store.

The extractive answerer refuses below a score threshold, and the right value
depends on the documents: ``pincite eval qa DEV.jsonl --save-threshold`` picks
it on a dev split (``qa_metrics.refusal_threshold``) and saves it here, so
every later answer for that tenant (``ask``, ``chat``, ``serve``, ``mcp``,
``Corpus.ask``) uses it without a flag. What wins, first to last:
an explicit threshold (``--answer-threshold``, ``PINCITE_ANSWER_THRESHOLD``,
``make_generator(threshold=...)``), the saved one, the shipped one.

A saved threshold belongs to the scores of the embedder it was picked with
(lexical-only scores sit on another scale), so it applies only while answers
are scored with that same embedder. It lives in the store's ``meta`` table
under one key per tenant; no schema change, and no tenant reads another's.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version

from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError
from pincite.generate.base import Generator
from pincite.generate.extractive import SCORES, ExtractiveGenerator
from pincite.store.base import Store
from pincite.tenancy import check_tenant

__all__ = [
    "SavedThreshold",
    "calibrated",
    "clear_threshold",
    "running_version",
    "save_threshold",
    "saved_threshold",
]

_KEY = "answer_threshold:"
# What an embedder-less answerer is recorded as (as the store records a lexical index).
LEXICAL = "none"


@dataclass(frozen=True, slots=True)
class SavedThreshold:
    """A saved threshold and where it came from."""

    threshold: float
    embedder: str  # the embedder the scores were computed with, or "none"
    source: str = ""  # the question file it was picked on
    answerable: int = 0
    unanswerable: int = 0
    saved_at: str = ""
    # The pincite that scored the questions: another version may score otherwise.
    scored_by: str = ""
    k: int | None = None  # passages per question it was picked with

    def applies_to(self, embedder: Embedder | None) -> bool:
        return self.embedder == _embedder_name(embedder)

    def describe(self) -> str:
        if self.answerable or self.unanswerable:
            how = (
                f"picked on {self.source or 'questions'} ({self.answerable} answerable, "
                f"{self.unanswerable} unanswerable)"
            )
        else:
            how = f"set by {self.source}" if self.source else "set"
        when = f", saved {self.saved_at[:10]}" if self.saved_at else ""
        by = f" by pincite {self.scored_by}" if self.scored_by else ""
        return f"{self.threshold:g}, {how}, for embedder {self.embedder}{when}{by}"

    @property
    def stale(self) -> bool:
        """True when it was picked on other answer scores than this pincite's (another
        revision of the scores, or another release): its scores may have moved since."""
        if not self.scored_by:
            return False
        release, _, scores = self.scored_by.partition(_SCORES_MARK)
        running_release, _, running_scores = running_version().partition(_SCORES_MARK)
        if scores != running_scores:
            return True
        # A source tree run without installing knows no release, only its scores.
        return bool(release and running_release) and release != running_release


# Between the release and the scores' revision in ``scored_by``: "0.1.0+scores.2026-12-07".
_SCORES_MARK = "+scores."


def running_version() -> str:
    """This pincite and the revision of its answer scores (``extractive.SCORES``): the
    scores move between releases, and a threshold picked on older ones is stale. A
    source tree run without installing has no release: "+scores.2026-12-07"."""
    try:
        release = version("pincite")
    except PackageNotFoundError:
        release = ""
    return f"{release}{_SCORES_MARK}{SCORES}"


def _embedder_name(embedder: Embedder | None) -> str:
    return LEXICAL if embedder is None else embedder.name


def _checked(value: float) -> float:
    if not math.isfinite(value):
        raise ConfigurationError(f"the answer threshold must be a number, got {value}")
    return float(value)


def save_threshold(
    store: Store,
    tenant: str,
    threshold: float,
    embedder: Embedder | None,
    *,
    source: str = "",
    answerable: int = 0,
    unanswerable: int = 0,
    k: int | None = None,
) -> SavedThreshold:
    """Keep ``threshold`` as ``tenant``'s answer threshold for scores made with ``embedder``."""
    check_tenant(tenant)
    saved = SavedThreshold(
        threshold=_checked(threshold),
        embedder=_embedder_name(embedder),
        source=source,
        answerable=answerable,
        unanswerable=unanswerable,
        saved_at=datetime.now(UTC).isoformat(timespec="seconds"),
        scored_by=running_version(),
        k=k,
    )
    store.set_meta(_KEY + tenant, json.dumps(asdict(saved), sort_keys=True))
    return saved


def saved_threshold(store: Store, tenant: str) -> SavedThreshold | None:
    """``tenant``'s saved threshold, or None. A value that does not parse is an error, not None."""
    check_tenant(tenant)
    raw = store.get_meta(_KEY + tenant)
    if not raw:  # never saved, or cleared
        return None
    try:
        data = json.loads(raw)
        # Fields a later pincite may add are left out, not an error.
        known = {f.name for f in fields(SavedThreshold)}
        saved = SavedThreshold(**{k: v for k, v in data.items() if k in known})
        if isinstance(saved.threshold, bool) or not isinstance(saved.threshold, int | float):
            raise ValueError(f"threshold {saved.threshold!r} is no number")
        _checked(saved.threshold)
    except (ValueError, TypeError, AttributeError) as exc:
        # Fail closed: a threshold silently dropped would change every answer.
        raise ConfigurationError(
            f"the saved answer threshold of tenant {tenant!r} is unreadable ({exc}); "
            f"set it again with `pincite threshold --set VALUE --tenant {tenant}` "
            f"or remove it with `pincite threshold --clear --tenant {tenant}`"
        ) from exc
    return saved


def clear_threshold(store: Store, tenant: str) -> bool:
    """Forget ``tenant``'s saved threshold; True if there was one."""
    check_tenant(tenant)
    had = bool(store.get_meta(_KEY + tenant))
    if had:
        # The store has no delete for meta keys; an empty value reads as none.
        store.set_meta(_KEY + tenant, "")
    return had


def calibrated(generator: Generator, store: Store, tenant: str) -> Generator:
    """``generator`` with ``tenant``'s saved threshold, where it has none set explicitly.

    Only the extractive generator has a threshold, and only a saved one that
    was picked with the embedder it scores with applies.
    """
    if not isinstance(generator, ExtractiveGenerator) or generator.threshold_pinned:
        return generator
    saved = saved_threshold(store, tenant)
    if saved is None or not saved.applies_to(generator.embedder):
        return generator
    return generator.with_threshold(saved.threshold)
