from __future__ import annotations

from dataclasses import dataclass

import pytest

from pincite.errors import InputError
from pincite.retrieve.dedup import (
    SHINGLE_SIZE,
    dedup,
    jaccard_similarity,
    normalize_for_dedup,
    shingles,
    spans_overlap,
)


@dataclass(frozen=True, slots=True)
class Passage:
    name: str
    text: str
    version: str = "v1"
    start: int = 0
    end: int = 0


def text_of(p: Passage) -> str:
    return p.text


def span_of(p: Passage) -> tuple[str, int, int]:
    return (p.version, p.start, p.end)


def names(passages: list[Passage]) -> list[str]:
    return [p.name for p in passages]


WORDS = [f"w{i}" for i in range(40)]


def words(n: int) -> list[str]:
    return WORDS[:n]


# --- normalize_for_dedup --------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  Hello,   WORLD!\n", "hello world"),
        ("end-to-end", "end to end"),
        ("«Quoted» — text…", "quoted text"),  # guillemets Pi/Pf, em dash Pd, ellipsis Po
        ("\ufb01nance", "finance"),  # the "fi" ligature, as PDFs extract it
        ("Straße", "strasse"),  # casefold, not lower
        ("tab\tand\nnewline", "tab and newline"),
        ("", ""),
        ("...", ""),
    ],
)
def test_normalize_for_dedup(raw: str, expected: str) -> None:
    assert normalize_for_dedup(raw) == expected


def test_normalize_keeps_symbols_and_digits() -> None:
    # "%" is category Po (punctuation, dropped); "+" and "=" are Sm (symbols, kept).
    assert normalize_for_dedup("1 + 1 = 2, 100%") == "1 + 1 = 2 100"


# --- shingles and jaccard -------------------------------------------------


def test_shingle_size_is_five() -> None:
    assert SHINGLE_SIZE == 5


def test_shingles_of_short_and_long_texts() -> None:
    assert shingles("") == frozenset()
    assert shingles("a b c") == frozenset({("a", "b", "c")})
    # 7 words -> 7 - 5 + 1 = 3 shingles
    assert shingles("a b c d e f g") == frozenset(
        {("a", "b", "c", "d", "e"), ("b", "c", "d", "e", "f"), ("c", "d", "e", "f", "g")}
    )


def test_jaccard_similarity() -> None:
    a = shingles("a b c d e f g")  # abcde bcdef cdefg
    b = shingles("a b c d e f x")  # abcde bcdef cdefx
    assert jaccard_similarity(a, b) == pytest.approx(2 / 4)
    assert jaccard_similarity(a, a) == 1.0
    assert jaccard_similarity(frozenset(), frozenset()) == 0.0


# --- spans_overlap --------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 100), (40, 120), True),  # overlap 60 > 80/2
        ((0, 100), (60, 200), False),  # overlap 40, shorter 100: 40 <= 50
        ((0, 100), (50, 150), False),  # exactly half is not "more than half"
        ((0, 100), (49, 149), True),  # overlap 51 > 50
        ((0, 1000), (10, 20), True),  # contained: overlap 10 of shorter 10
        ((0, 10), (10, 20), False),  # touching, end exclusive
        ((5, 5), (0, 10), False),  # empty span
    ],
)
def test_spans_overlap(a: tuple[int, int], b: tuple[int, int], expected: bool) -> None:
    assert spans_overlap(a, b) is expected
    assert spans_overlap(b, a) is expected


# --- dedup ----------------------------------------------------------------


def test_dedup_drops_normalised_equal_text_keeping_the_first() -> None:
    items = [
        Passage("first", "The cat sat."),
        Passage("other", "A dog ran."),
        Passage("copy", "  the CAT   sat "),
    ]
    assert names(dedup(items, key_text=text_of)) == ["first", "other"]


def test_dedup_jaccard_threshold_hand_computed() -> None:
    base = words(20)
    # 20 words -> 16 shingles. Changing the last word changes one shingle:
    # shared 15, union 17 -> J = 15/17 = 0.882
    changed = [*base[:-1], "zzz"]
    items = [Passage("base", " ".join(base)), Passage("changed", " ".join(changed))]
    assert names(dedup(items, key_text=text_of, jaccard=0.9)) == ["base", "changed"]
    assert names(dedup(items, key_text=text_of, jaccard=0.88)) == ["base"]
    # 30 words (26 shingles) vs the same plus one word (27 shingles):
    # shared 26, union 27 -> J = 0.963 >= 0.9
    longer = words(30)
    items = [Passage("a", " ".join(longer)), Passage("b", " ".join([*longer, "extra"]))]
    assert names(dedup(items, key_text=text_of)) == ["a"]


def test_dedup_keeps_distinct_short_texts() -> None:
    items = [Passage("a", "alpha beta"), Passage("b", "alpha gamma"), Passage("c", "beta")]
    assert names(dedup(items, key_text=text_of)) == ["a", "b", "c"]


def test_dedup_span_overlap_same_version_only() -> None:
    items = [
        Passage("kept", "one", "v1", 0, 100),
        Passage("overlaps", "two", "v1", 40, 120),  # 60 of shorter 80 -> dropped
        Passage("other version", "three", "v2", 40, 120),  # different version -> kept
        Passage("half", "four", "v1", 50, 150),  # exactly half of 100 -> kept
    ]
    kept = dedup(items, key_text=text_of, key_span=span_of)
    assert names(kept) == ["kept", "other version", "half"]
    # without key_span, spans are not looked at
    assert len(dedup(items, key_text=text_of)) == 4


def test_dedup_compares_against_kept_items_only() -> None:
    items = [
        Passage("a", "alpha", "v1", 0, 100),
        Passage("b", "beta", "v1", 10, 90),  # dropped: inside a's span
        Passage("c", "beta", "v2", 0, 10),  # same text as b, but b was not kept
    ]
    assert names(dedup(items, key_text=text_of, key_span=span_of)) == ["a", "c"]


def test_dedup_limit_stops_early() -> None:
    calls: list[str] = []

    def counting_text(p: Passage) -> str:
        calls.append(p.name)
        return p.text

    items = [Passage("a", "x"), Passage("a2", "x"), Passage("b", "y"), Passage("c", "z")]
    assert names(dedup(items, key_text=counting_text, limit=2)) == ["a", "b"]
    assert calls == ["a", "a2", "b"]  # "c" is never looked at
    assert dedup(items, key_text=text_of, limit=0) == []
    assert names(dedup(items, key_text=text_of, limit=10)) == ["a", "b", "c"]


def test_dedup_empty_input() -> None:
    assert dedup([], key_text=text_of) == []


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"limit": -1}, "limit"),
        ({"jaccard": 0.0}, "jaccard"),
        ({"jaccard": 1.5}, "jaccard"),
    ],
)
def test_dedup_rejects_bad_arguments(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(InputError, match=match):
        dedup([Passage("a", "x")], key_text=text_of, **kwargs)  # type: ignore[arg-type]


def test_dedup_rejects_reversed_span() -> None:
    with pytest.raises(InputError, match="ends before it starts"):
        dedup([Passage("a", "x", "v1", 10, 5)], key_text=text_of, key_span=span_of)
