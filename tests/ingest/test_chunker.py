from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pincite.ingest.base import ChunkDraft, Heading, PageSpan, ParsedDocument, TextBox
from pincite.ingest.chunk import CHUNKER, MAX_BOXES, chunk, embed_text
from pincite.ingest.parse import parse_bytes
from pincite.model import BBox


def doc_of(text: str, **kwargs: object) -> ParsedDocument:
    return ParsedDocument(text=text, parser="test/1", **kwargs)  # type: ignore[arg-type]


def texts(doc: ParsedDocument, chunks: list[ChunkDraft]) -> list[str]:
    return [doc.text[c.start : c.end] for c in chunks]


def assert_well_formed(doc: ParsedDocument, chunks: list[ChunkDraft], max_chars: int) -> None:
    previous_end = 0
    for ordinal, c in enumerate(chunks):
        span = doc.text[c.start : c.end]
        assert c.ordinal == ordinal
        assert span and span == span.strip()
        assert c.start >= previous_end
        assert c.end - c.start <= max_chars
        previous_end = c.end
    # Only whitespace is left out of every chunk.
    covered = "".join(texts(doc, chunks))
    assert "".join(covered.split()) == "".join(doc.text.split())


def test_chunker_version_is_recorded() -> None:
    assert CHUNKER == "pincite-chunker/3"


def test_short_text_is_one_stripped_chunk() -> None:
    doc = doc_of("\n\n  Hello world.  \n")
    (only,) = chunk(doc)
    assert doc.text[only.start : only.end] == "Hello world."
    assert only.section == ()


def test_whitespace_only_text_has_no_chunks() -> None:
    assert chunk(doc_of(" \n\t\f ")) == []


def test_paragraph_break_is_preferred_over_sentences() -> None:
    first = "Alpha sentence one. " * 5 + "Alpha end."
    second = "Beta sentence one. " * 5 + "Beta end."
    doc = doc_of(first + "\n\n" + second)
    out = chunk(doc, min_chars=20, target_chars=60, max_chars=150)
    assert texts(doc, out) == [first, second]


def test_sentence_end_is_preferred_over_a_bare_space() -> None:
    text = "This is a sentence that ends here. Then " + "word " * 40
    doc = doc_of(text)
    out = chunk(doc, min_chars=10, target_chars=60, max_chars=100)
    assert texts(doc, out)[0] == "This is a sentence that ends here."
    assert_well_formed(doc, out, 100)


def test_never_cuts_mid_word_unless_one_token_is_too_long() -> None:
    doc = doc_of(" ".join(f"word{i:03d}" for i in range(300)))
    out = chunk(doc, min_chars=20, target_chars=50, max_chars=80)
    for span in texts(doc, out):
        assert all(len(w) == 7 for w in span.split())
    long_token = "x" * 250
    doc = doc_of(f"short {long_token} tail")
    out = chunk(doc, min_chars=20, target_chars=50, max_chars=100)
    assert texts(doc, out) == ["short", "x" * 100, "x" * 100, "x" * 50 + " tail"]


def test_each_heading_starts_a_chunk_and_sets_the_path() -> None:
    body = "Some text about the topic. " * 12
    parts = ["1 Intro", body, "1.1 Detail", body, "2 Next", body]
    text = "\n\n".join(parts)
    headings = []
    for title, level in (("1 Intro", 1), ("1.1 Detail", 2), ("2 Next", 1)):
        start = text.index(title)
        headings.append(Heading(start, start + len(title), level, title))
    doc = doc_of(text, headings=tuple(headings))
    out = chunk(doc, min_chars=50, target_chars=500, max_chars=800)
    assert [c.start for c in out] == [h.start for h in headings]
    assert [c.section for c in out] == [("1 Intro",), ("1 Intro", "1.1 Detail"), ("2 Next",)]


def test_a_markdown_heading_starts_its_chunk_with_its_markup() -> None:
    # The parser's heading is its text; cut there, "##" ended the chunk before
    # and "What if I am ill?" opened the next one as a bare question.
    body = "Some text about the topic. " * 12
    text = f"# Policy\n\n{body}\n\n## What if I am ill?\n\n{body}\n\n> ### Quoted\n\n{body}"
    headings = []
    for title, level in (("Policy", 1), ("What if I am ill?", 2), ("Quoted", 3)):
        start = text.index(title)
        headings.append(Heading(start, start + len(title), level, title))
    doc = doc_of(text, headings=tuple(headings))
    out = texts(doc, chunk(doc, min_chars=50, target_chars=500, max_chars=800))
    assert [t.split("\n")[0] for t in out] == ["# Policy", "## What if I am ill?", "> ### Quoted"]
    assert not any(t.endswith("#") for t in out)


def test_a_heading_after_words_on_its_line_is_cut_at_its_text() -> None:
    body = "Some text about the topic. " * 12
    text = f"{body}\n\nSee below. 2 Next\n\n{body}"
    start = text.index("2 Next")
    doc = doc_of(text, headings=(Heading(start, start + 6, 1, "2 Next"),))
    out = chunk(doc, min_chars=50, target_chars=500, max_chars=800)
    assert [c.start for c in out] == [0, start]


def test_tiny_section_joins_the_next_one() -> None:
    text = "2 Chapter\n\n2.1 Part\n\n" + "Words in the part. " * 10
    headings = (
        Heading(0, 9, 1, "2 Chapter"),
        Heading(text.index("2.1"), text.index("2.1") + 8, 2, "2.1 Part"),
    )
    doc = doc_of(text, headings=headings)
    (only,) = chunk(doc, min_chars=50, target_chars=500, max_chars=800)
    assert only.start == 0
    assert only.section == ("2 Chapter",)


def test_preamble_before_the_first_heading_has_no_section() -> None:
    text = "Preamble text that is long enough to stand alone.\n\n# H\n\nBody."
    start = text.index("# H")
    doc = doc_of(text, headings=(Heading(start, start + 3, 1, "H"),))
    out = chunk(doc, min_chars=10, target_chars=100, max_chars=200)
    assert [c.section for c in out] == [(), ("H",)]


def test_pages_and_label_of_the_first_page() -> None:
    page_one, page_two = "First page words. " * 3, "Second page words. " * 3
    text = page_one + "\f\n" + page_two
    split = len(page_one) + 2
    pages = (PageSpan(1, 0, split, "iv"), PageSpan(2, split, len(text), "v"))
    doc = doc_of(text, pages=pages)
    (both,) = chunk(doc, min_chars=10, target_chars=500, max_chars=1000)
    assert both.pages == (1, 2)
    assert both.page_label == "iv"
    second = chunk(doc, min_chars=10, target_chars=30, max_chars=60)[-1]
    assert second.pages == (2,)
    assert second.page_label == "v"


def test_boxes_of_one_line_merge_and_only_overlapping_boxes_are_kept() -> None:
    text = "left right\nnext line\nfar away"
    boxes = (
        TextBox(0, 4, BBox(1, 10, 100, 40, 112)),
        TextBox(5, 10, BBox(1, 50, 101, 90, 112)),  # same line, second word
        TextBox(11, 20, BBox(1, 10, 85, 80, 97)),
        TextBox(21, 29, BBox(2, 10, 85, 80, 97)),
    )
    doc = doc_of(text, boxes=boxes)
    (c,) = chunk(doc, min_chars=1)
    assert c.bboxes == (
        BBox(1, 10, 100, 90, 112),
        BBox(1, 10, 85, 80, 97),
        BBox(2, 10, 85, 80, 97),
    )
    first = chunk(doc, min_chars=1, target_chars=9, max_chars=10)[0]
    assert first.bboxes == (BBox(1, 10, 100, 90, 112),)


def test_box_count_is_capped() -> None:
    lines = [f"line {i:03d}" for i in range(200)]
    text = "\n".join(lines)
    boxes = []
    pos = 0
    for i, line in enumerate(lines):
        y = 800 - 12 * (i % 60)
        boxes.append(TextBox(pos, pos + len(line), BBox(1 + i // 60, 72, y - 10, 300, y)))
        pos += len(line) + 1
    doc = doc_of(text, boxes=tuple(boxes))
    (c,) = chunk(doc, max_chars=len(text))
    assert len(c.bboxes) <= MAX_BOXES
    assert {b.page for b in c.bboxes} == {1, 2, 3, 4}


@pytest.mark.parametrize(("target", "maximum", "minimum"), [(10, 5, 1), (10, 20, 15), (10, 20, 0)])
def test_inconsistent_sizes_are_rejected(target: int, maximum: int, minimum: int) -> None:
    with pytest.raises(ValueError, match="min_chars"):
        chunk(doc_of("x"), target_chars=target, max_chars=maximum, min_chars=minimum)


def test_embed_text_prefixes_title_and_heading_path() -> None:
    assert embed_text("Guide", ("1 Intro", "1.1 Scope"), "Body.") == (
        "Guide\n1 Intro > 1.1 Scope\n\nBody."
    )
    assert embed_text(None, ("S",), "Body.") == "S\n\nBody."
    assert embed_text("Guide", (), "Body.") == "Guide\n\nBody."
    assert embed_text(None, (), "Body.") == "Body."


words = st.sampled_from(["a", "word", "Sentence.", "end!", "x" * 30, "Ünïcödé", "\n", "\n\n", " "])


@st.composite
def documents(draw: st.DrawFn) -> ParsedDocument:
    text = " ".join(draw(st.lists(words, min_size=0, max_size=400)))
    starts = sorted(set(draw(st.lists(st.integers(0, max(0, len(text) - 1)), max_size=8))))
    headings = tuple(
        Heading(s, min(len(text), s + 5), draw(st.integers(1, 3)), f"h{s}") for s in starts
    )
    return doc_of(text, headings=headings)


@settings(max_examples=150, deadline=None)
@given(
    doc=documents(),
    sizes=st.tuples(st.integers(1, 60), st.integers(0, 60), st.integers(0, 60)),
)
def test_any_document_chunks_into_exact_ordered_stripped_spans(
    doc: ParsedDocument, sizes: tuple[int, int, int]
) -> None:
    minimum = sizes[0]
    target = minimum + sizes[1]
    maximum = target + sizes[2]
    out = chunk(doc, min_chars=minimum, target_chars=target, max_chars=maximum)
    assert_well_formed(doc, out, maximum)


def test_a_chunk_holding_two_sections_is_in_what_they_share() -> None:
    text = (
        "# Policy\n\n## Definitions\n\n" + "Words defined here. " * 8 + "\n\n"
        "## Questions\n\n### Can I claim for travel insurance?\n\n"
        "No. The company policy covers all business travel, so your own insurance is not paid.\n\n"
        "### Who do I contact?\n\nEmail the finance team with your claim number.\n"
    )
    doc = parse_bytes(text.encode(), "policy.md")
    faq = next(c for c in chunk(doc) if "Who do I contact?" in text[c.start : c.end])
    # Two short sections joined: the chunk opens at the first question.
    assert text[faq.start : faq.end].startswith("### Can I claim for travel insurance?")
    # Not ("Policy", "Questions", "Can I claim for travel insurance?"): a citation of
    # the second answer would name the first question's section.
    assert faq.section == ("Policy", "Questions")


def test_a_heading_closing_a_chunk_does_not_narrow_its_section() -> None:
    text = (
        "# Policy\n\n"
        + "This policy says how we work. " * 10
        + "\n\n## Scope\n\n"
        + "Scope words here. " * 10
        + "\n\n## Terms\n\n"
        + "A long paragraph about terms. " * 60
    )
    chunks = chunk(parse_bytes(text.encode(), "policy.md"))
    scope = chunks[1]
    assert text[scope.start : scope.end].startswith("## Scope")
    assert text[scope.end - len("## Terms") : scope.end] == "## Terms"
    # "## Terms" heads the next chunk's text: this one is still all in Scope.
    assert scope.section == ("Policy", "Scope")
    assert chunks[2].section == ("Policy", "Terms")
