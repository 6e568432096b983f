"""A resource table's entry answers which resource a guide lists: NIST guides end with
tables of further reading whose titles PDF extraction breaks over lines, which the
answerer read as headings and never quoted."""

from __future__ import annotations

import pytest
from extractive_helpers import answered as claims_of
from extractive_helpers import passage

from pincite.generate.question import parse_question
from pincite.generate.resources import asks_resource, resource_entries

# Laid out as SP 800-46 Revision 1's appendix C extracts from its PDF: a title broken
# over lines, a blank line, its address; a page's number and running title between.
TABLE = (
    "Appendix C—Resources\n\n"
    "The lists below provide examples of resources that may be helpful.\n\n"
    "Document Title URL\n"
    "NIST SP 900-12, Guide to Hardening\n"
    "Widget Controllers\n\n"
    "http://example.org/pubs/900-12/SP900-12.pdf\n\n"
    "NIST SP 900-31 Revision 2,\n"
    "Sprocket Maintenance Handbook\n\n"
    "http://example.org/pubs/900-31-rev2/sp900-31-rev2-\n"
    "final.pdf\n\n"
    "C-1\n\n"
    "GUIDE TO ENTERPRISE GEARS AND SPROCKETS\n\n"
    "NIST SP 900-44, Guide to Gear Train\n"
    "Auditing\n\n"
    "http://example.org/pubs/900-44/SP900-44.pdf\n"
)
# As Revision 2's extracts: each title and its address on the lines of one row.
ROWS = (
    "Document Title URL\n"
    "NIST SP 900-50, Guide to Flywheel Safety http://dx.doi.org/10.0000/SP.900-50\n"
    "NIST SP 900-51 Revision 1, Guidelines for Managing\n"
    "Belt Drives in the Enterprise http://dx.doi.org/10.0000/SP.900-51r1\n"
    "OMB Memorandum M-19-07, Securing\n"
    "Conveyor Systems\n\n"
    "http://www.example.gov/omb/memoranda/2019/m19-07.pdf\n"
)


def answered(question: str, *texts: str) -> list[str]:
    return claims_of(question, *texts, section=("Resources",))


def titles(text: str) -> list[str]:
    p = passage(1, text)
    return [" ".join(p.text[s:e].split()) for ((_, s, e),) in resource_entries(p)]


def test_each_entry_is_its_title_without_furniture_or_address() -> None:
    assert titles(TABLE) == [
        "NIST SP 900-12, Guide to Hardening Widget Controllers",
        "NIST SP 900-31 Revision 2, Sprocket Maintenance Handbook",
        "NIST SP 900-44, Guide to Gear Train Auditing",
    ]
    assert titles(ROWS) == [
        "NIST SP 900-50, Guide to Flywheel Safety",
        "NIST SP 900-51 Revision 1, Guidelines for Managing Belt Drives in the Enterprise",
        "OMB Memorandum M-19-07, Securing Conveyor Systems",
    ]


def test_the_entry_answers_which_resource_is_listed() -> None:
    # Scored on words alone (no embedder), the question repeats the title's words.
    assert answered("Which NIST publication is the sprocket maintenance handbook?", TABLE) == [
        "NIST SP 900-31 Revision 2, Sprocket Maintenance Handbook"
    ]
    assert answered("Which OMB memorandum is on securing conveyor systems?", ROWS) == [
        "OMB Memorandum M-19-07, Securing Conveyor Systems"
    ]


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Which NIST publication on VoIP security does the guide list?", True),
        ("Which memorandum on conveyor systems appears in the list of resources?", True),
        ("what website does the guide give for home network security", True),
        ("How often must sprockets be maintained?", False),
        # Naming its own document asks for nothing it lists.
        ("What does SP 900-31 say about the security of sprocket drives?", False),
        ("Which resources does a cloud provider pool?", False),
    ],
)
def test_a_resource_is_asked_for_in_so_many_words(question: str, asks: bool) -> None:
    assert asks_resource(parse_question(question)) is asks


def test_no_entry_unless_a_resource_is_asked_for() -> None:
    assert answered("How often is sprocket maintenance handbook auditing done?", TABLE) == []


def test_prose_before_an_address_and_a_lone_address_are_no_table() -> None:
    prose = (
        "Staff should read the sprocket guide before servicing a gear train.\n"
        "http://example.org/sprockets\n\n"
        "The handbook is kept on the intranet at http://intranet.example.org/handbook\n"
    )
    assert titles(prose) == []
    two = "Sprocket Handbook http://example.org/a\nGear Guide http://example.org/b\n"
    assert titles(two) == []
