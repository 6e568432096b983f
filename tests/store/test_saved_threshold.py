"""A tenant's saved answer threshold: kept per tenant, on SQLite and PostgreSQL alike.

``pincite eval qa --save-threshold`` keeps what a tenant's dev questions pick
in the store's meta table; these tests show it round-trips on both backends,
never reaches another tenant, fails closed when unreadable, and never
overrides a threshold set on purpose.
"""

from __future__ import annotations

import json

import pytest

from pincite.answer import calibration
from pincite.answer.calibration import (
    calibrated,
    clear_threshold,
    save_threshold,
    saved_threshold,
)
from pincite.embed.base import Embedder
from pincite.errors import ConfigurationError, InputError
from pincite.generate import make_generator
from pincite.generate.extractive import SCORES, ExtractiveConfig, ExtractiveGenerator
from pincite.store.base import Store


def test_it_round_trips_and_stays_with_its_tenant(store: Store, tenants: tuple[str, str]) -> None:
    mine, theirs = tenants
    saved = save_threshold(
        store, mine, 0.54, None, source="dev.jsonl", answerable=9, unanswerable=3
    )
    assert saved_threshold(store, mine) == saved
    assert (saved.threshold, saved.embedder, saved.source) == (0.54, "none", "dev.jsonl")
    assert saved_threshold(store, theirs) is None
    assert calibrated(ExtractiveGenerator(None), store, theirs).threshold == (
        ExtractiveGenerator(None).threshold
    )
    assert calibrated(ExtractiveGenerator(None), store, mine).threshold == 0.54


def test_clearing_forgets_it(store: Store, tenants: tuple[str, str]) -> None:
    mine, theirs = tenants
    save_threshold(store, mine, 0.5, None)
    save_threshold(store, theirs, 0.7, None)
    assert clear_threshold(store, mine) is True
    assert saved_threshold(store, mine) is None
    assert clear_threshold(store, mine) is False
    kept = saved_threshold(store, theirs)
    assert kept is not None and kept.threshold == 0.7


def test_an_unreadable_value_is_an_error_not_silently_the_shipped_one(
    store: Store, tenants: tuple[str, str]
) -> None:
    mine, _ = tenants
    store.set_meta(f"answer_threshold:{mine}", '{"threshold": "high"')
    with pytest.raises(ConfigurationError, match="--clear"):
        calibrated(ExtractiveGenerator(None), store, mine)
    for value in ["NaN", "true", '"0.5"']:
        broken = '{"threshold": ' + value + ', "embedder": "none"}'
        store.set_meta(f"answer_threshold:{mine}", broken)
        with pytest.raises(ConfigurationError, match="unreadable"):
            saved_threshold(store, mine)
    store.set_meta(f"answer_threshold:{mine}", "[0.5]")
    with pytest.raises(ConfigurationError, match="unreadable"):
        saved_threshold(store, mine)
    # The fixes the message names work on the broken value.
    save_threshold(store, mine, 0.5, None)
    assert saved_threshold(store, mine) is not None


def test_a_field_a_later_version_adds_is_left_out(store: Store, tenants: tuple[str, str]) -> None:
    mine, _ = tenants
    store.set_meta(
        f"answer_threshold:{mine}", '{"threshold": 0.5, "embedder": "none", "calibrated_on": "x"}'
    )
    saved = saved_threshold(store, mine)
    assert saved is not None and saved.threshold == 0.5


def test_a_threshold_another_version_picked_is_marked_stale(
    store: Store, tenants: tuple[str, str]
) -> None:
    mine, _ = tenants
    assert not save_threshold(store, mine, 0.5, None, k=6).stale
    store.set_meta(
        f"answer_threshold:{mine}", '{"threshold": 0.5, "embedder": "none", "scored_by": "0.0.1"}'
    )
    saved = saved_threshold(store, mine)
    assert saved is not None and saved.stale and "pincite 0.0.1" in saved.describe()


def test_a_threshold_picked_on_older_scores_of_this_version_is_marked_stale(
    store: Store, tenants: tuple[str, str]
) -> None:
    # The answer scores move between releases (the evidence a threshold is compared
    # with took the passage's retrieval rank in on 2026-12-07, still 0.1.0).
    mine, _ = tenants
    fresh = save_threshold(store, mine, 0.5, None, k=6)
    assert fresh.scored_by.endswith(f"+scores.{SCORES}") and not fresh.stale
    release = fresh.scored_by.split("+")[0]
    store.set_meta(
        f"answer_threshold:{mine}",
        json.dumps({"threshold": 0.5, "embedder": "none", "scored_by": release}),
    )
    saved = saved_threshold(store, mine)
    assert saved is not None and saved.stale


def test_a_source_tree_knows_no_release_but_still_compares_scores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Run without installing, pincite knows its scores' revision, not its release.
    def uninstalled(name: str) -> str:
        raise calibration.PackageNotFoundError(name)

    monkeypatch.setattr(calibration, "version", uninstalled)
    assert calibration.running_version() == f"+scores.{SCORES}"
    record = calibration.SavedThreshold(0.5, "none", scored_by=f"0.1.0+scores.{SCORES}")
    assert not record.stale
    assert calibration.SavedThreshold(0.5, "none", scored_by="0.1.0").stale
    assert calibration.SavedThreshold(0.5, "none", scored_by="+scores.2000-01-01").stale
    assert not calibration.SavedThreshold(0.5, "none").stale


@pytest.mark.parametrize("tenant", ["", " padded", "tab\there"])
def test_a_malformed_tenant_is_refused(store: Store, tenant: str) -> None:
    with pytest.raises(InputError):
        save_threshold(store, tenant, 0.5, None)
    with pytest.raises(InputError):
        saved_threshold(store, tenant)


def test_it_applies_only_to_scores_of_the_embedder_it_was_picked_with(
    store: Store, tenants: tuple[str, str], embedder: Embedder
) -> None:
    mine, _ = tenants
    save_threshold(store, mine, 0.33, embedder)
    # The same store answered without vectors scores on another scale.
    lexical = ExtractiveGenerator(None)
    assert calibrated(lexical, store, mine) is lexical
    assert calibrated(ExtractiveGenerator(embedder), store, mine).threshold == 0.33


def test_a_threshold_set_on_purpose_wins(store: Store, tenants: tuple[str, str]) -> None:
    mine, _ = tenants
    save_threshold(store, mine, 0.9, None)
    # Even when it equals the shipped value: the flag was given, so it is kept.
    shipped = ExtractiveGenerator(None).threshold
    flagged = make_generator("extractive", threshold=shipped)
    assert calibrated(flagged, store, mine).threshold == shipped
    with_config = ExtractiveGenerator(None, ExtractiveConfig(threshold_lexical=0.2))
    assert calibrated(with_config, store, mine).threshold == 0.2
    # A model generator has no threshold to replace (a test double: no endpoint is called).
    model = make_generator("openai", base_url="http://127.0.0.1:9/v1", model="m", api_key="k")
    assert calibrated(model, store, mine) is model
