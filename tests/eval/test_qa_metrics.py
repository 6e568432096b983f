"""The pure pieces of `pincite eval qa`, on hand-made cases."""

from __future__ import annotations

import numpy as np
import pytest

from pincite.errors import InputError
from pincite.eval.qa_metrics import (
    Located,
    QuestionOutcome,
    contains_answer,
    first_relevant_rank,
    merge_spans,
    occurrences,
    overlaps,
    parse_question,
    percentile,
    recall_at,
    refusal_threshold,
    summarize,
    tradeoff,
)

GOLD = [Located("doc-a", "h1", 100, 200)]


def row(**over: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": "q1",
        "question": "What is X?",
        "answerable": True,
        "gold_passages": ["X is a thing."],
        "gold_answer": "a thing",
        "document": "x.txt",
        "kind": "definition",
    }
    return base | over


def test_parse_question_reads_every_field() -> None:
    q = parse_question(row(), "f:1")
    assert (q.id, q.answerable, q.gold_passages, q.gold_answer, q.documents, q.kind) == (
        "q1",
        True,
        ("X is a thing.",),
        "a thing",
        ("x.txt",),
        "definition",
    )
    minimal = parse_question({"id": "u", "question": "Why?", "answerable": False}, "f:2")
    assert minimal.gold_passages == () and minimal.documents == () and minimal.kind == "other"
    several = parse_question(row(document=["rfc2616.txt", "rfc7230.txt"]), "f:3")
    assert several.documents == ("rfc2616.txt", "rfc7230.txt")


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"answerable": "yes"}, "'answerable' must be a bool"),
        ({"gold_passages": []}, "needs 'gold_passages'"),
        ({"gold_passages": ["ok", ""]}, "list of non-empty strings"),
        ({"kind": "essay"}, "'kind' must be one of"),
        ({"answerable": False}, "has no gold passages"),
        ({"question": "  "}, "'question' is empty"),
        ({"document": 3}, "'document' must be a string"),
        ({"document": []}, "'document' must be a string or a list"),
        ({"document": ["a.txt", ""]}, "'document' must be a string or a list"),
    ],
)
def test_parse_question_names_the_line_and_the_problem(
    bad: dict[str, object], message: str
) -> None:
    with pytest.raises(InputError, match=message) as exc:
        parse_question(row(**bad), "questions.jsonl:7")
    assert str(exc.value).startswith("questions.jsonl:7: ")


def test_contains_answer_ignores_case_and_line_breaks_but_not_words() -> None:
    cited = ["The client did not produce a request within the time\n   that the server"]
    assert contains_answer(cited, "did NOT produce a request within the time that")
    assert not contains_answer(cited, "did not produce a response")
    assert not contains_answer(cited, "   ")  # an empty gold answer never counts as found


def test_occurrences_finds_every_place_including_overlapping_ones() -> None:
    assert occurrences("abcabcab", "abcab") == [(0, 5), (3, 8)]
    assert occurrences("abc", "x") == []


def test_overlap_needs_a_shared_character_of_the_same_version() -> None:
    assert overlaps(Located("doc-a", "h1", 199, 250), GOLD)
    assert not overlaps(Located("doc-a", "h1", 200, 250), GOLD)  # end is exclusive
    assert not overlaps(Located("doc-a", "h1", 50, 100), GOLD)
    assert not overlaps(Located("doc-a", "h2", 120, 130), GOLD)  # other version
    assert not overlaps(Located("doc-b", "h1", 120, 130), GOLD)


def test_first_relevant_rank_and_recall_at_k() -> None:
    hits = [Located("doc-b", "h1", 0, 50), Located("doc-a", "h1", 150, 160)]
    assert first_relevant_rank(hits, GOLD) == 2
    assert first_relevant_rank(hits[:1], GOLD) is None
    ranks = [1, 2, None, 5]
    assert recall_at(ranks, 1) == 0.25
    assert recall_at(ranks, 3) == 0.5
    assert recall_at(ranks, 5) == 0.75
    assert recall_at([], 5) == 0.0


def test_percentile_matches_numpy() -> None:
    values = [3.0, 1.0, 10.0, 7.5, 2.25]
    for p in (0, 50, 95, 100):
        assert percentile(values, p) == pytest.approx(float(np.percentile(values, p)))
    assert percentile([], 50) == 0.0


def test_merge_spans_joins_across_whitespace_only() -> None:
    text = "One. Two.\nThree. Four"
    assert merge_spans([(5, 9), (0, 4)], text) == [(0, 9)]
    assert merge_spans([(0, 4), (10, 16)], text) == [(0, 4), (10, 16)]  # "Two." between
    assert merge_spans([(0, 9), (10, 16)], text) == [(0, 16)]


def outcome(i: int, **kw: object) -> QuestionOutcome:
    return QuestionOutcome(id=f"q{i}", kind=str(kw.pop("kind", "other")), **kw)  # type: ignore[arg-type]


CASES = [
    outcome(
        1,
        answerable=True,
        answered=True,
        cited_gold=True,
        answer_in_cited=True,
        verdicts=("supported", "partial"),
        score=0.9,
        ranks={"lexical": 1},
        timings_ms={"total": 10.0, "embed": 1.0},
        kind="definition",
    ),
    outcome(
        2,
        answerable=True,
        answered=True,
        cited_gold=False,
        verdicts=("unsupported",),
        score=0.5,
        ranks={"lexical": 4},
        timings_ms={"total": 30.0, "embed": 3.0},
    ),
    outcome(
        3,
        answerable=True,
        answered=False,
        score=0.4,
        ranks={"lexical": None},
        timings_ms={"total": 20.0},
        gold_found=False,
    ),
    outcome(4, answerable=False, answered=False, score=0.3, timings_ms={"total": 5.0}),
    outcome(
        5,
        answerable=False,
        answered=True,
        verdicts=("supported",),
        score=0.7,
        timings_ms={"total": 15.0},
    ),
]


def test_summarize_counts_refusals_as_misses_and_claims_over_all_answers() -> None:
    s = summarize(CASES, ["lexical"])
    a = s["answers"]
    assert (a["answerable"], a["unanswerable"]) == (3, 2)
    assert a["answered"] == round(2 / 3, 4)
    assert a["cited_gold"] == round(1 / 3, 4)
    assert a["answer_in_cited"] == round(1 / 3, 4)
    assert a["precision_when_answered"] == 0.5
    assert a["refusal_recall"] == 0.5
    assert s["retrieval"]["lexical"] == {
        "recall@1": round(1 / 3, 4),
        "recall@3": round(1 / 3, 4),
        "recall@5": round(2 / 3, 4),
        "recall@10": round(2 / 3, 4),
    }
    assert s["claims"] == 4
    assert s["attributability"] == {
        "supported": 0.5,
        "partial": 0.25,
        "unsupported": 0.25,
        "unchecked": 0.0,
    }
    assert s["latency"]["total"]["p50_ms"] == 15.0
    assert s["latency"]["embed"]["p50_ms"] == 2.0  # only questions that embedded
    assert s["by_kind"]["definition"]["cited_gold"] == 1.0
    assert s["gold_not_found"] == ["q3"]


def test_tradeoff_raises_refusal_and_lowers_coverage_as_the_threshold_rises() -> None:
    curve = tradeoff(CASES, [0.0, 0.6, 0.8, 1.0])
    assert curve[0] == (0.0, pytest.approx(1 / 3), 0.5)  # as the pipeline decided
    assert curve[1] == (0.6, pytest.approx(1 / 3), 0.5)  # q5 (0.7) still answered
    assert curve[2] == (0.8, pytest.approx(1 / 3), 1.0)  # q5 now refused
    assert curve[3] == (1.0, 0.0, 1.0)
    coverage = [c for _, c, _ in curve]
    refusal = [r for _, _, r in curve]
    assert coverage == sorted(coverage, reverse=True) and refusal == sorted(refusal)


def test_a_rate_with_nothing_to_count_is_none_not_zero() -> None:
    only_answerable = [o for o in CASES if o.answerable]
    a = summarize(only_answerable, ["lexical"])["answers"]
    assert a["refusal_recall"] is None
    assert summarize(CASES, ["lexical"])["by_kind"]["definition"]["refusal_recall"] is None


def test_the_refusal_threshold_is_the_smallest_that_refuses_the_floor() -> None:
    # Ten unanswerable questions: two refused anyway, eight answered with these scores.
    scores = [0.41, 0.50, 0.552, 0.58, 0.601, 0.70, 0.90, 1.20]
    neg = [outcome(i, answerable=False, answered=True, score=s) for i, s in enumerate(scores)]
    neg += [outcome(10, answerable=False), outcome(11, answerable=False, score=0.99)]
    pos = [outcome(20, answerable=True, answered=True, cited_gold=True, score=0.3)]
    # 80 % of ten is eight: the two refused plus the six lowest, so the cut lies above 0.70.
    assert refusal_threshold([*neg, *pos]) == 0.71
    assert refusal_threshold([*neg, *pos], floor=0.5) == 0.56  # two refused + 0.41, 0.50, 0.552
    # Answerable questions never move it, and a score on a cut point is refused just above it.
    assert refusal_threshold(neg) == 0.71
    assert refusal_threshold(neg, floor=0.6) == 0.59  # 0.41 .. 0.58 refused, 0.58 < 0.59


def test_no_threshold_is_needed_when_enough_are_refused_anyway() -> None:
    neg = [outcome(i, answerable=False) for i in range(4)]
    neg.append(outcome(4, answerable=False, answered=True, score=2.0))
    assert refusal_threshold(neg) is None
    assert refusal_threshold([outcome(1, answerable=True, answered=True, score=1.0)]) is None
