from __future__ import annotations

from support_fakes import FakeEmbedder, passage

from pincite.ids import SpanRef, decode
from pincite.support.base import SupportVerdict
from pincite.support.baseline import LexicalOverlapChecker
from pincite.support.heuristic import HeuristicSupportChecker
from pincite.support.scoring import FEATURES

SONG = (
    "Title: Should've Been a Cowboy\n\n\"Should've Been a Cowboy\" is a song written and recorded "
    "by American country music artist Toby Keith. It was released on February 8, 1993 as his debut "
    "single. On June 5, 1993, the song reached number one on the US Billboard Hot Country "
    "Songs chart."
)


def _texts(text: str, ids: tuple[str, ...], start: int = 0) -> list[str]:
    out = []
    for sid in ids:
        ref = decode(sid)
        assert isinstance(ref, SpanRef)
        out.append(text[ref.start - start : ref.end - start])
    return out


def test_supported_claim_is_narrowed_to_the_sentence_that_carries_it(
    fake_embedder: FakeEmbedder,
) -> None:
    checker = HeuristicSupportChecker(fake_embedder)
    result = checker.check(
        "Toby Keith released Should've Been a Cowboy in 1993.", [passage(SONG, start=50)]
    )
    assert result.verdict is SupportVerdict.SUPPORTED
    assert 0.0 <= result.score <= 1.0
    texts = _texts(SONG, result.sentence_ids, start=50)
    assert any("released on February 8, 1993" in t for t in texts)
    assert (
        len(result.per_passage) == 1 and result.per_passage[0].verdict is SupportVerdict.SUPPORTED
    )


def test_a_wrong_number_lowers_the_score_and_is_explained() -> None:
    checker = HeuristicSupportChecker()
    right = checker.check("Should've Been a Cowboy was released in 1993.", [passage(SONG)])
    wrong = checker.check("Should've Been a Cowboy was released in 1997.", [passage(SONG)])
    assert wrong.score < right.score
    assert any("different numbers" in r for r in wrong.reasons)
    assert any("1997" in r for r in wrong.reasons)


def test_a_negated_claim_scores_lower_than_the_affirmed_one() -> None:
    checker = HeuristicSupportChecker()
    text = "The vaccine reduced hospital admissions among older adults."
    affirmed = checker.check(
        "The vaccine reduced hospital admissions in older adults.", [passage(text)]
    )
    negated = checker.check(
        "The vaccine did not reduce hospital admissions in older adults.", [passage(text)]
    )
    assert negated.score < affirmed.score
    assert any("negation" in r for r in negated.reasons)


def test_a_reversed_direction_scores_lower() -> None:
    checker = HeuristicSupportChecker()
    text = "Statin therapy decreased the risk of stroke in the trial population."
    same = checker.check("Statin therapy decreases stroke risk.", [passage(text)])
    reversed_ = checker.check("Statin therapy increases stroke risk.", [passage(text)])
    assert reversed_.score < same.score
    assert any("opposite directions" in r for r in reversed_.reasons)


def test_an_unrelated_passage_is_unsupported() -> None:
    checker = HeuristicSupportChecker()
    result = checker.check(
        "Toby Keith was born in Clinton, Oklahoma.",
        [passage("Photosynthesis converts light energy into chemical energy in plants.")],
    )
    assert result.verdict is SupportVerdict.UNSUPPORTED
    assert any("clinton" in r and "oklahoma" in r for r in result.reasons)


def test_no_passages_and_empty_claims_fail_closed() -> None:
    checker = HeuristicSupportChecker()
    assert checker.check("Anything at all.", []).verdict is SupportVerdict.UNSUPPORTED
    result = checker.check("It is what it is.", [passage(SONG)])
    assert result.verdict is SupportVerdict.UNSUPPORTED and result.score == 0.0


def test_each_passage_is_also_judged_alone() -> None:
    checker = HeuristicSupportChecker()
    unrelated = passage("Photosynthesis converts light energy into chemical energy.", k=1)
    result = checker.check(
        "Toby Keith recorded Should've Been a Cowboy.", [passage(SONG), unrelated]
    )
    assert [p.evidence_id for p in result.per_passage] == [
        passage(SONG).evidence_id,
        unrelated.evidence_id,
    ]
    assert result.per_passage[1].verdict is SupportVerdict.UNSUPPORTED
    assert result.per_passage[1].score < result.per_passage[0].score


def test_embeddings_are_cached_across_claims(fake_embedder: FakeEmbedder) -> None:
    checker = HeuristicSupportChecker(fake_embedder)
    claim = "Toby Keith recorded Should've Been a Cowboy."
    checker.check(claim, [passage(SONG)])
    first = len(fake_embedder.calls)
    checker.check(claim, [passage(SONG)])
    assert first >= 1 and len(fake_embedder.calls) == first  # nothing embedded twice
    assert [claim] in [list(call) for call in fake_embedder.calls]


def test_lexical_baseline_scores_recall_in_the_best_sentence() -> None:
    result = LexicalOverlapChecker().check("Toby Keith recorded a cowboy song.", [passage(SONG)])
    # claim terms: toby, keith, record, cowboy, song -> the first sentence has all five
    assert result.score == 1.0
    assert result.verdict is SupportVerdict.SUPPORTED
    assert len(result.sentence_ids) == 1


def test_the_model_sees_only_the_focused_run_of_a_long_sentence(
    fake_embedder: FakeEmbedder,
) -> None:
    long_sentence = (
        "After a long and winding career in several bands across the southern states, "
        "and many years on the road, Toby Keith recorded Should've Been a Cowboy in 1993."
    )
    claim = "Toby Keith recorded Should've Been a Cowboy."
    HeuristicSupportChecker(fake_embedder, embed_words=8).check(claim, [passage(long_sentence)])
    embedded = [t for call in fake_embedder.calls for t in call if t != claim]
    assert embedded == ["road, Toby Keith recorded Should've Been a Cowboy"]  # earliest of the ties
    fake_embedder.calls.clear()
    HeuristicSupportChecker(fake_embedder, embed_words=None).check(
        claim + " ", [passage(long_sentence)]
    )
    assert long_sentence in [t for call in fake_embedder.calls for t in call]


def test_a_number_stated_about_something_else_does_not_back_the_claim() -> None:
    text = "Customer invoices are retained for seven years. Refunds take ten days."
    checker = HeuristicSupportChecker()
    wrong = checker.check("Invoices are kept for ten years.", [passage(text)])
    assert wrong.verdict is SupportVerdict.UNSUPPORTED
    assert any("different numbers" in r for r in wrong.reasons)
    right = checker.check("Invoices are kept for seven years.", [passage(text)])
    assert right.verdict is SupportVerdict.SUPPORTED
    refunds = checker.check("Refunds take ten days.", [passage(text)])
    assert refunds.verdict is SupportVerdict.SUPPORTED


def test_a_number_stated_in_the_next_sentence_of_the_best_window_counts() -> None:
    text = "The trial enrolled patients across Europe. In total, 1,200 took part."
    result = HeuristicSupportChecker().check("The trial enrolled 1,200 patients.", [passage(text)])
    assert result.verdict is SupportVerdict.SUPPORTED
    assert not any("different numbers" in r for r in result.reasons)
    wrong = HeuristicSupportChecker().check("The trial enrolled 1,500 patients.", [passage(text)])
    assert wrong.verdict is SupportVerdict.UNSUPPORTED


def test_the_checker_still_works_in_a_forked_child() -> None:
    """Servers fork workers: the pool the parent used must not hang the child."""
    import multiprocessing

    checker = HeuristicSupportChecker(FakeEmbedder())
    claim = "Toby Keith recorded Should've Been a Cowboy."
    parent = checker.check(claim, [passage(SONG)]).verdict
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        child = pool.apply_async(_check_in_child, (claim,)).get(timeout=60)
    assert child == parent.value


def _check_in_child(claim: str) -> str:
    return HeuristicSupportChecker(FakeEmbedder()).check(claim, [passage(SONG)]).verdict.value


def test_a_bare_number_does_not_back_a_claim_whose_unit_the_text_states_otherwise() -> None:
    text = "Our office has 10 staff. Invoices are kept for 7 years."
    result = HeuristicSupportChecker().check("Invoices are kept for 10 years.", [passage(text)])
    assert result.verdict is SupportVerdict.UNSUPPORTED
    assert any("different numbers" in r for r in result.reasons)


def test_a_number_the_cited_text_never_states_is_absent() -> None:
    checker = HeuristicSupportChecker()
    absent = FEATURES.index("num_absent")
    text = "The band released nine albums. It formed in Leeds. Its 12 members toured Europe."
    assert checker.features("The band released 14 albums.", [passage(text)])[absent] == 1.0
    # 12 is stated, though not where the claim's words are: missing there, not absent.
    stated = checker.features("The band released 12 albums.", [passage(text)])
    assert stated[absent] == 0.0 and stated[FEATURES.index("num_missing")] == 1.0
    assert checker.features("The band released nine albums.", [passage(text)])[absent] == 0.0


def test_the_number_veto_needs_a_number_stated_nowhere() -> None:
    text = "The band released nine albums. It formed in Leeds. Its 12 members toured Europe."
    checker = HeuristicSupportChecker()
    absent = checker.check("The band released 14 albums.", [passage(text)])
    assert absent.verdict is SupportVerdict.UNSUPPORTED
    assert any("different numbers" in r for r in absent.reasons)
    # 12 is stated, if about something else: the score decides, not the veto
    # (a page states a claim's number in sentences the checker did not pick).
    elsewhere = checker.features("The band released 12 albums.", [passage(text)])
    assert elsewhere[FEATURES.index("num_conflict")] == 1.0
    assert elsewhere[FEATURES.index("num_absent")] == 0.0


def test_a_claim_negating_what_its_evidence_affirms_is_rejected() -> None:
    # The evidence has a "not" of its own, so the sentence-wide cue agrees; the
    # words the claim's "not" governs are stated there without one.
    text = "The drug is linked to lower blood pressure, but not to weight loss."
    checker = HeuristicSupportChecker()
    wrong = checker.check("The drug is not linked to lower blood pressure.", [passage(text)])
    assert wrong.verdict is SupportVerdict.UNSUPPORTED
    right = checker.check("The drug is not linked to weight loss.", [passage(text)])
    assert right.verdict is not SupportVerdict.UNSUPPORTED
