from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pincite.sentences import sentence_spans


def sentences(text: str, start: int = 0, end: int | None = None) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text, start, end)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
        (
            "Results are in Fig. 3 and Table 2. The effect was 3.5 times larger.",
            ["Results are in Fig. 3 and Table 2.", "The effect was 3.5 times larger."],
        ),
        (
            "See Section 4.2.1 for details, e.g. the U.S. data. Done.",
            ["See Section 4.2.1 for details, e.g. the U.S. data.", "Done."],
        ),
        (
            "Smith et al. found it, i.e. the U.S. Army used it. Next.",
            ["Smith et al. found it, i.e. the U.S. Army used it.", "Next."],
        ),
        (
            "J. R. R. Tolkien and A. B. Jones agreed. Fine.",
            ["J. R. R. Tolkien and A. B. Jones agreed.", "Fine."],
        ),
        ("We live in the U.S. The end.", ["We live in the U.S.", "The end."]),
        ("Dr. Smith said no. It rained.", ["Dr. Smith said no.", "It rained."]),
        (
            "Prices rose vs. last year, cf. Table 1. No. 5 won.",
            ["Prices rose vs. last year, cf. Table 1.", "No. 5 won."],
        ),
        ('He said "It works." Then he left.', ['He said "It works."', "Then he left."]),
        ("Apples, pears, etc. The rest.", ["Apples, pears, etc.", "The rest."]),
        ("Wait... what? Yes… Done.", ["Wait... what?", "Yes…", "Done."]),
        ("这是第一句。这是第二句！", ["这是第一句。", "这是第二句！"]),
        # An initial is no page number: "P." before a name ends nothing.
        (
            "Written by D. Crocker and P. Overell in 2008. Fine.",
            ["Written by D. Crocker and P. Overell in 2008.", "Fine."],
        ),
        ("See p. 5 for it. Fine.", ["See p. 5 for it.", "Fine."]),
    ],
)
def test_abbreviations_numbers_and_punctuation(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_blank_line_always_ends_a_sentence() -> None:
    assert sentences("no full stop here\n\nand none here") == ["no full stop here", "and none here"]
    assert sentences("Fig.\n \nthree") == ["Fig.", "three"]


def test_hard_wrapped_paragraph_stays_one_sentence() -> None:
    text = "The model was trained\non a large corpus and then\nevaluated. Next one."
    assert sentences(text) == [
        "The model was trained\non a large corpus and then\nevaluated.",
        "Next one.",
    ]


def test_bullets_and_numbered_items_are_boundaries() -> None:
    text = "Steps:\n- bullet one\n- bullet two\n1. First item\n2. Second item\n• dot\n(a) sub"
    assert sentences(text) == [
        "Steps:",
        "- bullet one",
        "- bullet two",
        "1. First item",
        "2. Second item",
        "• dot",
        "(a) sub",
    ]


def test_a_parenthesis_closed_after_a_line_break_is_not_a_list_item() -> None:
    # "RDP)" at a line's start ends a parenthesis the wrap split; "b)" and "iv)" open items.
    wrapped = (
        "Remote desktop solutions, such as those using the Remote Desktop Protocol\n"
        "RDP) or Virtual Network Computing (VNC), should only be used for exceptional cases."
    )
    assert sentences(wrapped) == [wrapped]
    assert sentences("Options:\na) first one\nb) second one\niv) fourth one") == [
        "Options:",
        "a) first one",
        "b) second one",
        "iv) fourth one",
    ]


def test_headings_are_boundaries() -> None:
    text = (
        "# Heading\nSome text here. Done\n\n"
        "Introduction\nThis paper studies X.\n4.2 Results\nWe see."
    )
    assert sentences(text) == [
        "# Heading",
        "Some text here.",
        "Done",
        "Introduction",
        "This paper studies X.",
        "4.2 Results",
        "We see.",
    ]


def test_a_wrapped_line_of_capitalised_words_ending_a_sentence_is_no_heading() -> None:
    # RFC 2616 14.34: the middle line is all capitalised words, but a sentence
    # ends inside it, so the next line still continues the sentence it starts.
    text = (
        '   The HTTP access authentication process is described in "HTTP\n'
        '   Authentication: Basic and Digest Access Authentication" [43] . Unlike\n'
        "   Authorization, the Proxy-Authorization header field applies only to\n"
        "   the next outbound proxy.\n"
        "   Section Three\n"
        "   The next part."
    )
    assert [" ".join(s.split()) for s in sentences(text)] == [
        'The HTTP access authentication process is described in "HTTP Authentication: Basic'
        ' and Digest Access Authentication" [43] .',
        "Unlike Authorization, the Proxy-Authorization header field applies only to the next"
        " outbound proxy.",
        "Section Three",
        "The next part.",
    ]


@pytest.mark.parametrize(
    "heading",
    ["Prof. Jones Lecture Notes", "Acme Corp. Annual Report 2020", "Section 3(a). Scope"],
)
def test_a_heading_with_an_abbreviation_or_a_clause_number_is_still_a_heading(
    heading: str,
) -> None:
    # The heading ends a block: the line after it starts a sentence of its own.
    assert sentences(f"{heading}\nThe lecture covers entropy.")[-1] == "The lecture covers entropy."


def test_a_quote_closing_after_the_period_still_ends_the_sentence_inside_the_line() -> None:
    text = 'It is described in "HTTP\nAccess Authentication." Unlike\nAuthorization, it applies.'
    assert [" ".join(s.split()) for s in sentences(text)] == [
        'It is described in "HTTP Access Authentication."',
        "Unlike Authorization, it applies.",
    ]


def test_offsets_are_code_points_and_absolute() -> None:
    text = "😀 Émile went home. Zoë stayed. Ünïcode ends"
    spans = sentence_spans(text)
    assert [text[s:e] for s, e in spans] == ["😀 Émile went home.", "Zoë stayed.", "Ünïcode ends"]
    start = text.index("Zoë")
    assert sentence_spans(text, start) == spans[1:]
    assert sentence_spans(text, start, start + 5) == [(start, start + 5)]


def test_range_outside_text_is_rejected() -> None:
    with pytest.raises(ValueError, match="not within"):
        sentence_spans("abc", 2, 9)
    with pytest.raises(ValueError, match="not within"):
        sentence_spans("abc", 3, 2)


def test_empty_and_whitespace_only() -> None:
    assert sentence_spans("") == []
    assert sentence_spans(" \n\t\n ") == []


_ALPHABET = st.sampled_from(
    [
        *"aZ .!?…。\"'”)(:;,-*#•1234567890\n\t\r\u00a0\u2028é😀",
        *["e.g.", "U.S.", "Fig. ", "et al. ", "3.5", "\n\n", "\n- ", "\n1. ", "The ", "J. "],
    ]
)


@settings(max_examples=400, deadline=None)
@given(parts=st.lists(_ALPHABET, max_size=60), data=st.data())
def test_spans_are_ordered_stripped_and_cover_every_visible_character(
    parts: list[str], data: st.DataObject
) -> None:
    text = "".join(parts)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    spans = sentence_spans(text, start, end)
    covered: set[int] = set()
    previous_end = start
    for s, e in spans:
        assert previous_end <= s < e <= end
        assert not text[s].isspace() and not text[e - 1].isspace()
        covered.update(range(s, e))
        previous_end = e
    visible = {i for i in range(start, end) if not text[i].isspace()}
    assert visible <= covered


def test_a_reference_list_entry_is_one_sentence() -> None:
    # RFC 7230 section 12.1: a title quoted across a line break, after an initial.
    entry = (
        '[RFC5234] Crocker, D., Ed. and P. Overell, "Augmented BNF for\n'
        '          Syntax Specifications: ABNF", STD 68, RFC 5234,\n'
        "          January 2008."
    )
    assert sentences(entry) == [entry]
    # An inch mark opens no quote: the heading is still one.
    assert sentences('Mounting the 19" Rack\nSlide the rails in first.') == [
        'Mounting the 19" Rack',
        "Slide the rails in first.",
    ]
    assert sentences('2.3 Installing 3.5" Drives\nInsert the drive.') == [
        '2.3 Installing 3.5" Drives',
        "Insert the drive.",
    ]
    # A Title Case line with its quotes closed is still a heading.
    assert sentences('The "Quick" Start Guide\nRun the installer first.') == [
        'The "Quick" Start Guide',
        "Run the installer first.",
    ]
