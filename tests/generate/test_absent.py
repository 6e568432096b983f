"""A question naming something no passage shown holds ("the DNT header", "the PURGE
method") asks about what the passages do not cover: its evidence is marked down, so
near-misses that share every other word are refused."""

from __future__ import annotations

from dataclasses import replace

import pytest
from extractive_helpers import passage

from pincite.generate.absent import absent_names
from pincite.generate.extractive import ExtractiveConfig, ExtractiveGenerator

IGNORED = (
    "A server MAY ignore any request header field that it does not recognise, and a "
    "proxy MUST forward such header fields unchanged."
)
KIT = (
    "**Keeping-in-touch day** means a day of paid work done during parental leave by "
    "agreement with the line manager."
)


@pytest.mark.parametrize(
    ("question", "absent"),
    [
        ("How should a server honor the DNT (Do Not Track) request header?", ("DNT",)),
        ("What does the HttpOnly attribute do?", ("HttpOnly",)),
        ("Must a proxy forward the Alt-Svc header field?", ("Alt-Svc",)),
        # Held, in any case; a capitalised word alone is no name.
        ("Must a proxy forward a Request Header Field it does not know?", ()),
        ("Does a server have to honor every REQUEST HEADER FIELD?", ()),
        # An example the question gives asks about nothing.
        ("Can a proxy drop header fields it has never heard of (X-Frame etc)?", ()),
        ("May a server ignore header fields such as DNT?", ()),
        # Whose words are asked about, and a document's name and number.
        ("Does NIST say a server may ignore header fields?", ()),
        ("per the IETF spec, may a server ignore a header field?", ()),
        ("Under RFC 9110, may a server ignore a header field?", ()),
        # A scene before the question says what the asker has, not what is asked.
        ("Our client sends DNT on every POST. May a server ignore a header field?", ()),
        # The asked name, wherever the question's words put it.
        ("What goes in the DNT header?", ("DNT",)),
        # A question typed in capitals names nothing by them.
        ("HOW MUST A PROXY FORWARD THE DNT HEADER?", ()),
        # An example given before the asking sentence's end, e.g. in a scene.
        ("Which header, e.g. Sec-GPC, may a server ignore?", ()),
        # A hyphenated name written run together, and a short name inside a word.
        ("May a server ignore a Request-Header field?", ()),
        # RFC 2119's keywords are written in capitals for weight.
        ("Is it true that a server MUST NOT ignore header fields?", ()),
    ],
)
def test_a_name_no_passage_holds_is_absent(question: str, absent: tuple[str, ...]) -> None:
    assert absent_names(question, [passage(1, IGNORED)]) == absent


def test_a_short_name_inside_a_word_is_not_held() -> None:
    titled = passage(1, "Each request header field has a title and a value.")
    assert absent_names("May IT change a header field's title?", [titled]) == ("IT",)


def test_a_plural_name_is_held_as_its_singular() -> None:
    etag = passage(
        1, "The ETag response-header field provides the current value of the entity tag."
    )
    assert absent_names("What are ETags for?", [etag]) == ()


def test_an_acronym_a_passage_spells_out_is_held() -> None:
    assert absent_names("what's a KIT day", [passage(1, KIT)]) == ()
    # In any case: the passage's own sentence opens with the words.
    patches = passage(1, "Operating system patches are applied every month.")
    assert absent_names("how often do OS patches go on", [patches]) == ()
    assert absent_names("what's a KIT day", [passage(1, IGNORED)]) == ("KIT",)


def test_a_question_naming_an_absent_thing_has_less_evidence() -> None:
    shipped = ExtractiveGenerator()
    without = ExtractiveGenerator(config=replace(ExtractiveConfig(), absent_name_penalty=0.0))
    given = [passage(1, IGNORED)]
    named = "Must a proxy forward the DNT request header field unchanged?"
    held = "Must a proxy forward a request header field it does not recognise unchanged?"
    penalty = ExtractiveConfig().absent_name_penalty
    score = without.assess(named, given)[0]
    assert shipped.assess(named, given)[0] == pytest.approx(score - penalty)
    assert shipped.assess(held, given)[0] == pytest.approx(without.assess(held, given)[0])
    # At a threshold the unmarked evidence clears, the near-miss is refused.
    at = round(score - penalty / 2, 3)
    assert without.with_threshold(at).generate(named, given).sufficient_context
    assert not shipped.with_threshold(at).generate(named, given).sufficient_context
